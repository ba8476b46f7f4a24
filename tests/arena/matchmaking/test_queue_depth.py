"""A pass tops the queued-or-running ladder matches up to the depth, never over it; other kinds do not count."""

from __future__ import annotations

import random

from django.test import override_settings

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_create
from arena.matchmaking.services import matchmaking_pass
from tests.arena.matchmaking.conftest import ArenaMaker, finish


def in_flight() -> int:
    return Match.objects.filter(kind=Match.Kind.LADDER, status__in=(Match.Status.QUEUED, Match.Status.RUNNING)).count()


@override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=3)
def test_the_queue_is_topped_up_to_the_depth_and_no_further(arena: ArenaMaker) -> None:
    versions = arena.random_arena(random.Random(1), authors=10, bots=20)
    rng = random.Random(2)
    first = matchmaking_pass(rng=rng)
    assert len(first) == 3 and in_flight() == 3
    assert all(m.kind == Match.Kind.LADDER and m.rated and m.status == Match.Status.QUEUED for m in first)
    assert matchmaking_pass(rng=rng) == []
    Match.objects.filter(pk=first[0].pk).update(status=Match.Status.RUNNING)
    assert matchmaking_pass(rng=rng) == []  # running counts too
    finish(first[:2])
    assert len(matchmaking_pass(rng=rng)) == 2 and in_flight() == 3
    Match.objects.filter(pk=first[2].pk).update(status=Match.Status.FAILED)
    assert len(matchmaking_pass(rng=rng)) == 1
    match_create(kind=Match.Kind.CHALLENGE, versions=versions[:2], preset="classic", deals=1, rated=False)
    assert matchmaking_pass(rng=rng) == [] and in_flight() == 3  # a queued challenge takes no ladder room


@override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=5, ARENA_MATCHMAKING_DEALS=1)
def test_matches_are_rated_ladder_matches_of_the_configured_deals(arena: ArenaMaker, references: dict[str, BotVersion],
                                                                  ) -> None:
    arena.random_arena(random.Random(3), authors=8, bots=8)
    created = matchmaking_pass(rng=random.Random(4))
    assert len(created) == 5
    assert {m.deals for m in created} == {1}
    assert {(m.kind, m.rated) for m in created} == {(Match.Kind.LADDER, True)}
