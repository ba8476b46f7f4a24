"""The first run's tournament: a rated round robin of the reference bots, so the site has standings, a ladder
and replays to show.

It is found again by name, so a second run plays nothing twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings

from arena.bots.services import reference_versions_ensure
from arena.tournaments.models import Format, Tournament
from arena.tournaments.selectors import tournament_progress
from arena.tournaments.services import tournament_create
from bots_sdk.cli.progress import Progress

NAME = "First run: the reference bots"


def first_tournament() -> Tournament:
    """The first run's tournament, created (to start at once) on the first run only, with
    ``ARENA_FIRST_RUN_DEALS`` duplicate deals per pairing (each deal in both seatings)."""
    existing = Tournament.objects.filter(name=NAME).order_by("pk").first()
    if existing is not None:
        return existing
    versions = reference_versions_ensure()
    return tournament_create(name=NAME, format=Format.ROUND_ROBIN, preset="classic", players=2,
                             deals=settings.ARENA_FIRST_RUN_DEALS,
                             versions=[versions[name] for name in sorted(versions)], rated=True,
                             allow_overlap=True)


def follow(tournament: Tournament, check: Callable[[], None], poll_s: float = 0.5) -> None:
    """A progress bar over the tournament's matches until it ends; ``check`` raises if a child process died."""
    ended = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    tournament.refresh_from_db()
    if tournament.status in ended:
        print(f"the tournament of an earlier run is {tournament.status}")
        return
    progress = tournament_progress(tournament)
    with Progress(progress.total, "tournament matches") as bar:
        shown = 0
        while True:
            check()
            tournament.refresh_from_db()
            progress = tournament_progress(tournament)
            bar.total = max(bar.total, progress.total)
            if progress.finished > shown:
                bar.advance(progress.finished - shown)
                shown = progress.finished
            if tournament.status in ended:
                return
            time.sleep(poll_s)
