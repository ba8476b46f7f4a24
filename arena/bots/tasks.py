"""Admission of a new version: build it on a worker, then queue its match against ``random``
(``arena.bots.admission`` decides from that match once it ends).

Whatever happens the version leaves "building": built and on to its admission,
rejected with the reason (a bad bot, or a build that raised anything else), or,
when the worker is at fault (no sandbox, index unreachable, database away),
pending again for another attempt, up to ``ARENA_TASK_ATTEMPTS``. A build
whose worker died is taken back by the reaper at its deadline.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import transaction

from arena.bots.admission import admission_queue
from arena.bots.builds import version_build
from arena.bots.models import BotVersion
from arena.bots.services import (
    version_build_release,
    version_reject,
    version_start_building,
)
from arena.matches.failures import classify
from arena.notices import notice
from worker.builds import BuildError
from worker.tasks import InfrastructureError

log = logging.getLogger(__name__)


@shared_task(
    bind=True, name="arena.bots.admit_version", acks_late=True, reject_on_worker_lost=True,
    autoretry_for=(InfrastructureError,), max_retries=None, retry_backoff=True, retry_backoff_max=120,
)
def admit_version(self: Any, version_id: int) -> str:
    if not version_start_building(version_id):
        return "not pending"
    version = BotVersion.objects.select_related("bot").get(pk=version_id)
    try:
        version_build(version)
    except Exception as error:
        failure = classify(error, "build")
        log.error("version %s: build: %s", version_id, failure.staff)
        if failure.infrastructure:
            if version_build_release(version_id=version_id, error=failure.public):
                raise InfrastructureError(f"version {version_id}: {failure.public}") from error
            return "rejected"
        version_reject(version=version, error=notice("version.build", error=str(error)).stored()
                       if isinstance(error, BuildError) else failure.public)
        return "rejected"
    with transaction.atomic():
        if BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.BUILDING).update(
            status=BotVersion.Status.ADMISSION, build_deadline=None
        ) != 1:
            return "admission already queued"
        admission_queue(version)
    return "admission queued"
