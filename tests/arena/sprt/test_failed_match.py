"""A failed match is recorded and replaced, not counted; failures in a row end the test instead of looping."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.bots.models import BotVersion
from arena.sprt.models import StrengthTest, StrengthTestPair
from arena.sprt.services import MAX_FAILURES_IN_ROW, sprt_match_done, strength_test_start
from tests.arena.sprt.pairs import fail_pair, play_bins, playing

pytestmark = pytest.mark.django_db


def test_a_failed_match_is_recorded_and_the_test_goes_on(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, concurrency=2)
    first = playing(test)[0]
    fail_pair(first.match)
    sprt_match_done(first.match_id)
    sprt_match_done(first.match_id)  # and only once
    test.refresh_from_db()
    assert test.is_running
    assert (test.failed_matches, test.failures_in_row, test.pairs) == (1, 1, 0)
    assert StrengthTestPair.objects.get(pk=first.pk).state == StrengthTestPair.State.FAILED
    assert len(playing(test)) == 2  # a replacement was queued
    test = play_bins(test, [4])
    assert (test.failed_matches, test.failures_in_row, test.pairs) == (1, 0, 1)


def test_failures_in_a_row_fail_the_test(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, concurrency=1)
    for _ in range(MAX_FAILURES_IN_ROW):
        pair = playing(test)[0]
        fail_pair(pair.match, "build: requirements need the network")
        sprt_match_done(pair.match_id)
    test.refresh_from_db()
    assert test.status == StrengthTest.Status.FAILED
    assert f"{MAX_FAILURES_IN_ROW} matches failed in a row" in test.note
    assert "build: requirements need the network" in test.note
    assert playing(test) == []
