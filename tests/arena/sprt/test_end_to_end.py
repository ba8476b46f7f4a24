"""A real strength test, tasks in this process: gentle (B) is found stronger than random (A) within dozens of pairs.

Every pair is a real match: the task claims it, the referee starts both reference
bots as processes (``ARENA_SANDBOX = "none"``) and plays the deal twice, the
games are stored, and the done hook counts the pair and queues the next one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, Match
from arena.ratings.sprt import sprt
from arena.sprt.models import StrengthTest, StrengthTestPair
from arena.sprt.services import strength_test_start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def deep_stack() -> Iterator[None]:
    """Eager tasks nest: each pair's hook commits, which runs the next pair's task inside it (never so on Celery)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    yield
    sys.setrecursionlimit(limit)


def test_gentle_is_stronger_than_random(
    alice: User, references: dict[str, BotVersion], run_tasks: None, settings: Any, deep_stack: None
) -> None:
    settings.ARENA_SANDBOX = "none"
    Bot.objects.filter(name="gentle").update(owner=alice)  # B must be the author's own version
    gentle, random = references["gentle"], references["random"]
    gentle.refresh_from_db()
    test = strength_test_start(author=alice, version_b=gentle, version_a=random, elo0=0, elo1=100, max_pairs=60)
    test.refresh_from_db()
    assert test.status == StrengthTest.Status.ACCEPTED_H1, (test.status, test.note, test.pentanomial)
    assert test.pairs <= 40
    assert test.llr >= test.upper
    assert test.llr == pytest.approx(sprt(test.pentanomial, 0, 100).llr)
    assert test.pairs_4 > test.pairs_0
    counted = test.pairs_played.filter(state=StrengthTestPair.State.COUNTED)
    assert counted.count() == test.pairs
    for pair in counted.select_related("match"):
        assert pair.match.kind == Match.Kind.SPRT and pair.match.status == Match.Status.DONE
        assert not pair.match.rated
        games = list(Game.objects.filter(match=pair.match).order_by("number"))
        assert len(games) == 2 and games[0].record["deck"] == games[1].record["deck"]
        assert [s.version_id for s in games[0].seats.order_by("seat")] == [gentle.pk, random.pk]
        assert [s.version_id for s in games[1].seats.order_by("seat")] == [random.pk, gentle.pk]
        assert all(not g.rated for g in games)
    assert not StrengthTestPair.objects.filter(test=test, state=StrengthTestPair.State.PLAYING).exists()
    assert gentle.ratings.count() == 0  # unrated: no ladder moved
    html = Client().get(f"/sprt/{test.pk}/").content.decode()
    assert "gentle v1 is stronger than random v1 by at least 100 Elo" in html
