"""The first attacker's durak rate per table size, beside the fair share 1/N."""

from __future__ import annotations

import pytest

from arena.stats.selectors import Filters, first_attacker_rates
from tests.arena.stats.factories import Played, store, versions

pytestmark = pytest.mark.django_db


def test_the_first_attackers_rate_per_table_size_against_one_over_n() -> None:
    a, b, c = versions("a", "b", "c")
    store([a, b], [Played(durak=0, first=0), Played(durak=0, first=1), Played(durak=None, first=1),
                   Played(durak=1, first=1), Played(durak=1, first=None)])
    store([a, b, c], [Played(durak=2, first=2), Played(durak=0, first=1), Played(durak=0, first=0, reason="timeout",
                                                                                  offender=0)])
    rates = {r.players: (r.rate.hits, r.rate.trials, r.fair) for r in first_attacker_rates(Filters())}
    # 2 players: first attacker lost games 1 and 4 of 4 known; the draw counts as not durak, unknown openers are out.
    assert rates == {2: (2, 4, 0.5), 3: (1, 2, pytest.approx(1 / 3))}
    assert [r.players for r in first_attacker_rates(Filters(players=3))] == [3]
