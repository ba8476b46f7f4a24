"""A test queues its pairs as B against A, stops at a decision, and then queues nothing and counts nothing more."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.ratings.sprt import sprt
from arena.sprt.models import StrengthTest, StrengthTestPair
from arena.sprt.services import strength_test_start
from tests.arena.sprt.pairs import play_bins, playing

pytestmark = pytest.mark.django_db


def test_the_first_pairs_are_unrated_one_deal_sprt_matches_of_b_then_a(
    alice: User, mine: tuple[BotVersion, BotVersion]
) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, concurrency=3)
    matches = Match.objects.filter(strength_test_pair__test=test)
    assert matches.count() == 3
    for match in matches:
        assert (match.kind, match.players, match.deals, match.rated) == (Match.Kind.SPRT, 2, 1, False)
        assert match.requested_by == alice
        assert [e.version_id for e in match.entries.order_by("index")] == [b.pk, a.pk]
    assert len({m.seed for m in matches}) == 3  # a new deck for every pair
    assert test.history == [[0, 0.0]]


def test_b_winning_every_pair_accepts_h1_and_stops_queuing(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a)
    for n in range(1, 200):
        test = play_bins(test, [4])
        expected = sprt([0, 0, 0, 0, n], 0, 30)
        assert test.llr == pytest.approx(expected.llr)
        if expected.decision:
            break
    assert test.status == StrengthTest.Status.ACCEPTED_H1
    assert test.finished is not None
    assert test.llr >= test.upper
    assert [p[0] for p in test.history] == list(range(test.pairs + 1))
    # The pair still queued at the decision is cancelled: its match never plays, and nothing new is queued.
    (cancelled,) = test.pairs_played.filter(state=StrengthTestPair.State.CANCELLED).select_related("match")
    assert cancelled.match.status == Match.Status.CANCELLED and cancelled.ended is not None
    assert not playing(test)
    assert not Match.objects.filter(kind=Match.Kind.SPRT, status=Match.Status.QUEUED).exists()
    assert test.pentanomial == [0, 0, 0, 0, test.pairs]


def test_b_never_better_than_a_split_accepts_h0(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a)
    bins = [2, 1, 2, 3, 2, 0, 2, 2] * 40
    for i in range(len(bins)):
        test = play_bins(test, [bins[i]])
        if not test.is_running:
            break
    assert test.status == StrengthTest.Status.ACCEPTED_H0
    assert test.llr <= test.lower
    assert test.pairs < len(bins)


def test_keeps_concurrency_pairs_in_flight(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, concurrency=2)
    for score in (4, 0, 2, 3):
        test = play_bins(test, [score])
        assert len(playing(test)) == 2
    assert test.pentanomial == [1, 0, 1, 1, 1]
    assert (test.game_wins, test.game_draws, test.game_losses) == (4, 1, 3)
    assert [p.number for p in test.pairs_played.all()] == list(range(1, 7))
