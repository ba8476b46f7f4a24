"""Celery tasks of the referee workers: thin wrappers over ``worker.referee``.

Retries are for the infrastructure only (the sandbox could not start, the
machine ran out of something); a bot's own timeout or crash is a result, never
a reason to play the match again.
"""

from __future__ import annotations

from typing import Any

from worker.celery import app
from worker.referee.launch import launcher_for
from worker.referee.match import MatchSpec, play_spec


class InfrastructureError(RuntimeError):
    """The worker, not a bot, failed: worth another try, on this or another worker."""


@app.task(
    bind=True, name="worker.tasks.play_match_spec", autoretry_for=(InfrastructureError,), max_retries=5,
    retry_backoff=True,
)
def play_match_spec(self: Any, spec: dict[str, Any], sandbox: str = "bwrap") -> dict[str, Any]:
    """Play ``spec`` (``MatchSpec.to_dict()``) and return every game's summary and record."""
    match = MatchSpec.from_dict(spec)
    try:
        launcher = launcher_for(sandbox)
    except (OSError, RuntimeError) as error:
        raise InfrastructureError(f"sandbox {sandbox!r} unavailable: {error}") from error
    results = play_spec(match, launcher)
    return {
        "spec": match.to_dict(),
        "games": [{**r.summary(), "deal": r.deal, "rotation": r.rotation, "seats": list(r.seats),
                   "record": r.record} for r in results],
    }
