"""Reads of the bots app: bots, versions, and results per opponent."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from arena.bots.models import Bot, BotVersion


def bot_get(name: str) -> Bot:
    return get_object_or_404(Bot.objects.select_related("owner"), name=name)


def bot_list() -> QuerySet[Bot]:
    return Bot.objects.select_related("owner").prefetch_related("versions")


def bot_versions(bot: Bot) -> list[BotVersion]:
    return list(bot.versions.defer("archive").order_by("-number"))


def active_versions() -> QuerySet[BotVersion]:
    return BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot").defer("archive")


def version_get(pk: int) -> BotVersion:
    return get_object_or_404(BotVersion.objects.select_related("bot__owner").defer("archive"), pk=pk)


@dataclass(frozen=True)
class OpponentResult:
    """Games a bot shared with one opponent version; who of the two was the durak how often."""

    opponent: BotVersion
    games: int
    my_duraks: int
    their_duraks: int
    draws: int


_OPPONENTS_SQL = """
SELECT o.version_id, COUNT(*),
       SUM(CASE WHEN m.durak THEN 1 ELSE 0 END),
       SUM(CASE WHEN o.durak THEN 1 ELSE 0 END),
       SUM(CASE WHEN g.draw THEN 1 ELSE 0 END)
FROM matches_gameseat m
JOIN matches_gameseat o ON o.game_id = m.game_id AND o.seat <> m.seat
JOIN matches_game g ON g.id = m.game_id
JOIN bots_botversion ov ON ov.id = o.version_id
WHERE m.version_id IN (SELECT id FROM bots_botversion WHERE bot_id = %s) AND ov.bot_id <> %s
GROUP BY o.version_id
ORDER BY COUNT(*) DESC
"""


def bot_opponents(bot: Bot) -> list[OpponentResult]:
    """Results against every opponent version, most played first (one grouped query)."""
    with connection.cursor() as cursor:
        cursor.execute(_OPPONENTS_SQL, [bot.pk, bot.pk])
        rows = cursor.fetchall()
    versions = BotVersion.objects.select_related("bot").defer("archive").in_bulk([row[0] for row in rows])
    return [OpponentResult(versions[row[0]], int(row[1]), int(row[2]), int(row[3]), int(row[4])) for row in rows]
