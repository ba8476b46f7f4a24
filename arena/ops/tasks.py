"""The reaper's periodic task (django-celery-beat, every minute, default queue): a thin layer over the pass."""

from __future__ import annotations

from celery import shared_task

from arena.ops.reaper import REAP_TASK, reap


@shared_task(name=REAP_TASK)
def reap_overdue() -> dict[str, list[int]]:
    return reap().as_dict()
