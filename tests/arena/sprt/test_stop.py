"""Only its author stops a running test; its queued pairs are cancelled, a pair already playing ends uncounted."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.sprt.models import StrengthTest, StrengthTestPair
from arena.sprt.services import StrengthTestError, sprt_match_done, strength_test_start, strength_test_stop
from tests.arena.sprt.pairs import BIN_GAMES, play_bins, playing, store_pair

pytestmark = pytest.mark.django_db


def test_the_author_stops_a_test(alice: User, bob: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = play_bins(strength_test_start(author=alice, version_b=b, version_a=a), [4])
    with pytest.raises(StrengthTestError, match="only the author"):
        strength_test_stop(test=test, user=bob)
    running, *queued = playing(test)
    Match.objects.filter(pk=running.match_id).update(status=Match.Status.RUNNING)  # a worker plays it
    stopped = strength_test_stop(test=test, user=alice)
    assert stopped.status == StrengthTest.Status.STOPPED
    assert stopped.note == "stopped by its author after 1 pair"
    with pytest.raises(StrengthTestError, match="already ended"):
        strength_test_stop(test=stopped, user=alice)
    assert queued and all(StrengthTestPair.objects.get(pk=p.pk).state == StrengthTestPair.State.CANCELLED
                          for p in queued)
    assert all(Match.objects.get(pk=p.match_id).status == Match.Status.CANCELLED for p in queued)
    (pair,) = playing(stopped)
    assert pair.pk == running.pk
    store_pair(pair.match, BIN_GAMES[4])
    sprt_match_done(pair.match_id)
    stopped.refresh_from_db()
    assert stopped.pairs == 1
    assert StrengthTestPair.objects.get(pk=pair.pk).state == StrengthTestPair.State.LATE
