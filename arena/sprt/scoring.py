"""Scoring a duplicate pair for B: pure functions, so the bins are tested without a database.

Per game B scores 1 when A is the durak, 0 when B is, and 1/2 for a draw (no
durak). A pair is the same deck played with both seatings, so its score is the
mean of two games: 0, 1/4, 1/2, 3/4 or 1. Counting in half-points (2 for a win,
1 for a draw) makes that score an integer 0-4, which is exactly the index of the
pentanomial bin [LL, LD+DL, LW+DD+WL, DW+WD, WW] that ``arena.ratings.sprt``
expects, low to high.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum


class GameScore(Enum):
    """One game from B's point of view."""

    LOSS = 0
    """B is the durak."""
    DRAW = 1
    """Nobody is the durak."""
    WIN = 2
    """A is the durak."""


def game_score(*, durak_seat: int | None, b_seat: int) -> GameScore:
    """B's result in a 2-player game where B sat in ``b_seat``.

    >>> game_score(durak_seat=1, b_seat=0), game_score(durak_seat=None, b_seat=0)
    (<GameScore.WIN: 2>, <GameScore.DRAW: 1>)
    """
    if durak_seat is None:
        return GameScore.DRAW
    return GameScore.LOSS if durak_seat == b_seat else GameScore.WIN


def pair_bin(games: Sequence[GameScore]) -> int:
    """The pentanomial bin (0-4) of a pair: B's points over its two games, in half-points.

    >>> pair_bin([GameScore.WIN, GameScore.LOSS]), pair_bin([GameScore.DRAW, GameScore.WIN])
    (2, 3)
    """
    if len(games) != 2:
        raise ValueError(f"a duplicate pair has 2 games, not {len(games)}")
    return sum(game.value for game in games)
