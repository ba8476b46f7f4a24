"""The gentle self-play section: docs/rules.md section 10 from games with gentle in every seat, one game per deal."""

from __future__ import annotations

import pytest

from arena.bots.models import BotVersion
from arena.stats import source
from arena.stats.selectors import Filters, selfplay_comparison
from bots_sdk.stats import wilson_interval
from tests.arena.stats.factories import Played, store, versions

pytestmark = pytest.mark.django_db


def test_only_classic_games_of_gentle_against_itself_count_one_per_deal(references: dict[str, BotVersion]) -> None:
    gentle = references["gentle"]
    games = [
        Played(durak=0, trumps=(0, 3), first=1, bouts=30, deal=0, rotation=0),
        Played(durak=0, trumps=(0, 3), first=1, bouts=30, deal=0, rotation=1),  # the same deal again: not counted
        Played(durak=1, trumps=(0, 3), first=0, bouts=40, deal=1, rotation=0),
        Played(durak=None, trumps=(3, 0), first=0, bouts=20, deal=2, rotation=0, reason="pickup_limit"),
        Played(durak=1, trumps=(0, 1), first=0, bouts=50, deal=3, rotation=0, reason="crash", offender=1),
    ]
    store([gentle, gentle], games)
    store([gentle, references["random"]], [Played(durak=0, trumps=(0, 3))])  # not self-play
    store([gentle, gentle], [Played(durak=0, trumps=(0, 3))], preset="transfer")  # not the source's rules
    (row,) = selfplay_comparison(Filters())
    assert (row.players, row.games, row.stored) == (2, 3, 4)
    assert (row.no_trump.ours.hits, row.no_trump.ours.trials) == (1, 3)  # seats dealt no trump: deal 0 and 1's
    assert (row.three_trumps.ours.hits, row.three_trumps.ours.trials) == (1, 3)
    assert row.no_trump.source == 0.55 and row.three_trumps.source == 0.45
    assert row.bouts.ours == pytest.approx(30.0) and row.bouts.source == 30.0 and not row.bouts.clear
    assert (row.draws.ours.hits, row.draws.ours.trials, row.draws.source) == (1, 3, 0.02)
    assert row.opener is not None
    # The opener holds a trump in deals 0 (seat 1: 3 trumps, durak seat 0) and 1 (seat 0: no trump: left out) and 2.
    assert (row.opener.ours.hits, row.opener.ours.trials) == (0, 2)


def test_the_gap_interval_combines_both_samples() -> None:
    from arena.stats.selectors import Rate, _compare

    ours = Rate(450, 1000)
    gap = _compare(ours, 0.55, source.source_seat_games(2, 0))
    assert gap.diff == pytest.approx(-0.10)
    low2, high2 = wilson_interval(round(0.55 * gap.source_n), round(gap.source_n))
    assert gap.low == pytest.approx(-0.10 - ((0.45 - ours.low) ** 2 + (high2 - 0.55) ** 2) ** 0.5)
    assert gap.high == pytest.approx(-0.10 + ((ours.high - 0.45) ** 2 + (0.55 - low2) ** 2) ** 0.5)
    assert gap.clear and gap.z is not None and gap.z < -3
    assert not _compare(Rate(55, 100), 0.55, 900).clear


def test_no_gentle_games_no_section(references: dict[str, BotVersion]) -> None:
    a, b = versions("a", "b")
    store([a, b], [Played(durak=0, trumps=(0, 3))])
    assert selfplay_comparison(Filters()) == []
    store([references["gentle"]] * 3, [Played(durak=0, trumps=(0, 3, 1))])
    assert selfplay_comparison(Filters(players=2)) == []
    assert [r.players for r in selfplay_comparison(Filters(players=3))] == [3]
