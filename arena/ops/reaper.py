"""The reaper: running work past its deadline is taken back, so a dead or stuck worker never stalls the arena,
and no new version waits in admission for a decision that will not come.

Every minute (a django-celery-beat row, ``reaper_schedule_ensure``), one pass:

* a match running past its ``deadline`` (``arena.matches.deadlines``) goes back to the queue and is enqueued
  again, or, after ``ARENA_TASK_ATTEMPTS`` claims, fails; either way the match-done hooks run, so a
  tournament or a strength test waiting on it moves on, and matchmaking (which counts only matches in time)
  fills the ladder again. A worker that was only slow finds its claim gone and stores nothing.
* a match running without a deadline (claimed before deadlines existed) gets one from its start.
* a table running past its time limit fails; one whose worker went silent is handed to a worker again.
* a build running past its deadline is pending again and enqueued, or rejected after its attempts.
* a game analysis running too long is queued again, or failed after its attempts (``analysis_reap``).
* a version still in admission with no admission match under way (the match-done hook that decides it failed
  or never ran, or its match was cancelled or deleted) is decided from its match, or gets another admission
  match, or (after ``ARENA_TASK_ATTEMPTS`` attempts) is rejected with what happened (``arena.bots.admission``).

Each reaped item is logged as a warning (with the worker that held it), and the activity page counts them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from arena.analysis.services import analysis_reap
from arena.bots.admission import admissions_settle
from arena.bots.models import BotVersion
from arena.bots.services import version_build_release
from arena.jobs import enqueue_on_commit
from arena.matches.deadlines import match_budget
from arena.matches.models import Match, MatchEntry
from arena.matches.services import PLAY_MATCH_TASK, TOURNAMENT_QUEUE, match_done, match_fail
from arena.notices import notice
from arena.tables.conf import setting
from arena.tables.models import Table
from arena.tables.services import table_kick

log = logging.getLogger(__name__)

REAP_TASK = "arena.ops.reap_overdue"
REAP_SCHEDULE_NAME = "Reap overdue matches, tables and builds"


@dataclass
class Reaped:
    requeued: list[int] = field(default_factory=list)
    """Matches back in the queue."""
    failed: list[int] = field(default_factory=list)
    """Matches failed after their last attempt."""
    tables_failed: list[int] = field(default_factory=list)
    tables_kicked: list[int] = field(default_factory=list)
    builds_requeued: list[int] = field(default_factory=list)
    builds_rejected: list[int] = field(default_factory=list)
    analyses_requeued: list[int] = field(default_factory=list)
    analyses_failed: list[int] = field(default_factory=list)
    admissions_decided: list[int] = field(default_factory=list)
    """Versions admitted or rejected from an admission match that ended without a decision."""
    admissions_requeued: list[int] = field(default_factory=list)
    """Versions whose admission match ended without a result, with a new admission match."""

    def as_dict(self) -> dict[str, list[int]]:
        return {name: list(value) for name, value in vars(self).items()}


def reap(now: datetime | None = None) -> Reaped:
    """One pass over matches, tables, builds and admissions (see the module's docstring); returns what it did."""
    now = now or timezone.now()
    reaped = Reaped()
    _date_undated(now)
    for match in Match.objects.filter(status=Match.Status.RUNNING, deadline__lt=now).prefetch_related("entries"):
        _reap_match(match, now, reaped)
    _reap_tables(now, reaped)
    _reap_builds(now, reaped)
    reaped.analyses_requeued, reaped.analyses_failed = analysis_reap(now)
    for analysis_id in reaped.analyses_failed:
        log.warning("reaper: analysis %s ran too long too often: failed", analysis_id)
    _reap_admissions(reaped)
    return reaped


def _date_undated(now: datetime) -> None:
    """Give a running match without a deadline one from its start (or from now, if it has no start)."""
    for match in Match.objects.filter(status=Match.Status.RUNNING, deadline__isnull=True):
        budget = match_budget(deals=match.deals, entries=MatchEntry.objects.filter(match=match).count(),
                              players=match.players, move_s=match.move_s, bank_s=match.bank_s, start_s=match.start_s)
        Match.objects.filter(pk=match.pk, deadline__isnull=True).update(deadline=(match.started or now) + budget)


def _reap_match(match: Match, now: datetime, reaped: Reaped) -> None:
    late = (now - match.deadline).total_seconds() if match.deadline else 0.0
    held = Match.objects.filter(pk=match.pk, status=Match.Status.RUNNING, task_id=match.task_id)
    with transaction.atomic():
        if held.filter(attempts__lt=settings.ARENA_TASK_ATTEMPTS).update(
            status=Match.Status.QUEUED, task_id="", worker="", started=None, deadline=None, reaped=F("reaped") + 1,
        ):
            enqueue_on_commit(PLAY_MATCH_TASK, match.pk,
                              queue=TOURNAMENT_QUEUE if match.kind == Match.Kind.TOURNAMENT else None)
            log.warning("reaper: match %s was %.0f s past its deadline on worker %s (attempt %d of %d): queued again",
                        match.pk, late, match.worker or "?", match.attempts, settings.ARENA_TASK_ATTEMPTS)
            reaped.requeued.append(match.pk)
            return
    Match.objects.filter(pk=match.pk).update(reaped=F("reaped") + 1)
    tries = settings.ARENA_TASK_ATTEMPTS
    if match_fail(
        match=match, task_id=match.task_id,
        error=f"reaper: {late:.0f} s past its deadline on worker {match.worker or '?'}, attempt {match.attempts} "
              f"of {tries}",
        public_error=notice("match.overdue", count=tries).stored(),
    ):
        log.warning("reaper: match %s was %.0f s past its deadline on worker %s after %d attempts: failed",
                    match.pk, late, match.worker or "?", match.attempts)
        reaped.failed.append(match.pk)
        match_done(match.pk)


def _reap_tables(now: datetime, reaped: Reaped) -> None:
    overdue = Table.objects.filter(status=Table.Status.RUNNING, deadline__lt=now)
    for table in overdue:
        if Table.objects.filter(pk=table.pk, status=Table.Status.RUNNING, task_id=table.task_id).update(
            status=Table.Status.FAILED, finished=now, turn_deadline=None, version=F("version") + 1,
            error=notice("table_game.overdue").stored(),
        ):
            log.warning("reaper: table %s ran past its deadline on worker %s: failed", table.key, table.worker or "?")
            reaped.tables_failed.append(table.pk)
    stale = now - timedelta(seconds=float(setting("ARENA_TABLE_STALL_S")))
    silent = Table.objects.filter(Q(heartbeat__lt=stale) | Q(heartbeat__isnull=True), status=Table.Status.RUNNING)
    for table in silent:
        if table_kick(table=table):
            log.warning("reaper: table %s: its worker %s went silent; handed to a worker again", table.key,
                        table.worker or "?")
            reaped.tables_kicked.append(table.pk)


def _reap_builds(now: datetime, reaped: Reaped) -> None:
    overdue = BotVersion.objects.filter(status=BotVersion.Status.BUILDING, build_deadline__lt=now)
    for version_id in overdue.values_list("pk", flat=True):
        with transaction.atomic():
            if version_build_release(version_id=version_id, error=notice("version.overdue").stored()):
                enqueue_on_commit("arena.bots.tasks.admit_version", version_id)
                reaped.builds_requeued.append(version_id)
                log.warning("reaper: the build of version %s ran past its deadline: queued again", version_id)
            else:
                reaped.builds_rejected.append(version_id)
                log.warning("reaper: the build of version %s ran past its deadline too often: rejected", version_id)


def _reap_admissions(reaped: Reaped) -> None:
    settled = admissions_settle()
    reaped.admissions_decided += settled.admitted + settled.rejected
    reaped.admissions_requeued += settled.requeued


def reaper_schedule_ensure() -> None:
    """The pass as a django-celery-beat row, every ``ARENA_REAPER_EVERY_MINUTES``; kept if it exists (an admin
    may change or disable it). A pass not started within its interval expires, so a backlog runs once."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    every = settings.ARENA_REAPER_EVERY_MINUTES
    interval = (IntervalSchedule.objects.filter(every=every, period=IntervalSchedule.MINUTES).order_by("pk").first()
                or IntervalSchedule.objects.create(every=every, period=IntervalSchedule.MINUTES))
    PeriodicTask.objects.get_or_create(
        name=REAP_SCHEDULE_NAME, defaults={"task": REAP_TASK, "interval": interval, "expire_seconds": 60 * every}
    )
