"""A match is played once and stored once: claims are conditional updates, storing is one guarded transaction."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from arena.bots.models import BotVersion
from arena.matches.models import Game, GameSeat, Match
from arena.matches.services import match_claim, match_create, match_release, match_store_result
from arena.matches.tasks import play_match
from arena.ratings.models import Rating
from worker.referee.launch import launcher_for
from worker.referee.match import GameResult, play_spec

pytestmark = pytest.mark.django_db(transaction=True)


def queued(references: dict[str, BotVersion], rated: bool = True) -> Match:
    return match_create(kind=Match.Kind.LADDER, versions=[references["gentle"], references["random"]],
                        preset="classic", deals=1, rated=rated, seed="claim")


def played(match: Match) -> list[GameResult]:
    from arena.matches.services import match_spec

    return play_spec(match_spec(match, ["gentle", "random"]), launcher_for("none"))


def test_only_one_of_many_concurrent_claims_wins(references: dict[str, BotVersion]) -> None:
    match = queued(references)
    winners: list[str] = []
    barrier = threading.Barrier(8)

    def claim(task_id: str) -> None:
        barrier.wait()
        try:
            if match_claim(match_id=match.pk, task_id=task_id, worker="w") is not None:
                winners.append(task_id)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(f"task-{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(winners) == 1
    assert Match.objects.get(pk=match.pk).task_id == winners[0]


def test_a_redelivered_task_reclaims_its_match_and_others_cannot(references: dict[str, BotVersion]) -> None:
    match = queued(references)
    assert match_claim(match_id=match.pk, task_id="first", worker="w1") is not None
    assert match_claim(match_id=match.pk, task_id="second", worker="w2") is None
    # The worker holding "first" died; the broker hands the same task (same id) to another worker.
    assert match_claim(match_id=match.pk, task_id="first", worker="w2") is not None


def test_a_match_is_stored_once_even_if_two_tasks_finish_it(references: dict[str, BotVersion]) -> None:
    match = queued(references)
    claimed = match_claim(match_id=match.pk, task_id="a", worker="w")
    assert claimed is not None
    results = played(claimed)
    assert match_store_result(match=claimed, task_id="a", results=results)
    assert not match_store_result(match=claimed, task_id="a", results=results)  # the claim is spent
    assert not match_store_result(match=claimed, task_id="b", results=results)
    assert Game.objects.filter(match=match).count() == len(results) == 2
    assert GameSeat.objects.filter(game__match=match).count() == 4
    assert Rating.objects.get(version=references["gentle"]).games == sum(1 for r in results if not r.draw)


def test_a_failure_while_storing_leaves_no_half_match(references: dict[str, BotVersion]) -> None:
    match = queued(references)
    claimed = match_claim(match_id=match.pk, task_id="a", worker="w")
    assert claimed is not None
    results = played(claimed)
    broken = [results[0], GameResult(**{**results[1].__dict__, "record": {"actions": "not a list"}})]
    with pytest.raises(Exception):  # noqa: B017, PT011 - whatever the broken record raises
        match_store_result(match=claimed, task_id="a", results=broken)
    assert not Game.objects.filter(match=match).exists()
    assert not Rating.objects.exists()
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING  # still claimed: a retry can store it


def test_a_released_claim_can_be_taken_by_another_worker(references: dict[str, BotVersion]) -> None:
    match = queued(references)
    claimed = match_claim(match_id=match.pk, task_id="a", worker="w")
    assert claimed is not None
    match_release(match=claimed, task_id="a")
    assert match_claim(match_id=match.pk, task_id="b", worker="w2") is not None


def test_the_task_plays_and_stores_and_a_second_delivery_does_nothing(
    references: dict[str, BotVersion], settings: Any
) -> None:
    settings.ARENA_SANDBOX = "none"
    match = queued(references, rated=False)
    assert play_match.apply(args=(match.pk,), task_id="t1").get() == "stored"
    assert play_match.apply(args=(match.pk,), task_id="t2").get().startswith("not claimed")
    assert Game.objects.filter(match=match, rated=False).count() == 2
    assert not Rating.objects.exists()  # unrated
