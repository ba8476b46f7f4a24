"""The figures of docs/rules.md section 10 (seed 000: 6900 games of ``classic`` between the source's gentle players).

The one copy of the table: the statistics page shows it, and
``tests/bench/seed_stats.py`` compares gentle self-play with it on the command line.
The source gives rates rounded to whole percent and no sample sizes per cell:
a cell's sample is estimated from the deal (games x players x the share of
dealt hands with that many trumps), as the benchmark does.
"""

from __future__ import annotations

import math

GAMES = {2: 3000, 3: 2300, 4: 1600}
"""Games per table size the source played."""
SOURCE: dict[int, dict[str, float | None]] = {
    2: {"no_trump": 0.55, "three_trumps": 0.45, "bouts": 30.0, "draws": 0.02},
    3: {"no_trump": 0.37, "three_trumps": 0.26, "bouts": 36.0, "draws": None},
    4: {"no_trump": 0.31, "three_trumps": 0.18, "bouts": 42.0, "draws": 0.01},
}
"""Durak rate with no trump / exactly three trumps in the starting hand, mean bouts, draw rate (None: not given)."""
SOURCE_OPENER_2P = 0.477
"""2 players: how often the player who opens with the lowest trump was the durak."""
PRESET = "classic"
"""The source's rules, as the engine names them."""
HAND_SIZE = 6
DECK = 36


def hand_share(trumps: int, deck: int = DECK, hand: int = HAND_SIZE) -> float:
    """Probability that a dealt hand holds exactly ``trumps`` trumps (hypergeometric).

    >>> round(hand_share(0), 3), round(hand_share(3), 3)
    (0.152, 0.126)
    """
    suit = deck // 4
    return math.comb(suit, trumps) * math.comb(deck - suit, hand - trumps) / math.comb(deck, hand)


def source_seat_games(players: int, trumps: int) -> float:
    """The source's (estimated) number of seat-games behind its durak rate for ``trumps`` starting trumps."""
    return GAMES[players] * players * hand_share(trumps)
