"""An undecided test stops at its cap of pairs, and never queues past it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.bots.models import BotVersion
from arena.sprt.models import StrengthTest
from arena.sprt.selectors import verdict
from arena.sprt.services import strength_test_start
from tests.arena.sprt.pairs import play_bins, playing

pytestmark = pytest.mark.django_db


def test_the_cap_stops_the_test_without_a_decision(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, max_pairs=5, concurrency=3)
    seen = []
    for score in (4, 0, 4, 0, 2):
        seen.append(test.pairs + len(playing(test)))
        test = play_bins(test, [score])
    assert max(seen) <= 5
    assert test.status == StrengthTest.Status.STOPPED
    assert test.pairs == 5
    assert test.pairs_played.count() == 5
    assert test.lower < test.llr < test.upper
    assert verdict(test) == "No decision: the cap of 5 pairs was reached first."


def test_a_cap_below_the_concurrency_queues_only_the_cap(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, max_pairs=1, concurrency=4)
    assert len(playing(test)) == 1
    test = play_bins(test, [2])
    assert test.status == StrengthTest.Status.STOPPED
    assert playing(test) == []
