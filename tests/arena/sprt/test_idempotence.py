"""The match-done hook counts a pair once, however often it runs, and ignores matches of no test."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_create
from arena.sprt.models import StrengthTest, StrengthTestPair
from arena.sprt.services import sprt_match_done, strength_test_start
from tests.arena.sprt.pairs import BIN_GAMES, playing, store_pair

pytestmark = pytest.mark.django_db


def test_the_hook_run_twice_counts_the_pair_once(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a)
    pair = playing(test)[0]
    store_pair(pair.match, BIN_GAMES[4])
    sprt_match_done(pair.match_id)
    once = StrengthTest.objects.get(pk=test.pk)
    matches_after_once = Match.objects.filter(kind=Match.Kind.SPRT).count()
    sprt_match_done(pair.match_id)
    twice = StrengthTest.objects.get(pk=test.pk)
    assert once.pentanomial == twice.pentanomial == [0, 0, 0, 0, 1]
    assert twice.history == once.history and len(twice.history) == 2
    assert Match.objects.filter(kind=Match.Kind.SPRT).count() == matches_after_once
    assert StrengthTestPair.objects.get(pk=pair.pk).state == StrengthTestPair.State.COUNTED


def test_a_match_not_over_yet_is_left_for_its_real_call(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a)
    pair = playing(test)[0]
    sprt_match_done(pair.match_id)  # still queued
    test.refresh_from_db()
    assert test.pairs == 0
    assert StrengthTestPair.objects.get(pk=pair.pk).state == StrengthTestPair.State.PLAYING


def test_other_matches_are_ignored(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a)
    other = match_create(kind=Match.Kind.CHALLENGE, versions=[b, a], preset="classic", deals=1, rated=False)
    store_pair(other, BIN_GAMES[4])
    sprt_match_done(other.pk)
    test.refresh_from_db()
    assert test.pairs == 0
    assert test.pairs_played.count() == test.concurrency
