"""Draws: their share per table size and how many by each reason."""

from __future__ import annotations

import pytest

from arena.stats.selectors import Filters, draw_rates
from tests.arena.stats.factories import Played, store, versions

pytestmark = pytest.mark.django_db


def test_draw_rate_and_reasons_per_table_size() -> None:
    a, b, c = versions("a", "b", "c")
    store([a, b], [Played(durak=None, reason="pickup_limit"), Played(durak=None, reason="normal"),
                   Played(durak=None, reason="pickup_limit"), Played(durak=0), Played(durak=1)])
    store([a, b, c], [Played(durak=None, reason="max_bouts"), Played(durak=2)])
    draws = {d.players: (d.rate.hits, d.rate.trials, d.reasons) for d in draw_rates(Filters())}
    assert draws == {2: (3, 5, {"normal": 1, "pickup_limit": 2}), 3: (1, 2, {"max_bouts": 1})}
    assert [d.players for d in draw_rates(Filters(players=2))] == [2]
