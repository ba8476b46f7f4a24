"""A table whose worker went silent is handed to another by the page's poll, which resumes the game from the
saved decisions: nothing the person played is lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from arena.tables.models import Table
from arena.tables.services import table_claim, table_progress
from tests.arena.tables.conftest import PERSON, autoplay, open_table, playing
from worker.referee.table import Decision, replay_decisions

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stalled_table_is_kicked_and_resumed_from_its_saved_decisions(
    guest: Client, random_pk: str, quick: None, settings: object
) -> None:
    table = open_table(guest, [PERSON, random_pk])
    # A worker played ten decisions, then died: its heartbeat stops.
    assert table_claim(table_id=table.pk, task_id="dead-worker", worker="gone") is not None
    from arena.tables.board import rebuild

    game = rebuild(table.preset, table.players, table.seed, [])
    for _ in range(10):
        game.push(game.legal_actions()[0])
    saved = [Decision(seat, str(action), 3) for seat, action in game.decisions()]
    table_progress(table_id=table.pk, task_id="dead-worker", decisions=saved)
    Table.objects.filter(pk=table.pk).update(heartbeat=timezone.now() - timedelta(minutes=5))

    guest.get(f"/tables/{table.key}/state.json?v=0")  # the page's poll notices
    table.refresh_from_db()
    assert table.kicked is not None
    with playing(table):
        autoplay(guest, table)
    table.refresh_from_db()
    assert table.status == Table.Status.DONE and table.task_id != "dead-worker"
    assert [Decision.from_list(a) for a in table.actions[: len(saved)]] == saved
    replay_decisions(game.rules, table.seed, [Decision.from_list(a) for a in table.actions])


def test_a_live_table_is_not_taken_over(guest: Client, random_pk: str) -> None:
    table = open_table(guest, [PERSON, random_pk])
    assert table_claim(table_id=table.pk, task_id="alive", worker="w1") is not None
    assert table_claim(table_id=table.pk, task_id="another", worker="w2") is None
    guest.get(f"/tables/{table.key}/state.json?v=0")
    table.refresh_from_db()
    assert table.kicked is None and table.task_id == "alive"
