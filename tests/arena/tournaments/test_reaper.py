"""A tournament match whose worker died, attempt after attempt, is failed by the reaper and the tournament moves
on; overdue builds and tables leave their running state too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_claim
from arena.notices import shown
from arena.ops.reaper import reap
from arena.tables.models import Table
from arena.tournaments.models import Tournament, TournamentTable
from arena.tournaments.services import tournament_advance, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import playing

pytestmark = pytest.mark.django_db

PAST = timedelta(seconds=1)


def test_a_match_overdue_on_its_last_attempt_fails_and_the_tournament_moves_on(make_entrants: MakeEntrants) -> None:
    tournament = tournament_create(name="Stalled", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=make_entrants(3))
    tournament_advance(tournament.pk)
    (table,) = playing(tournament)
    assert table.match is not None
    assert match_claim(match_id=table.match.pk, task_id="dead", worker="gone@host") is not None
    Match.objects.filter(pk=table.match.pk).update(attempts=settings.ARENA_TASK_ATTEMPTS,
                                                   deadline=timezone.now() - PAST)
    reaped = reap()
    assert reaped.failed == [table.match.pk] and reaped.requeued == []
    match = Match.objects.get(pk=table.match.pk)
    assert match.status == Match.Status.FAILED and match.reaped == 1
    assert "past its deadline on worker gone@host" in match.error
    assert shown(match.public_error) == f"no worker finished it in time ({settings.ARENA_TASK_ATTEMPTS} attempts)"
    table.refresh_from_db()
    assert table.status == TournamentTable.Status.FAILED and "no worker finished it in time" in shown(table.notes)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.current_round == 2
    assert reap().failed == []  # once is enough


def test_a_match_within_its_deadline_is_left_alone(make_entrants: MakeEntrants) -> None:
    tournament = tournament_create(name="Slow", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=make_entrants(2))
    tournament_advance(tournament.pk)
    (table,) = playing(tournament)
    assert table.match is not None
    claimed = match_claim(match_id=table.match.pk, task_id="alive", worker="busy@host")
    assert claimed is not None and claimed.deadline is not None
    # 2 games x (2 x 10 s start + 2 x (10 s bank + 40 x 1 s a move)) + 120 s margin = 360 s
    assert timedelta(seconds=355) < claimed.deadline - timezone.now() <= timedelta(seconds=360)
    assert reap().as_dict() == {key: [] for key in reap().as_dict()}
    assert Match.objects.get(pk=claimed.pk).status == Match.Status.RUNNING


def test_an_overdue_build_is_tried_again_then_rejected(make_entrants: MakeEntrants) -> None:
    (version,) = make_entrants(1)
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.BUILDING, build_attempts=1,
                                                    build_deadline=timezone.now() - PAST)
    assert reap().builds_requeued == [version.pk]
    assert BotVersion.objects.get(pk=version.pk).status == BotVersion.Status.PENDING
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.BUILDING,
                                                    build_attempts=settings.ARENA_TASK_ATTEMPTS,
                                                    build_deadline=timezone.now() - PAST)
    assert reap().builds_rejected == [version.pk]
    version.refresh_from_db()
    assert version.status == BotVersion.Status.REJECTED and "could not build it" in shown(version.error)


def test_an_overdue_table_fails(author: object) -> None:
    table = Table.objects.create(key="overdue", preset="classic", players=2, seed="s", move_s=1, bank_s=1,
                                 status=Table.Status.RUNNING, task_id="dead", heartbeat=timezone.now(),
                                 deadline=timezone.now() - PAST)
    assert reap().tables_failed == [table.pk]
    table.refresh_from_db()
    assert table.status == Table.Status.FAILED and shown(table.error) == "the game ran past its time limit"


def test_the_reaper_is_scheduled_every_minute_once() -> None:
    from django_celery_beat.models import PeriodicTask

    from arena.ops.reaper import REAP_SCHEDULE_NAME, REAP_TASK, reaper_schedule_ensure

    reaper_schedule_ensure()
    reaper_schedule_ensure()
    (row,) = PeriodicTask.objects.filter(task=REAP_TASK)
    assert row.name == REAP_SCHEDULE_NAME and row.interval is not None
    assert (row.interval.every, row.interval.period) == (1, "minutes")
