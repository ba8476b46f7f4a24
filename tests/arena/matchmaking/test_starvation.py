"""Active versions without a rated game for longer than the threshold are listed, and the task warns of each."""

from __future__ import annotations

import logging
import random
from datetime import timedelta

import pytest
from django.test import override_settings

from arena.bots.models import BotVersion
from arena.matches.models import Match, MatchEntry
from arena.matchmaking.models import VersionPlay
from arena.matchmaking.selectors import starved_versions
from arena.matchmaking.services import plays_catch_up
from arena.matchmaking.tasks import fill_ladders
from tests.arena.matchmaking.conftest import ArenaMaker


def rated_match(versions: list[BotVersion], finished_ago: timedelta, arena: ArenaMaker,
                status: str = Match.Status.DONE, kind: str = Match.Kind.ADMISSION) -> Match:
    match = Match.objects.create(kind=kind, status=status, preset="classic", players=len(versions), deals=1,
                                 seed="s", rated=True, move_s=1, bank_s=10, start_s=10,
                                 finished=arena.now - finished_ago)
    MatchEntry.objects.bulk_create(MatchEntry(match=match, index=i, version=v) for i, v in enumerate(versions))
    return match


@pytest.fixture
def bots(arena: ArenaMaker) -> dict[str, BotVersion]:
    one = {"classic-2": (1500.0, 80.0, 60)}
    authors = [arena.author(name) for name in ("ann", "ben", "cat", "dan", "eve")]
    recent, old, retired = arena.versions([(authors[0], one), (authors[1], one), (authors[4], one)],
                                          played_ago=timedelta(hours=2))
    (never,) = arena.versions([(authors[2], {})], played_ago=None, admitted_ago=timedelta(days=3), scheduled=0)
    (fresh,) = arena.versions([(authors[3], {})], played_ago=None, admitted_ago=timedelta(minutes=5), scheduled=0)
    BotVersion.objects.filter(pk=retired.pk).update(status=BotVersion.Status.RETIRED)
    rated_match([recent, fresh], timedelta(minutes=4), arena)  # newer than its stored last play
    rated_match([old, fresh], timedelta(minutes=3), arena, status=Match.Status.FAILED)  # not played
    return {"recent": recent, "old": old, "never": never, "fresh": fresh}


def test_the_starved_are_the_long_waiting_and_the_never_played_longest_first(
    arena: ArenaMaker, bots: dict[str, BotVersion]
) -> None:
    starved = starved_versions(arena.now)
    assert [(s.version, s.last_played) for s in starved] == [
        (bots["never"], None),  # waiting since its admission three days ago
        (bots["old"], arena.now - timedelta(hours=2)),
    ]
    with override_settings(ARENA_MATCHMAKING_STARVED_MINUTES=3 * 60):
        assert [s.version for s in starved_versions(arena.now)] == [bots["never"]]


def test_the_selector_sees_plays_the_catch_up_has_not_stored_yet_and_the_catch_up_stores_them(
    arena: ArenaMaker, bots: dict[str, BotVersion]
) -> None:
    assert VersionPlay.objects.get(version=bots["recent"]).last_played == arena.now - timedelta(hours=2)
    assert bots["recent"] not in [s.version for s in starved_versions(arena.now)]
    assert plays_catch_up() == 2  # recent and fresh
    assert VersionPlay.objects.get(version=bots["recent"]).last_played == arena.now - timedelta(minutes=4)
    assert VersionPlay.objects.get(version=bots["fresh"]).last_played == arena.now - timedelta(minutes=4)
    assert plays_catch_up() == 0
    # an unrated or unfinished match is not a play
    assert not VersionPlay.objects.filter(version=bots["never"]).exists()


def test_the_task_logs_each_match_it_creates_and_warns_of_each_starved_bot(
    arena: ArenaMaker, bots: dict[str, BotVersion], caplog: pytest.LogCaptureFixture
) -> None:
    random.seed(3)
    with caplog.at_level(logging.INFO, logger="arena.matchmaking"):
        result = fill_ladders()
    created = Match.objects.filter(kind=Match.Kind.LADDER)
    assert sorted(result["created"]) == sorted(m.pk for m in created) and created
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert len([m for m in infos if m.startswith("matchmaking: match ")]) == len(created)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2 == len(result["starved"])
    assert bots["never"].display in warnings[0] and "last rated game: never" in warnings[0]
    assert bots["old"].display in warnings[1] and "120 min" in warnings[1]
