"""The duplicate correlation: luck-driven deals give rho = -1/(N-1), independent results rho near 0.

A set is one deal played in every rotation; the correlation is between one bot's
results inside a set, each bot centred on its own rate in its match.
"""

from __future__ import annotations

import random

import pytest

from arena.bots.models import BotVersion
from arena.stats.duplicate import SetSums, correlation, correlation_of_sets
from arena.stats.selectors import Filters, duplicate_correlations
from tests.arena.stats.factories import Played, duplicate, store, versions

pytestmark = pytest.mark.django_db


def rows(filters: Filters | None = None) -> dict[tuple[int, str | None], tuple[float, float, float, int]]:
    """(table size, bot name or None for the pooled row) -> (rho, low, high, sets)."""
    return {(r.players, r.version.bot.name if r.version else None): (r.value.rho, r.value.low, r.value.high,
                                                                     r.value.sets)
            for r in duplicate_correlations(filters or Filters())}


def test_when_the_deal_alone_decides_pairs_correlate_perfectly_negatively() -> None:
    a, b = versions("a", "b")
    rng = random.Random(1)
    # The deal's bad hand loses in both rotations: whoever holds it (entry 0 in rotation 0, entry 1 in rotation 1).
    losers = [[0, 1] if rng.random() < 0.5 else [1, 0] for _ in range(40)]
    duplicate([a, b], losers[:20])
    duplicate([a, b], losers[20:])
    found = rows()
    rho, low, high, sets = found[(2, "a")]
    assert sets == 40
    assert rho == pytest.approx(-1.0) and low == pytest.approx(-1.0) and high == pytest.approx(-1.0)
    assert found[(2, None)][0] == pytest.approx(-1.0)
    row = next(r for r in duplicate_correlations(Filters()) if r.version == a)
    assert row.value.factor == 0.0  # no variance left: one durak per pair, always


def test_three_players_luck_driven_sets_reach_the_floor_minus_one_half() -> None:
    a, b, c = versions("a", "b", "c")
    duplicate([a, b, c], [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 1, 2], [1, 2, 0]])  # each bot loses once per set
    rho, low, high, sets = rows()[(3, "a")]
    assert sets == 5
    assert rho == pytest.approx(-0.5)
    assert low == pytest.approx(-0.5) and high == pytest.approx(-0.5)
    assert next(r for r in duplicate_correlations(Filters()) if r.version == a).value.factor == pytest.approx(0.0)


def test_independent_results_give_rho_near_zero_within_the_interval() -> None:
    a, b = versions("a", "b")
    rng = random.Random(7)
    for _ in range(4):
        losers: list[list[int | None]] = [[rng.choice([0, 1]), rng.choice([0, 1])] for _ in range(100)]
        duplicate([a, b], losers)
    rho, low, high, sets = rows()[(2, "a")]
    assert sets == 400
    assert abs(rho) < 0.12
    assert low < 0 < high
    assert rows()[(2, None)][1] < 0 < rows()[(2, None)][2]


def test_incomplete_sets_and_self_play_are_left_out() -> None:
    a, b = versions("a", "b")
    duplicate([a, b], [[0, 1]] * 5 + [[1, 0]] * 5)
    store([a, b], [Played(durak=0, deal=d) for d in range(10)])  # first rotation only: no sets
    duplicate([a, a], [[0, 0]] * 10)  # a against itself
    assert rows()[(2, "a")][3] == 10


def test_two_versions_of_one_bot_are_two_players() -> None:
    (a1,) = versions("a")
    a2 = BotVersion.objects.create(bot=a1.bot, number=2, label="2", language="python")
    duplicate([a1, a2], [[0, 1], [1, 0], [0, 1], [0, 0]])
    found = {(r.version.number if r.version else None): r.value.sets for r in duplicate_correlations(Filters())}
    assert found == {None: 4, 1: 4, 2: 4}
    assert duplicate_correlations(Filters())[1].label == "2p a v1"


def test_the_filters_select_the_matches() -> None:
    a, b = versions("a", "b")
    duplicate([a, b], [[0, 1], [1, 0], [0, 0], [1, 1]], preset="transfer")
    assert rows(Filters(preset="classic")) == {}
    assert rows(Filters(preset="transfer"))[(2, "a")][3] == 4


def test_the_histogram_form_equals_the_plain_analysis_of_variance() -> None:
    per_set = [0, 1, 2, 1, 1, 0, 2, 1, 1, 1, 0, 1]
    plain = correlation(SetSums.of_group(2, per_set))
    values = sorted(set(per_set))
    histogram = correlation_of_sets(2, [0] * len(values), values, [per_set.count(v) for v in values])
    assert plain is not None and histogram is not None
    assert histogram.rho == pytest.approx(plain.rho)
    assert histogram.low <= plain.low and histogram.high >= plain.high  # the union is never narrower than F's
