"""The pass runs every minute from a django-celery-beat row, upserted by name and never made twice."""

from __future__ import annotations

from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask

from arena.matchmaking.services import FILL_SCHEDULE_NAME, FILL_TASK, matchmaking_schedule_ensure
from worker.celery import app as celery_app


def test_the_schedule_is_created_once_and_kept(db: None) -> None:
    assert matchmaking_schedule_ensure() == "created"
    row = PeriodicTask.objects.get(name=FILL_SCHEDULE_NAME)
    assert row.task == FILL_TASK and row.enabled and row.expire_seconds == 60
    assert (row.interval.every, row.interval.period) == (1, IntervalSchedule.MINUTES)
    assert matchmaking_schedule_ensure() == "unchanged"
    assert PeriodicTask.objects.filter(name=FILL_SCHEDULE_NAME).count() == 1
    assert IntervalSchedule.objects.filter(every=1, period=IntervalSchedule.MINUTES).count() == 1


def test_a_changed_row_is_set_right_in_place_keeping_its_history_and_enabled_choice(db: None) -> None:
    matchmaking_schedule_ensure()
    row = PeriodicTask.objects.get(name=FILL_SCHEDULE_NAME)
    crontab = CrontabSchedule.objects.create(minute="*/5")
    PeriodicTask.objects.filter(pk=row.pk).update(task="arena.matchmaking.old_name", interval=None, crontab=crontab,
                                                  enabled=False, total_run_count=42, expire_seconds=None)
    assert matchmaking_schedule_ensure() == "updated"
    again = PeriodicTask.objects.get(name=FILL_SCHEDULE_NAME)
    assert again.pk == row.pk and again.task == FILL_TASK
    assert again.interval_id == row.interval_id and again.crontab_id is None and again.expire_seconds == 60
    assert again.total_run_count == 42 and not again.enabled  # an admin's pause stays


def test_the_task_is_registered_under_its_schedule_name() -> None:
    import arena.matchmaking.tasks  # noqa: F401  (what the worker's autodiscovery imports)

    assert FILL_TASK in celery_app.tasks
