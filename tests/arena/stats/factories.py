"""Matches for the statistics tests: hand-built rows, so every expected figure is known, and real engine matches.

``store`` and ``duplicate`` write rows directly. ``played`` plays a match of reference bots through the
engine and stores it through the matches services exactly as a worker does (team games included, where
every seat of the losing team is marked the durak); its tests count the expected figures again from the
engine's records, independently of the SQL under test.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, GameSeat, Match, MatchEntry
from arena.matches.services import match_claim, match_create, match_spec, match_store_result
from worker.referee.launch import launcher_for
from worker.referee.match import GameResult, play_spec

_numbers = itertools.count()


def versions(*names: str, owner: str = "owner") -> list[BotVersion]:
    user, _ = User.objects.get_or_create(username=owner)
    return [BotVersion.objects.create(bot=Bot.objects.create(owner=user, name=name), number=1, label="1",
                                      language="python", status=BotVersion.Status.ACTIVE) for name in names]


@dataclass(frozen=True)
class Played:
    """One game as the statistics read it; seats hold the match's entries rotated as the referee rotates them."""

    durak: int | None
    """Seat of the durak (None: a draw)."""
    trumps: Sequence[int | None] = ()
    """Trumps dealt to each seat (empty: unknown)."""
    first: int | None = 0
    bouts: int = 30
    deal: int = 0
    rotation: int = 0
    reason: str = "normal"
    offender: int | None = None


def store(entries: Sequence[BotVersion], games: Sequence[Played], preset: str = "classic",
          kind: str = Match.Kind.LADDER) -> Match:
    """A finished match of ``entries`` holding ``games``; seat s of rotation r holds entry (s + r) % N."""
    n = len(entries)
    match = Match.objects.create(kind=kind, status=Match.Status.DONE, preset=preset, players=n,
                                 deals=max((g.deal for g in games), default=0) + 1, seed=f"s{next(_numbers)}",
                                 rated=False, move_s=1, bank_s=10, start_s=10)
    MatchEntry.objects.bulk_create(MatchEntry(match=match, index=i, version=v) for i, v in enumerate(entries))
    for number, g in enumerate(games):
        game = Game.objects.create(
            match=match, number=number, deal=g.deal, rotation=g.rotation, preset=preset, players=n, rated=False,
            durak_seat=g.durak, draw=g.durak is None, reason=g.reason, offender_seat=g.offender, bouts=g.bouts,
            first_attacker=g.first, record={}, finished=timezone.now(),
        )
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=s, version=entries[(s + g.rotation) % n], durak=g.durak == s,
                     offender=g.offender == s, start_trumps=g.trumps[s] if g.trumps else None)
            for s in range(n)
        )
    cache.clear()
    return match


def duplicate(entries: Sequence[BotVersion], losers: Sequence[Sequence[int | None]], preset: str = "classic",
              kind: str = Match.Kind.LADDER) -> Match:
    """A duplicate match: ``losers[deal][rotation]`` is the entry (not the seat) that was the durak, None a draw."""
    n = len(entries)
    games = [Played(durak=None if e is None else (e - r) % n, deal=d, rotation=r)
             for d, deal in enumerate(losers) for r, e in enumerate(deal)]
    return store(entries, games, preset=preset, kind=kind)


def played(entries: Sequence[BotVersion], preset: str, deals: int,
           kind: str = Match.Kind.CHALLENGE) -> list[GameResult]:
    """A match of reference versions (under a team preset one a team) played by the engine and stored for real.

    Created, claimed, refereed with the bots as plain processes and stored by the matches services, as a
    worker's task does; every deal is played in every rotation. Returns what the referee reported.
    """
    match = match_create(kind=kind, versions=entries, preset=preset, deals=deals, rated=False,
                         seed=f"stats-{next(_numbers)}")
    task = f"stats-test-{match.pk}"
    claimed = match_claim(match_id=match.pk, task_id=task, worker="stats tests")
    assert claimed is not None
    results = play_spec(match_spec(claimed, [v.reference for v in entries]), launcher_for("none"))
    assert match_store_result(match=claimed, task_id=task, results=results)
    cache.clear()
    return results
