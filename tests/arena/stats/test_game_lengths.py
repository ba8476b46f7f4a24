"""Game length: mean bouts per table size with its interval, and the histogram of bouts as shares of games."""

from __future__ import annotations

import math

import pytest

from arena.stats.selectors import Filters, game_lengths
from tests.arena.stats.factories import Played, store, versions

pytestmark = pytest.mark.django_db


def test_mean_bouts_and_the_histogram_per_table_size() -> None:
    a, b, c = versions("a", "b", "c")
    store([a, b], [Played(durak=0, bouts=10), Played(durak=1, bouts=12), Played(durak=1, bouts=12),
                   Played(durak=1, bouts=99, reason="crash", offender=1)])
    store([a, b, c], [Played(durak=0, bouts=20)])
    lengths, histogram = game_lengths(Filters())
    two, three = lengths
    assert (two.players, two.games) == (2, 3)
    assert two.mean == pytest.approx(34 / 3)
    sd = math.sqrt(((10 - 34 / 3) ** 2 + 2 * (12 - 34 / 3) ** 2) / 2)
    assert two.half == pytest.approx(1.959963984540054 * sd / math.sqrt(3))
    assert (three.games, three.half) == (1, 0.0)
    labels, series = histogram["labels"], histogram["series"]
    assert sum(series["2"]) == pytest.approx(1.0, abs=1e-4) and sum(series["3"]) == pytest.approx(1.0, abs=1e-4)
    share = dict(zip(labels, series["2"]))
    assert share[next(label for label in labels if label.startswith("12"))] == pytest.approx(2 / 3, abs=1e-5)


def test_a_long_tail_goes_into_one_last_bin() -> None:
    a, b = versions("a", "b")
    store([a, b], [Played(durak=0, bouts=20 + i % 40) for i in range(200)] + [Played(durak=None, bouts=1000,
                                                                                      reason="max_bouts")])
    _, histogram = game_lengths(Filters())
    assert len(histogram["labels"]) <= 32
    assert histogram["labels"][-1].startswith("≥")
    assert histogram["series"]["2"][-1] == pytest.approx(1 / 201, abs=1e-5)
