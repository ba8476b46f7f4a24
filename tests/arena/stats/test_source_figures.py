"""The page's copy of RULES.md section 10 is the benchmark's (tests/bench/seed_stats.py), figure for figure."""

from __future__ import annotations

import math

from arena.stats import source
from bots_sdk.engine import Rules
from tests.bench import seed_stats


def test_the_page_and_the_benchmark_quote_the_same_source() -> None:
    assert source.GAMES == seed_stats.GAMES
    assert source.SOURCE == seed_stats.SOURCE
    assert source.SOURCE_OPENER_2P == seed_stats.SOURCE_OPENER_2P


def test_cell_sizes_are_estimated_from_the_deal_as_the_benchmark_does() -> None:
    rules = Rules.preset("classic", players=3)
    for trumps in range(7):
        assert math.isclose(source.hand_share(trumps), seed_stats.hand_share(trumps, rules))
    assert source.source_seat_games(3, 0) == 2300 * 3 * seed_stats.hand_share(0, rules)
