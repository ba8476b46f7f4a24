"""Faults per bot version: games lost by timeout, crash, illegal action or protocol, the worst first."""

from __future__ import annotations

import pytest

from arena.stats.selectors import Filters, faults_by_version
from tests.arena.stats.factories import Played, store, versions

pytestmark = pytest.mark.django_db


def test_each_version_counts_its_own_faults_by_kind() -> None:
    good, flaky, slow = versions("good", "flaky", "slow")
    store([good, flaky], [Played(durak=1, reason="crash", offender=1), Played(durak=1, reason="illegal", offender=1),
                          Played(durak=0), Played(durak=0, reason="timeout", offender=0, rotation=1)])
    store([good, slow], [Played(durak=1, reason="timeout", offender=1), Played(durak=1)])
    faults, total = faults_by_version(Filters())
    assert total == 3
    rows = {f.version.bot.name: (f.games, f.counts, f.total) for f in faults}
    assert rows["flaky"] == (4, {"timeout": 1, "crash": 1, "illegal": 1, "protocol": 0}, 3)
    assert rows["slow"] == (2, {"timeout": 1, "crash": 0, "illegal": 0, "protocol": 0}, 1)
    assert rows["good"] == (6, {"timeout": 0, "crash": 0, "illegal": 0, "protocol": 0}, 0)
    assert [f.version.bot.name for f in faults] == ["flaky", "slow", "good"]  # by fault rate: 3/4, 1/2, 0
    assert faults[0].rate.value == 0.75
