"""The first run's round robin: every pairing of the reference bots, rated, so the ladder and replays have games.

The matches carry a fixed seed prefix, so a second run finds them and plays
nothing again.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from arena.bots.services import reference_versions_ensure
from arena.matches.models import Match
from arena.matches.services import match_create
from bots_sdk.cli.progress import Progress

SEED = "first-run"
DEALS = 2
"""Duplicate deals per pairing (each deal in both seatings)."""


def first_round_robin() -> list[Match]:
    """The round robin's matches, created on the first run only."""
    existing = list(Match.objects.filter(seed__startswith=SEED).order_by("pk"))
    if existing:
        return existing
    versions = reference_versions_ensure()
    names = sorted(versions)
    return [
        match_create(kind=Match.Kind.LADDER, versions=[versions[a], versions[b]], preset="classic", deals=DEALS,
                     rated=True, seed=f"{SEED}-{a}-{b}")
        for a, b in itertools.combinations(names, 2)
    ]


def follow(matches: list[Match], check: Callable[[], None], poll_s: float = 0.5) -> None:
    """A progress bar over the matches' games until all are done; ``check`` raises if a child process died."""
    ids = [m.pk for m in matches]
    total = sum(m.deals * m.players for m in matches)
    finished = (Match.Status.DONE, Match.Status.FAILED)
    if Match.objects.filter(pk__in=ids, status__in=finished).count() == len(ids):
        print(f"the round robin of an earlier run is done ({total} games)")
        return
    with Progress(total, "round robin games") as bar:
        shown = 0
        while True:
            check()
            done = Match.objects.filter(pk__in=ids, status__in=finished)
            played = sum(m.deals * m.players for m in done)
            if played > shown:
                bar.advance(played - shown)
                shown = played
            if done.count() == len(ids):
                return
            time.sleep(poll_s)
