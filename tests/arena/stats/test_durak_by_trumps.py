"""The durak rate by trumps in the starting hand: per table size, per seat-game, forfeits left out."""

from __future__ import annotations

import pytest

from arena.stats.selectors import Filters, durak_by_trumps
from bots_sdk.stats import wilson_interval
from tests.arena.stats.factories import Played, store, versions

pytestmark = pytest.mark.django_db


def test_each_seat_counts_once_under_its_own_trumps_per_table_size() -> None:
    a, b, c = versions("a", "b", "c")
    store([a, b], [Played(durak=0, trumps=(0, 3)), Played(durak=1, trumps=(0, 2)), Played(durak=None, trumps=(0, 1))])
    store([a, b, c], [Played(durak=2, trumps=(0, 1, 0))])
    cells = {(cell.players, cell.trumps): (cell.rate.hits, cell.rate.trials) for cell in durak_by_trumps(Filters())}
    assert cells == {(2, 0): (1, 3), (2, 1): (0, 1), (2, 2): (1, 1), (2, 3): (0, 1), (3, 0): (1, 2), (3, 1): (0, 1)}


def test_a_rate_carries_its_wilson_interval() -> None:
    a, b = versions("a", "b")
    store([a, b], [Played(durak=0, trumps=(0, 1)), Played(durak=1, trumps=(0, 1)), Played(durak=0, trumps=(0, 1))])
    cell = next(c for c in durak_by_trumps(Filters()) if c.trumps == 0)
    assert cell.rate.value == pytest.approx(2 / 3)
    assert (cell.rate.low, cell.rate.high) == wilson_interval(2, 3)


def test_forfeits_and_unknown_deals_are_left_out_and_filters_apply() -> None:
    a, b = versions("a", "b")
    store([a, b], [Played(durak=0, trumps=(0, 1)), Played(durak=0, trumps=(0, 1), reason="crash", offender=0),
                   Played(durak=1, trumps=())])
    store([a, b], [Played(durak=1, trumps=(0, 1))], preset="transfer")
    assert [(c.trumps, c.rate.hits, c.rate.trials) for c in durak_by_trumps(Filters(preset="classic"))] == [
        (0, 1, 1), (1, 0, 1)]
    assert [(c.trumps, c.rate.hits, c.rate.trials) for c in durak_by_trumps(Filters())] == [(0, 1, 2), (1, 1, 2)]
    assert durak_by_trumps(Filters(players=3)) == []
