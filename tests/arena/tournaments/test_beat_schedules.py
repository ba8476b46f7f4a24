"""The beat rows: a one-off clocked start per tournament, the minute advance, a crontab per series; all upserted."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from django_celery_beat.models import ClockedSchedule, CrontabSchedule, IntervalSchedule, PeriodicTask

from arena.bots.models import BotVersion
from arena.tournaments.models import Tournament, TournamentSeries
from arena.tournaments.services import (
    ADVANCE_SCHEDULE_NAME,
    series_save,
    series_schedule_name,
    series_spawn,
    start_schedule_name,
    tournament_advance,
    tournament_cancel,
    tournament_create,
    tournament_schedule_upsert,
    tournament_schedules_ensure,
)
from arena.tournaments.tasks import spawn_tournament
from tests.arena.tournaments.conftest import MakeEntrants

pytestmark = pytest.mark.django_db


def test_a_tournament_gets_a_one_off_clocked_start_that_moves_with_it(make_entrants: MakeEntrants) -> None:
    starts = (timezone.now() + timedelta(days=1)).replace(microsecond=0)
    tournament = tournament_create(name="Friday", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=make_entrants(2), starts_at=starts)
    task = PeriodicTask.objects.get(name=start_schedule_name(tournament.pk))
    assert (task.task, json.loads(task.args), task.one_off, task.enabled) == (
        "arena.tournaments.start_tournament", [tournament.pk], True, True)
    assert task.clocked is not None and task.clocked.clocked_time == starts
    assert task.interval is None and task.crontab is None

    Tournament.objects.filter(pk=tournament.pk).update(starts_at=starts + timedelta(hours=2))
    tournament.refresh_from_db()
    tournament_schedule_upsert(tournament)
    moved = PeriodicTask.objects.get(name=start_schedule_name(tournament.pk))
    assert moved.pk == task.pk, "upserted by name, never deleted and recreated"
    assert moved.clocked is not None and moved.clocked.clocked_time == starts + timedelta(hours=2)

    tournament_cancel(tournament=tournament, reason="rain")
    assert not PeriodicTask.objects.get(pk=task.pk).enabled
    assert PeriodicTask.objects.filter(name__startswith="Start tournament").count() == 1


def test_the_start_disables_the_one_off(make_entrants: MakeEntrants) -> None:
    tournament = tournament_create(name="Now", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=make_entrants(2))
    tournament_advance(tournament.pk)
    assert not PeriodicTask.objects.get(name=start_schedule_name(tournament.pk)).enabled


def test_schedules_ensure_registers_the_minute_advance_once(db: None) -> None:
    tournament_schedules_ensure()
    tournament_schedules_ensure()
    task = PeriodicTask.objects.get(name=ADVANCE_SCHEDULE_NAME)
    assert task.task == "arena.tournaments.advance_tournaments"
    assert task.interval is not None and (task.interval.every, task.interval.period) == (1, IntervalSchedule.MINUTES)
    assert PeriodicTask.objects.filter(task="arena.tournaments.advance_tournaments").count() == 1


def test_a_series_gets_a_crontab_task_and_spawns_a_tournament_of_its_bots(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    series = TournamentSeries(name="Nightly", format="round_robin", preset="classic", players=2, deals=1,
                              minute="30", hour="2", day_of_week="1-5")
    series_save(series)
    series.bots.set([versions[0].bot, versions[1].bot])
    task = PeriodicTask.objects.get(name=series_schedule_name(series.pk))
    assert task.task == "arena.tournaments.spawn_tournament" and json.loads(task.args) == [series.pk]
    assert task.crontab is not None
    assert (task.crontab.minute, task.crontab.hour, task.crontab.day_of_week) == ("30", "2", "1-5")
    assert not task.one_off and task.enabled

    series.hour = "4"
    series.enabled = False
    series_save(series)
    again = PeriodicTask.objects.get(name=series_schedule_name(series.pk))
    assert again.pk == task.pk and again.crontab is not None and again.crontab.hour == "4" and not again.enabled
    assert CrontabSchedule.objects.filter(hour="4").count() == 1

    assert spawn_tournament(series.pk) is None  # disabled
    TournamentSeries.objects.filter(pk=series.pk).update(enabled=True)
    spawned = series_spawn(series.pk)
    assert spawned is not None and spawned.series == series and spawned.status == Tournament.Status.SCHEDULED
    assert set(spawned.entries.values_list("version_id", flat=True)) == {versions[0].pk, versions[1].pk}
    assert series_spawn(series.pk) is None  # the last one is still on
    series.refresh_from_db()
    assert "is still scheduled" in series.notes


def test_a_series_without_bots_takes_every_active_version_and_notes_a_thin_field(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(4)
    BotVersion.objects.filter(pk=versions[3].pk).update(status=BotVersion.Status.RETIRED)
    series = series_save(TournamentSeries(name="Open", format="round_robin", preset="classic", players=4, deals=1))
    assert series_spawn(series.pk) is None
    series.refresh_from_db()
    assert "3 entrants cannot fill a table of 4" in series.notes
    series.players = 3
    series_save(series)
    spawned = series_spawn(series.pk)
    assert spawned is not None and spawned.entries.count() == 3


def test_the_clocked_schedule_is_reused_for_the_same_time(make_entrants: MakeEntrants) -> None:
    starts = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    for name in ("A", "B"):
        tournament_create(name=name, format="round_robin", preset="classic", players=2, deals=1,
                          versions=make_entrants(2), starts_at=starts)
    assert ClockedSchedule.objects.filter(clocked_time=starts).count() == 1


def test_a_tournament_scheduled_in_the_admin_gets_its_start(make_entrants: MakeEntrants) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    versions = make_entrants(2)
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="root-password-123"))
    response = client.post("/admin/tournaments/tournament/add/", {
        "name": "From the admin", "format": "round_robin", "preset": "classic", "players": "2", "deals": "1",
        "status": "scheduled", "starts_at_0": "2031-01-02", "starts_at_1": "10:00:00", "seed": "abc",
        "entries-TOTAL_FORMS": "2", "entries-INITIAL_FORMS": "0", "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
        "entries-0-version": str(versions[0].pk), "entries-0-seed": "1",
        "entries-1-version": str(versions[1].pk), "entries-1-seed": "2",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="From the admin")
    assert tournament.entries.count() == 2
    task = PeriodicTask.objects.get(name=start_schedule_name(tournament.pk))
    assert task.enabled and task.clocked is not None
    assert task.clocked.clocked_time.isoformat() == "2031-01-02T10:00:00+00:00"
