"""Tables are drawn from bots close in rating: their spread is a small fraction of random tables' spread."""

from __future__ import annotations

import random
import statistics
from datetime import timedelta

from django.test import override_settings

from arena.matchmaking.services import matchmaking_pass
from arena.ratings.models import Rating
from tests.arena.matchmaking.conftest import ArenaMaker, finish, seated


def test_tables_spread_far_less_in_rating_than_random_tables(arena: ArenaMaker) -> None:
    rng = random.Random(11)
    versions = arena.versions([(arena.author(), {"classic-3": (rng.uniform(1000, 2000), 60.0, 300)})
                               for _ in range(100)])
    rating = dict(Rating.objects.values_list("version_id", "rating"))
    spreads: list[float] = []
    with override_settings(ARENA_MATCHMAKING_LADDERS={"classic-3": 1}, ARENA_MATCHMAKING_QUEUE_DEPTH=8):
        for step in range(40):
            created = matchmaking_pass(now=arena.now + timedelta(minutes=step), rng=random.Random(step))
            for match in created:
                table = [rating[v.pk] for v in seated(match)]
                spreads.append(max(table) - min(table))
            finish(created)
    random_spreads = []
    for _ in range(2000):
        table = [rating[v.pk] for v in rng.sample(versions, 3)]
        random_spreads.append(max(table) - min(table))
    assert len(spreads) == 320
    assert statistics.fmean(spreads) < 0.25 * statistics.fmean(random_spreads)
    assert max(spreads) > statistics.fmean(spreads)  # the window is random: some tables reach further
