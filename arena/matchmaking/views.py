"""The ladder activity page: is the matchmaker keeping every ladder and every bot busy?"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from arena.matchmaking.conf import matchmaking_config
from arena.matchmaking.selectors import (
    bot_activity,
    ladder_activity,
    ladder_games_by_hour,
    queue_activity,
    recovery_activity,
)


def activity(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    config = matchmaking_config()
    ladders = ladder_activity(now, config)
    bots = bot_activity(now, config)
    labels, series = ladder_games_by_hour(now)
    return render(request, "matchmaking/activity.html", {
        "ladders": ladders,
        "queues": queue_activity(),
        "bots": bots,
        "starved": sum(1 for bot in bots if bot.starved),
        "in_flight": sum(ladder.queued + ladder.running for ladder in ladders),
        "config": config,
        "recovery": recovery_activity(now),
        "starved_minutes": round(config.starved_after.total_seconds() / 60),
        "chart": {"labels": labels, "series": series},
    })
