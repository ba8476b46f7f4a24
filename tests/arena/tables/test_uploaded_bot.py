"""An uploaded bot at a table plays from its build in the sandbox, started as a match starts it."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.matches.models import GameSeat
from arena.tables.models import Table
from tests.arena.tables.conftest import PERSON, autoplay, chooser, open_table, playing
from worker.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_person_plays_an_admitted_upload_in_the_sandbox(
    admitted: BotVersion, random_pk: str, quick: None, guest: Client
) -> None:
    celery_app.conf.task_always_eager = False  # the admission ran in-process; the table must not block a request
    page = guest.get("/tables/").content.decode()
    assert f"{admitted.display} by alice" in page
    table = open_table(guest, [str(admitted.pk), PERSON, random_pk])
    with playing(table):
        autoplay(guest, table, chooser(3))
    table.refresh_from_db()
    assert table.status == Table.Status.DONE, table.error
    assert table.result is not None and table.result.get("offender") is None, table.result
    seat = GameSeat.objects.get(game__match=table.match, seat=0)
    assert seat.version == admitted and seat.decisions > 0 and seat.ms_mean is not None
