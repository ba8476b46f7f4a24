"""The match task: a thin layer over the matches services and the referee.

Retries are for the infrastructure only (no sandbox on this host, the package
index unreachable while building): the claim is given back and the match
waits for this or another worker. A bot's own fault is a result.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils.module_loading import import_string

from arena.bots.builds import version_bot_argument
from arena.matches.services import match_claim, match_fail, match_release, match_spec, match_store_result
from worker.builds import BuildError
from worker.builds.install import IndexUnreachable
from worker.referee.launch import launcher_for
from worker.referee.match import play_spec
from worker.sandbox.base import SandboxError
from worker.tasks import InfrastructureError

log = logging.getLogger(__name__)


@shared_task(
    bind=True, name="arena.matches.play_match", acks_late=True, reject_on_worker_lost=True,
    autoretry_for=(InfrastructureError,), max_retries=5, retry_backoff=True,
)
def play_match(self: Any, match_id: int) -> str:
    task_id = self.request.id or f"local-{match_id}"
    match = match_claim(match_id=match_id, task_id=task_id, worker=self.request.hostname or "local")
    if match is None:
        return "not claimed: done, gone, or held by another task"
    entries = list(match.entries.all())
    try:
        bots = [version_bot_argument(entry.version) for entry in entries]
        launcher = launcher_for(settings.ARENA_SANDBOX)
    except (IndexUnreachable, SandboxError, OSError) as error:
        match_release(match=match, task_id=task_id)
        raise InfrastructureError(f"match {match_id}: {error}") from error
    except BuildError as error:
        match_fail(match=match, task_id=task_id, error=f"build: {error}")
        _match_done(match_id)
        return "failed"
    log.info("match %s: playing %s", match_id, ", ".join(e.version.display for e in entries))
    results = play_spec(match_spec(match, bots), launcher)
    stored = match_store_result(match=match, task_id=task_id, results=results)
    log.info("match %s: %s %d games", match_id, "stored" if stored else "lost its claim, not storing", len(results))
    if not stored:
        return "lost claim"
    _match_done(match_id)
    return "stored"


def _match_done(match_id: int) -> None:
    """Tell the apps waiting on matches (tournaments, strength tests) that this one is over."""
    for hook in settings.ARENA_MATCH_DONE_HOOKS:
        import_string(hook)(match_id)
