"""Queueing and running game analyses (``bots_sdk.analysis.review``) on the ``analysis`` queue.

Each queued analysis sends one ``analyze_next`` task, and a task takes whichever queued analysis comes first
(a person's request, then rated ladder games, then the rest, oldest first), not a given one: Celery's Redis
queues have no priorities, the database does. An analysis still running ``ARENA_ANALYSIS_STALE_S`` after it was
taken (its worker died, or Celery's time limit killed it) is queued again by the reaper's pass
(``analysis_reap``), and fails after ``ARENA_ANALYSIS_ATTEMPTS`` takes, so a game too hard to analyse cannot
loop for ever; one that fails is stored with its reason, so every path ends recorded.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from arena.analysis.models import AnalysedSeat, GameAnalysis
from arena.jobs import enqueue_on_commit
from arena.matches.models import Game, Match
from bots_sdk.analysis.review import Review, analyze
from bots_sdk.engine import DurakError, GameRecord

log = logging.getLogger(__name__)

TASK = "arena.analysis.tasks.analyze_next"
PROGRESS_EVERY_S = 0.5
"""How often a running analysis writes its progress for the page."""


def analysis_queue(*, game: Game, priority: int) -> GameAnalysis:
    """Queue ``game``'s analysis (again, if it failed); a queued one moves up to ``priority`` if that is sooner."""
    with transaction.atomic():
        analysis, created = GameAnalysis.objects.select_for_update().get_or_create(
            game=game, defaults={"priority": priority, "decisions": len(game.record.get("actions", []))})
        if created or analysis.status == GameAnalysis.Status.FAILED:
            analysis.status = GameAnalysis.Status.QUEUED
            analysis.priority = priority
            analysis.error = ""
            analysis.done = 0
            analysis.attempts = 0
            analysis.save()
            enqueue_on_commit(TASK)
        elif analysis.status == GameAnalysis.Status.QUEUED and priority < analysis.priority:
            analysis.priority = priority
            analysis.save(update_fields=["priority"])
    return analysis


def analysis_request_match(*, match: Match) -> int:
    """A person asked for the analysis of every game of ``match``: it goes before everything else.
    Returns how many games were queued or already analysed."""
    games = list(match.games.all())
    for game in games:
        analysis_queue(game=game, priority=GameAnalysis.Priority.REQUESTED)
    return len(games)


def analysis_match_done(match_id: int) -> None:
    """The match-done hook (``ARENA_MATCH_DONE_HOOKS``): queue the analysis of every stored game, rated ladder
    games first, unless ``ARENA_ANALYSIS`` switched it off."""
    if not settings.ARENA_ANALYSIS:
        return
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.DONE:
        return
    ladder = match.kind == Match.Kind.LADDER
    for game in match.games.all():
        priority = GameAnalysis.Priority.RATED if ladder and game.rated else GameAnalysis.Priority.OTHER
        analysis_queue(game=game, priority=priority)


def _claim() -> GameAnalysis | None:
    with transaction.atomic():
        analysis = (GameAnalysis.objects.select_for_update(skip_locked=True)
                    .filter(status=GameAnalysis.Status.QUEUED).order_by("priority", "created").first())
        if analysis is None:
            return None
        analysis.status = GameAnalysis.Status.RUNNING
        analysis.started = timezone.now()
        analysis.done = 0
        analysis.attempts += 1
        analysis.save(update_fields=["status", "started", "done", "attempts"])
    return analysis


def analysis_reap(now: datetime) -> tuple[list[int], list[int]]:
    """The reaper's pass over analyses running past ``ARENA_ANALYSIS_STALE_S``: each is queued again (with its
    task), or failed once it was taken ``ARENA_ANALYSIS_ATTEMPTS`` times. Returns the ids queued and failed."""
    stale = GameAnalysis.objects.filter(status=GameAnalysis.Status.RUNNING,
                                        started__lt=now - timedelta(seconds=settings.ARENA_ANALYSIS_STALE_S))
    tries = settings.ARENA_ANALYSIS_ATTEMPTS
    why = f"gave up after {tries} attempts: each ran past {settings.ARENA_ANALYSIS_STALE_S:.0f} s or its worker died"
    requeued, failed = [], []
    for analysis in stale:
        held = GameAnalysis.objects.filter(pk=analysis.pk, status=GameAnalysis.Status.RUNNING, started=analysis.started)
        with transaction.atomic():
            if held.filter(attempts__lt=tries).update(status=GameAnalysis.Status.QUEUED, started=None, done=0):
                enqueue_on_commit(TASK)
                requeued.append(analysis.pk)
            elif held.update(status=GameAnalysis.Status.FAILED, finished=now, error=why):
                failed.append(analysis.pk)
    return requeued, failed


def analysis_run_next() -> int | None:
    """Claim the first waiting analysis, run it and store it; the analysed game's id (``None``: none waited)."""
    analysis = _claim()
    if analysis is None:
        return None
    game = Game.objects.get(pk=analysis.game_id)
    reviews: list[Review] = []
    try:
        record = GameRecord.from_dict(game.record)
        last = time.monotonic()
        for review in analyze(record, samples=settings.ARENA_ANALYSIS_SAMPLES):
            reviews.append(review)
            if time.monotonic() - last > PROGRESS_EVERY_S:
                last = time.monotonic()
                GameAnalysis.objects.filter(pk=analysis.pk).update(done=len(reviews))
    except DurakError as error:
        _fail(analysis, f"the record does not replay: {error}")
        return game.pk
    except Exception:
        log.exception("analysis of game %s failed", game.pk)
        _fail(analysis, traceback.format_exc(limit=5))
        return game.pk
    _store(analysis, game, reviews)
    return game.pk


def _fail(analysis: GameAnalysis, error: str) -> None:
    GameAnalysis.objects.filter(pk=analysis.pk).update(
        status=GameAnalysis.Status.FAILED, error=error[:4000], finished=timezone.now())


def _store(analysis: GameAnalysis, game: Game, reviews: list[Review]) -> None:
    versions = {seat.seat: seat.version_id for seat in game.seats.all()}
    mistakes: dict[int, int] = defaultdict(int)
    inaccuracies: dict[int, int] = defaultdict(int)
    cost: dict[int, float] = defaultdict(float)
    for review in reviews:
        mistakes[review.seat] += review.mistake
        inaccuracies[review.seat] += bool(review.inaccuracy)
        cost[review.seat] += review.cost
    exact = next((r.step for r in reviews if r.mode == "exact"), None)
    with transaction.atomic():
        analysis.status = GameAnalysis.Status.DONE
        analysis.reviews = [r.to_dict() for r in reviews]
        analysis.decisions = analysis.done = len(reviews)
        analysis.exact_from = exact
        analysis.finished = timezone.now()
        analysis.save()
        AnalysedSeat.objects.filter(analysis=analysis).delete()
        AnalysedSeat.objects.bulk_create(
            AnalysedSeat(analysis=analysis, seat=seat, version_id=version, mistakes=mistakes[seat],
                         inaccuracies=inaccuracies[seat], cost=round(cost[seat], 4))
            for seat, version in sorted(versions.items()))
