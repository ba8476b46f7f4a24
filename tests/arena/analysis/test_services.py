"""Which analysis runs first, that the setting switches it off, that a broken record ends recorded as failed,
and that the task is routed to the `analysis` queue which every way of running the arena consumes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.analysis.models import AnalysedSeat, GameAnalysis
from arena.analysis.services import analysis_match_done, analysis_queue, analysis_run_next
from arena.matches.models import Game, Match
from arena.ops.reaper import reap
from bots_sdk.bots import GentleBot
from bots_sdk.engine import Game as BotGame
from bots_sdk.engine import GameRecord, Rules
from bots_sdk.engine.outcome import Reason
from tests.arena.visitors import stored_game, version_of
from worker.celery import app as celery_app

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def forfeited(seed: int) -> GameRecord:
    """A short real game: four decisions, then seat to act runs out of time (quick to analyse)."""
    game = BotGame.new(Rules.preset("classic", players=2), seed=seed)
    bot = GentleBot(seed=seed)
    for _ in range(4):
        seat = game.to_act
        assert seat is not None
        game.push(bot.choose_action(game.observation(seat)))
    assert game.to_act is not None
    game.forfeit(game.to_act, Reason.TIMEOUT, "no answer within 1.0 s")
    return GameRecord.from_game(game)


def test_a_request_goes_before_rated_ladder_games_before_the_rest(alice: User, settings: Any) -> None:
    settings.ARENA_ANALYSIS = True
    sly, fox = version_of(alice, "sly"), version_of(alice, "fox")
    other = stored_game([sly, fox], record=forfeited(1)).games.get()
    ladder_match = stored_game([sly, fox], kind=Match.Kind.LADDER, record=forfeited(2))
    Game.objects.filter(match=ladder_match).update(rated=True)
    requested = stored_game([sly, fox]).games.get()
    for match_id in (other.match_id, ladder_match.pk):
        analysis_match_done(match_id)
    analysis_queue(game=requested, priority=GameAnalysis.Priority.REQUESTED)
    order = [analysis_run_next() for _ in range(4)]
    assert order == [requested.pk, ladder_match.games.get().pk, other.pk, None]
    analysis = GameAnalysis.objects.get(game=requested)
    assert analysis.status == GameAnalysis.Status.DONE and analysis.done == analysis.decisions == len(analysis.reviews)
    assert [r["step"] for r in analysis.reviews] == sorted(r["step"] for r in analysis.reviews)
    seats = AnalysedSeat.objects.filter(analysis=analysis).order_by("seat")
    assert [(s.seat, s.version) for s in seats] == [(0, sly), (1, fox)]
    for seat in seats:
        mine = [r for r in analysis.reviews if r["seat"] == seat.seat]
        assert seat.mistakes == sum(r["mistake"] for r in mine)
        assert seat.cost == pytest.approx(sum(r["cost"] for r in mine), abs=1e-3)


def test_switched_off_nothing_is_queued(alice: User, settings: Any) -> None:
    settings.ARENA_ANALYSIS = False
    match = stored_game([version_of(alice, "sly"), version_of(alice, "fox")])
    analysis_match_done(match.pk)
    assert not GameAnalysis.objects.exists()


def test_a_record_that_does_not_replay_ends_failed_with_the_reason(alice: User) -> None:
    game = stored_game([version_of(alice, "sly"), version_of(alice, "fox")], record=forfeited(3)).games.get()
    record = dict(game.record)
    record["actions"] = [{"seat": 0, "action": "attack 2S"}, *record["actions"]]
    Game.objects.filter(pk=game.pk).update(record=record)
    analysis_queue(game=game, priority=GameAnalysis.Priority.REQUESTED)
    assert analysis_run_next() == game.pk
    analysis = GameAnalysis.objects.get(game=game)
    assert analysis.status == GameAnalysis.Status.FAILED
    assert "does not replay" in analysis.error and "attack 2S" in analysis.error
    analysis_queue(game=game, priority=GameAnalysis.Priority.REQUESTED)  # asked again: queued again
    assert GameAnalysis.objects.get(game=game).status == GameAnalysis.Status.QUEUED


def test_an_analysis_whose_worker_never_finishes_is_queued_again_then_fails(alice: User, settings: Any) -> None:
    """Attack: a game whose analysis always outlives its worker (killed by the task's time limit, or the worker
    dies). The reaper's pass queues it again until its attempts are spent, then it fails with the reason:
    it neither stays running nor loops for ever."""
    settings.ARENA_ANALYSIS_ATTEMPTS = 2
    game = stored_game([version_of(alice, "sly"), version_of(alice, "fox")], record=forfeited(4)).games.get()
    analysis_queue(game=game, priority=GameAnalysis.Priority.REQUESTED)
    later = timezone.now() + timedelta(seconds=settings.ARENA_ANALYSIS_STALE_S + 1)
    for attempt in (1, 2):
        claimed = GameAnalysis.objects.get(game=game)
        assert claimed.status == GameAnalysis.Status.QUEUED
        GameAnalysis.objects.filter(pk=claimed.pk).update(  # taken by a worker that then dies
            status=GameAnalysis.Status.RUNNING, started=timezone.now(), attempts=attempt)
        assert reap(timezone.now()).analyses_requeued == []  # still within its time: left alone
        reaped = reap(later)
        expected = ([claimed.pk], []) if attempt < 2 else ([], [claimed.pk])
        assert (reaped.analyses_requeued, reaped.analyses_failed) == expected
    failed = GameAnalysis.objects.get(game=game)
    assert failed.status == GameAnalysis.Status.FAILED and "gave up after 2 attempts" in failed.error
    analysis_queue(game=game, priority=GameAnalysis.Priority.REQUESTED)  # a person asks again: a fresh start
    assert analysis_run_next() == game.pk
    done = GameAnalysis.objects.get(game=game)
    assert done.status == GameAnalysis.Status.DONE and done.attempts == 1


def test_the_task_goes_to_the_analysis_queue_and_every_runner_consumes_it() -> None:
    route = celery_app.amqp.router.route({}, "arena.analysis.analyze_next")
    assert route["queue"].name == "analysis"
    launcher = (ROOT / "arena/ops/launcher.py").read_text()
    assert '"-Q", "analysis"' in launcher
    compose = (ROOT / "docker/compose.yaml").read_text()
    assert '"-Q", "analysis"' in compose
