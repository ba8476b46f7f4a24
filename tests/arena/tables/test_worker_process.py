"""The whole way with a real Celery worker process (Redis broker, PostgreSQL): the table opened by a page is
played by the worker while the person plays over HTTP, and the finished game is stored."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client

from arena.matches.models import Game
from arena.tables.models import Table
from tests.arena.tables.conftest import PERSON, autoplay, chooser, open_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_plays_the_table_with_the_person(
    table_worker: subprocess.Popen[bytes], guest: Client, random_pk: str
) -> None:
    table = open_table(guest, [PERSON, random_pk, random_pk])
    final = autoplay(guest, table, chooser(11), timeout=180)
    table.refresh_from_db()
    assert table.status == Table.Status.DONE and final["replay_url"]
    assert table.worker and table.worker != "local"
    game = Game.objects.get(match=table.match)
    assert guest.get(final["replay_url"].split("#")[0]).status_code == 200
    assert game.decisions == len(table.actions)
