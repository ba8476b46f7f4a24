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


def test_two_authors_play_only_the_ladders_of_two_sides(arena: ArenaMaker) -> None:
    """Two-player ladders, and the team ladder of two teams (each version plays a whole team of two)."""
    alice, bob = arena.author("alice"), arena.author("bob")
    arena.versions([(alice, {}), (alice, {}), (bob, {})])
    with override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=20):
        created = matchmaking_pass(rng=random.Random(2))
    assert created, "the 2-player ladders can be seated"
    sides = {(m.preset, m.players) for m in created}
    assert sides <= {("classic", 2), ("transfer", 2), ("pagat-pairs", 4)} and ("pagat-pairs", 4) in sides
    assert all(m.entries.count() == 2 for m in created)
    assert len(created) == 20  # small arenas double-book rather than leave the workers idle
    # no empty ladder made for the ladder pages to list
    assert set(Ladder.objects.values_list("preset", "players")) == sides


def test_an_arena_of_reference_bots_and_two_authors_seats_four(arena: ArenaMaker, references: object) -> None:
    alice, bob = arena.author("alice"), arena.author("bob")
    arena.versions([(alice, {}), (bob, {})])
    with override_settings(ARENA_MATCHMAKING_LADDERS={"classic-4": 1, "classic-6": 1}):
        created = matchmaking_pass(rng=random.Random(3))
    assert created
    assert {m.players for m in created} == {4}  # five authors: never six seats
