"""The analysis task (queue ``analysis``): thin, over ``services.analysis_run_next``."""

from __future__ import annotations

from celery import shared_task

from arena.analysis.services import analysis_run_next


@shared_task(name="arena.analysis.analyze_next", acks_late=True, reject_on_worker_lost=True)
def analyze_next() -> int | None:
    """Run the first waiting analysis; the game's id, or ``None`` if another task already took them all."""
    return analysis_run_next()
