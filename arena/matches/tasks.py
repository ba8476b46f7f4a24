"""The match task: a thin layer over the matches services and the referee.

Whatever happens, the match ends recorded: stored, failed with its reason, or
(the worker's own trouble: no sandbox, a stale runtime, the database or the
broker away) given back to the queue for another attempt, up to
``ARENA_TASK_ATTEMPTS``. If even that cannot be written (the database is down),
the match's deadline is the last word: the reaper (``arena.ops.reaper``) takes
it back. A bot's own fault is a result, not a failure.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings

from arena.bots.builds import version_bot_argument
from arena.matches.failures import INFRASTRUCTURE, classify
from arena.matches.models import Match
from arena.matches.services import (
    match_claim,
    match_done,
    match_fail,
    match_release,
    match_spec,
    match_store_result,
)
from arena.notices import notice
from worker.builds import BuildError
from worker.referee.launch import launcher_for
from worker.referee.match import play_spec
from worker.tasks import InfrastructureError

log = logging.getLogger(__name__)


@shared_task(
    bind=True, name="arena.matches.play_match", acks_late=True, reject_on_worker_lost=True,
    autoretry_for=(InfrastructureError,), max_retries=None, retry_backoff=True, retry_backoff_max=120,
)
def play_match(self: Any, match_id: int) -> str:
    """Play, store and announce the match; retried (by Celery) only while ``match_release`` re-queues it."""
    task_id = self.request.id or f"local-{match_id}"
    try:
        match = match_claim(match_id=match_id, task_id=task_id, worker=self.request.hostname or "local")
    except INFRASTRUCTURE as error:  # the database is away: try again, or the queued match would have no task
        raise InfrastructureError(f"match {match_id}: cannot claim it: {error}") from error
    if match is None:
        return "not claimed: done, gone, or held by another task"
    try:
        outcome = _play(match, task_id)
    except Exception as error:
        failure = classify(error)
        log.error("match %s (attempt %d): %s", match_id, match.attempts, failure.staff)
        if failure.infrastructure and match_release(
            match=match, task_id=task_id, error=failure.staff, public_error=failure.public
        ):
            raise InfrastructureError(f"match {match_id}: {failure.public}") from error
        author = notice("version.build", error=str(error)).stored() if isinstance(error, BuildError) else ""
        if not failure.infrastructure:
            match_fail(match=match, task_id=task_id, error=failure.staff, public_error=failure.public,
                       author_error=author)
        outcome = "failed"
    if outcome != "lost claim":
        match_done(match_id)
    return outcome


def _play(match: Match, task_id: str) -> str:
    entries = list(match.entries.all())
    bots = [version_bot_argument(entry.version) for entry in entries]
    launcher = launcher_for(settings.ARENA_SANDBOX)
    log.info("match %s: playing %s", match.pk, ", ".join(e.version.display for e in entries))
    results = play_spec(match_spec(match, bots), launcher)
    stored = match_store_result(match=match, task_id=task_id, results=results)
    log.info("match %s: %s %d games", match.pk, "stored" if stored else "lost its claim, not storing", len(results))
    return "stored" if stored else "lost claim"

