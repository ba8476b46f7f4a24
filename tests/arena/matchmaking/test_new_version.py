"""A newly admitted version is seeded by the very next pass, so on an idle arena it plays within two minutes."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.bots.services import version_admit
from arena.matches.models import GameSeat, Match
from arena.matchmaking.models import VersionPlay
from arena.matchmaking.selectors import starved_versions
from arena.matchmaking.services import matchmaking_pass, plays_catch_up
from arena.ratings.models import Rating
from arena.ratings.services import ladder_for
from tests.arena.matchmaking.conftest import ArenaMaker, finish, seated


def admit_new(arena: ArenaMaker) -> BotVersion:
    """A version that has just passed admission: active, rated on the admission ladder, no ladder match yet."""
    bot = Bot.objects.create(owner=arena.author("newcomer"), name="newbot")
    version = BotVersion.objects.create(bot=bot, number=1, label="1", language="python",
                                        status=BotVersion.Status.ADMISSION)
    version_admit(version=version)
    Rating.objects.create(ladder=ladder_for("classic", 2), version=version, rating=1480, se=190, games=4)
    version.refresh_from_db()
    return version


def test_the_next_pass_seats_the_new_version_whatever_the_draw(arena: ArenaMaker) -> None:
    arena.random_arena(random.Random(1), authors=30, bots=60)
    matchmaking_pass(rng=random.Random(0))  # a busy arena: some bots are in queued matches
    finish(Match.objects.filter(kind=Match.Kind.LADDER)[:3])
    new = admit_new(arena)
    for seed in range(30):
        with transaction.atomic():
            created = matchmaking_pass(rng=random.Random(seed))
            assert created and new in seated(created[0]), seed
            assert sum(new in seated(m) for m in created) == 1  # one ladder match at a time
            transaction.set_rollback(True)


@override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=2)
def test_on_a_full_queue_it_is_seated_as_soon_as_a_match_ends(arena: ArenaMaker) -> None:
    arena.random_arena(random.Random(2), authors=20, bots=30)
    running = matchmaking_pass(rng=random.Random(0))
    new = admit_new(arena)
    assert matchmaking_pass(rng=random.Random(1)) == []
    finish(running[:1])
    (created,) = matchmaking_pass(rng=random.Random(2))
    assert new in seated(created)


@pytest.mark.django_db(transaction=True)
@override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=1, ARENA_MATCHMAKING_DEALS=1)
def test_a_really_admitted_version_plays_its_first_ladder_game_within_two_minutes(
    admitted: BotVersion, run_tasks: None
) -> None:
    """Alice's bot, built and admitted for real; the pass's match is played at once (an idle worker) by the real
    referee in bubblewrap against the reference bots, the arena's only other authors."""
    started = time.monotonic()
    (match,) = matchmaking_pass(rng=random.Random(1))
    match.refresh_from_db()
    assert match.status == Match.Status.DONE, match.error
    assert admitted.admitted is not None
    assert match.finished is not None and match.finished - admitted.admitted < timedelta(minutes=2)
    assert time.monotonic() - started < 120
    seats = GameSeat.objects.filter(game__match=match, version=admitted)
    assert seats.count() == match.players * match.deals and all(s.game.rated for s in seats)
    assert Rating.objects.get(version=admitted, ladder__preset=match.preset, ladder__players=match.players).games > 0
    plays_catch_up()  # what the next pass does first: note when every bot last played
    assert VersionPlay.objects.get(version=admitted).last_played == match.finished
    assert admitted not in [s.version for s in starved_versions(timezone.now())]
