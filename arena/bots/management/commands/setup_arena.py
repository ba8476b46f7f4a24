"""``manage.py setup_arena``: what a fresh arena needs after ``migrate``; running it again changes nothing.

The reference bots (random, gentle, strong) as active versions, and the beat
schedules: the periodic rating fit, the ladder matchmaking, the tournaments' minute task and the reaper.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from arena.bots.services import reference_versions_ensure
from arena.matchmaking.services import matchmaking_schedule_ensure
from arena.ops.reaper import reaper_schedule_ensure
from arena.ratings.services import refit_schedule_ensure
from arena.tournaments.services import tournament_schedules_ensure


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        versions = reference_versions_ensure()
        refit_schedule_ensure()
        matchmaking_schedule_ensure()
        tournament_schedules_ensure()
        reaper_schedule_ensure()
        self.stdout.write(f"reference bots: {', '.join(sorted(versions))}; rating refit, matchmaking, "
                          "tournaments and the reaper scheduled")
