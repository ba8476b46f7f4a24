"""How long a claimed match (a table, a build) may run before the reaper takes it back.

A match's budget is what its clocks allow, with room to spare, so that only a
stuck worker ever reaches it and a slow but honest match never does::

    budget = games x (players x start_s + players x (bank_s + move_s x MOVES_PER_SEAT)) + margin

``games`` is deals x entries (every deal in every seat rotation); each game may
start every seat's bot (fresh bots per rotation, or a restart after a fault),
each seat may spend its whole bank and its per-move allowance on
``ARENA_DEADLINE_MOVES_PER_SEAT`` decisions (a long game: a 36-card two-player
game averages under 30 a seat), and ``ARENA_DEADLINE_MARGIN_S`` covers the
build, the sandbox's start and the store. With the arena's clock (1 s a move,
10 s bank, 10 s start), a 4-deal two-player match gets 8 x 120 + 120 s = 18 min.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def match_budget(*, deals: int, entries: int, players: int, move_s: float, bank_s: float, start_s: float) -> timedelta:
    """The longest a match of this shape may hold its claim (the formula above)."""
    games = deals * entries
    per_game = players * start_s + players * (bank_s + move_s * settings.ARENA_DEADLINE_MOVES_PER_SEAT)
    return timedelta(seconds=games * per_game + settings.ARENA_DEADLINE_MARGIN_S)


def build_budget() -> timedelta:
    """The longest a build (unpack, install in the sandbox, compile) may hold a version in "building"."""
    return timedelta(seconds=settings.ARENA_BUILD_TIME_LIMIT_S + settings.ARENA_DEADLINE_MARGIN_S)
