"""A pass over 200 active bots costs a fixed handful of queries and well under a second."""

from __future__ import annotations

import random
import time

from django.test import override_settings
from pytest_django import DjangoAssertNumQueries

from arena.bots.models import BotVersion
from arena.matchmaking.services import matchmaking_pass
from tests.arena.matchmaking.conftest import ArenaMaker, finish_all


@override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=8)
def test_a_pass_over_200_bots_is_fast_and_its_queries_do_not_grow_with_the_bots(
    arena: ArenaMaker, references: dict[str, BotVersion], django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    arena.random_arena(random.Random(1), authors=60, bots=200)
    matchmaking_pass(rng=random.Random(0))  # warm: ladders exist, plays caught up
    finish_all()
    # 14: lock, plays catch-up (4), in-flight, ladders, pool (4), slots upsert, savepoints; 4 per table: savepoint,
    # match, entries, release
    with django_assert_max_num_queries(14 + 4 * 8):
        started = time.perf_counter()
        created = matchmaking_pass(rng=random.Random(1))
        elapsed = time.perf_counter() - started
    assert len(created) == 8
    assert elapsed < 1.0
