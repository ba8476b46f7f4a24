"""Admission of a new version: build it on a worker, then queue its match against ``random``."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction

from arena.bots.builds import version_build
from arena.bots.models import BotVersion
from arena.bots.services import reference_versions_ensure, version_reject, version_start_building
from arena.matches.models import Match
from arena.matches.services import match_create
from worker.builds import BuildError
from worker.builds.install import IndexUnreachable
from worker.sandbox.base import SandboxError
from worker.tasks import InfrastructureError


@shared_task(
    bind=True, name="arena.bots.admit_version", acks_late=True, reject_on_worker_lost=True,
    autoretry_for=(InfrastructureError,), max_retries=5, retry_backoff=True,
)
def admit_version(self: Any, version_id: int) -> str:
    if not version_start_building(version_id):
        return "not pending"
    version = BotVersion.objects.select_related("bot").get(pk=version_id)
    try:
        version_build(version)
    except (IndexUnreachable, SandboxError) as error:
        BotVersion.objects.filter(pk=version_id).update(status=BotVersion.Status.PENDING)
        raise InfrastructureError(f"version {version_id}: {error}") from error
    except BuildError as error:
        version_reject(version=version, error=f"build: {error}")
        return "rejected"
    opponent = reference_versions_ensure()["random"]
    with transaction.atomic():
        if BotVersion.objects.filter(pk=version_id, status=BotVersion.Status.BUILDING).update(
            status=BotVersion.Status.ADMISSION
        ) != 1:
            return "admission already queued"
        match_create(
            kind=Match.Kind.ADMISSION, versions=[version, opponent], preset=settings.ARENA_ADMISSION_PRESET,
            deals=settings.ARENA_ADMISSION_DEALS, rated=True,
        )
    return "admission queued"
