"""Never two versions of one author at a table; each reference bot counts as an author of its own."""

from __future__ import annotations

import random
from datetime import timedelta

from django.test import override_settings

from arena.bots.models import BotVersion
from arena.matchmaking.services import matchmaking_pass
from tests.arena.matchmaking.conftest import ArenaMaker, authors_at, finish, seated


def test_no_table_seats_two_versions_of_one_author_over_many_random_passes(
    arena: ArenaMaker, references: dict[str, BotVersion]
) -> None:
    rng = random.Random(7)
    arena.random_arena(rng, authors=12, bots=40)  # a third of the authors own most of the bots
    tables = 0
    with override_settings(ARENA_MATCHMAKING_LADDERS={"classic-2": 1, "classic-3": 1, "classic-4": 1,
                                                      "classic-6": 1, "transfer-2": 1},
                           ARENA_MATCHMAKING_QUEUE_DEPTH=6):
        for step in range(60):
            created = matchmaking_pass(now=arena.now + timedelta(minutes=step), rng=random.Random(step))
            for match in created:
                authors = authors_at(match)
                assert len(authors) == match.players
                assert len(set(authors)) == len(authors), f"pass {step}: {authors}"
                tables += 1
            finish(rng.sample(created, k=len(created) // 2 + 1) if created else [])
    assert tables > 100


def test_reference_bots_may_share_a_table_so_two_authors_still_fill_four_seats(
    arena: ArenaMaker, references: dict[str, BotVersion]
) -> None:
    alice, bob = arena.author("alice"), arena.author("bob")
    arena.versions([(alice, {}), (alice, {}), (bob, {}), (bob, {})])
    with override_settings(ARENA_MATCHMAKING_LADDERS={"classic-4": 1}, ARENA_MATCHMAKING_QUEUE_DEPTH=3):
        created = matchmaking_pass(rng=random.Random(1))
    assert len(created) == 3
    for match in created:
        versions = seated(match)
        owners = [v.bot.owner.username for v in versions if not v.reference]
        assert len(owners) == len(set(owners)) <= 2
        assert sum(1 for v in versions if v.reference) >= 2
