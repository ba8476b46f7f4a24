"""The periodic batch fit of every ladder (scheduled with django-celery-beat)."""

from __future__ import annotations

import logging
import time

from celery import shared_task

from arena.ratings.models import Ladder
from arena.ratings.services import ratings_refit

log = logging.getLogger(__name__)


@shared_task(name="arena.ratings.refit_ladders")
def refit_ladders() -> dict[str, int]:
    fitted: dict[str, int] = {}
    for ladder in Ladder.objects.all():
        started = time.monotonic()
        fitted[ladder.slug] = ratings_refit(ladder)
        log.info("ladder %s: fitted %d games in %.2f s", ladder.slug, fitted[ladder.slug], time.monotonic() - started)
    return fitted
