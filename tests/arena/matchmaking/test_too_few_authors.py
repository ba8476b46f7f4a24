"""A ladder whose table has more seats than the arena has authors gets no matches; the others still do."""

from __future__ import annotations

import random

from django.test import override_settings

from arena.matches.models import Match
from arena.matchmaking.services import matchmaking_pass
from arena.ratings.models import Ladder
from tests.arena.matchmaking.conftest import ArenaMaker


def test_one_author_with_many_bots_gets_no_matches(arena: ArenaMaker) -> None:
    alice = arena.author("alice")
    arena.versions([(alice, {"classic-2": (1500, 100, 40)})] * 5)
    assert matchmaking_pass(rng=random.Random(1)) == []
    assert not Match.objects.exists()


def test_no_active_bots_no_matches(db: None) -> None:
    assert matchmaking_pass(rng=random.Random(1)) == []


def test_two_authors_play_only_the_two_player_ladders(arena: ArenaMaker) -> None:
    alice, bob = arena.author("alice"), arena.author("bob")
    arena.versions([(alice, {}), (alice, {}), (bob, {})])
    with override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=20):
        created = matchmaking_pass(rng=random.Random(2))
    assert created, "the 2-player ladders can be seated"
    assert {(m.preset, m.players) for m in created} <= {("classic", 2), ("transfer", 2)}
    assert len(created) == 20  # small arenas double-book rather than leave the workers idle
    assert not Ladder.objects.filter(players__gt=2).exists()  # no empty ladder made for the ladder pages to list


def test_an_arena_of_reference_bots_and_two_authors_seats_four(arena: ArenaMaker, references: object) -> None:
    alice, bob = arena.author("alice"), arena.author("bob")
    arena.versions([(alice, {}), (bob, {})])
    with override_settings(ARENA_MATCHMAKING_LADDERS={"classic-4": 1, "classic-6": 1}):
        created = matchmaking_pass(rng=random.Random(3))
    assert created
    assert {m.players for m in created} == {4}  # five authors: never six seats
