"""The seed: new to the ladder first (oldest admission first), then large SE and long waits, with randomness."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from django.test import override_settings

from arena.bots.models import BotVersion
from arena.matchmaking.models import LadderSlot
from arena.matchmaking.selectors import Entrant
from arena.matchmaking.services import matchmaking_pass, pick_seed
from tests.arena.matchmaking.conftest import ArenaMaker, seated

LADDER = 1
NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def entrant(pk: int, *, se: float = 50.0, waited: float = 10.0, slots: int = 20) -> Entrant:
    """An established version (``slots`` ladder matches on LADDER), last active ``waited`` minutes ago."""
    return Entrant(version=BotVersion(pk=pk), author=f"user:{pk}", admitted=NOW - timedelta(days=9),
                   last_played=NOW - timedelta(minutes=waited), last_scheduled=None, busy=False,
                   ratings={LADDER: (1500.0, se, 200)}, slots={LADDER: slots} if slots else {})


def test_a_version_new_to_the_ladder_is_always_the_seed() -> None:
    pool = [entrant(i, se=300.0, waited=600.0) for i in range(20)] + [entrant(99, se=10.0, waited=0.0, slots=0)]
    assert {pick_seed(pool, LADDER, random.Random(s), NOW).version.pk for s in range(200)} == {99}


def test_among_new_versions_the_oldest_admission_goes_first() -> None:
    older, newer = entrant(1, slots=0), entrant(2, slots=0)
    older.admitted, newer.admitted = NOW - timedelta(hours=2), NOW - timedelta(hours=1)
    assert pick_seed([newer, older], LADDER, random.Random(1), NOW) is older


def test_uncertain_versions_are_seeded_far_more_often_than_the_rest() -> None:
    pool = [entrant(i) for i in range(40)]
    pool[0].ratings[LADDER] = (1500.0, 250.0, 5)
    rng = random.Random(5)
    picks = Counter(pick_seed(pool, LADDER, rng, NOW).version.pk for _ in range(4000))
    assert picks[0] > 5 * 4000 / len(pool)  # SE² weighting: half the seeds, 39 % of those this one
    assert len(picks) == len(pool)  # and still everyone is seeded now and then


def test_long_waiting_versions_are_seeded_far_more_often_than_the_rest() -> None:
    pool = [entrant(i, waited=rng_wait) for i, rng_wait in enumerate(random.Random(6).uniform(5, 15)
                                                                     for _ in range(40))]
    pool[1].last_played = NOW - timedelta(hours=1)
    rng = random.Random(7)
    picks = Counter(pick_seed(pool, LADDER, rng, NOW).version.pk for _ in range(4000))
    assert picks[1] > 0.25 * 4000 + 0.25 * 0.5 * 4000  # the least-recent seeds, and many SE² x wait² ones
    assert len(picks) > 30
    assert picks.most_common(2)[1][1] < picks[1] / 5


def test_the_seed_of_a_real_pass_is_the_new_version_even_with_others_waiting(arena: ArenaMaker) -> None:
    authors = [arena.author() for _ in range(6)]
    arena.versions([(a, {"classic-2": (1500, 200, 5)}) for a in authors], played_ago=timedelta(hours=3))
    new = arena.versions([(arena.author(), {"classic-2": (1500, 30, 900)})], played_ago=timedelta(0), scheduled=0)[0]
    with override_settings(ARENA_MATCHMAKING_LADDERS={"classic-2": 1}, ARENA_MATCHMAKING_QUEUE_DEPTH=1):
        for step in range(10):
            created = matchmaking_pass(rng=random.Random(step))
            assert new in seated(created[0])
            created[0].delete()  # forget it, bookkeeping included, and try another draw
            LadderSlot.objects.filter(version=new).delete()
