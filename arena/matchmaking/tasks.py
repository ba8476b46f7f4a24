"""The periodic matchmaking task (django-celery-beat, every minute): a thin layer over the pass and the
starvation check, logging what it did."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from arena.matches.models import Match
from arena.matchmaking.conf import matchmaking_config
from arena.matchmaking.selectors import starved_versions
from arena.matchmaking.services import FILL_TASK, matchmaking_pass

log = logging.getLogger(__name__)


@shared_task(name=FILL_TASK)
def fill_ladders() -> dict[str, list[int]]:
    created = matchmaking_pass()
    matches = Match.objects.filter(pk__in=[m.pk for m in created]).prefetch_related("entries__version__bot")
    for match in sorted(matches, key=lambda m: m.pk):
        log.info("matchmaking: match %s on %s-%d: %s", match.pk, match.preset, match.players,
                 ", ".join(entry.version.display for entry in match.entries.all()))
    now = timezone.now()
    config = matchmaking_config()
    threshold = config.starved_after.total_seconds() / 60
    starved = starved_versions(now, config)
    for item in starved:
        since = item.last_played or item.version.admitted
        waited = "ever" if since is None else f"{(now - since).total_seconds() / 60:.0f} min"
        last = "never" if item.last_played is None else item.last_played.isoformat(timespec="seconds")
        log.warning("matchmaking: %s has not played a rated game for %s (last rated game: %s; threshold %.0f min)",
                    item.version.display, waited, last, threshold)
    return {"created": [m.pk for m in created], "starved": [item.version.pk for item in starved]}
