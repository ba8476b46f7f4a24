"""A person who walks away forfeits by timeout once their move time and bank are spent, and the game says so."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from arena.matches.models import Game
from arena.tables.models import Table
from tests.arena.tables.conftest import PERSON, open_table, playing, state

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_person_who_leaves_forfeits_by_timeout(guest: Client, random_pk: str, quick: None, settings: Any) -> None:
    settings.ARENA_TABLE_MOVE_S = 0.5
    settings.ARENA_TABLE_BANK_S = 0.5
    table = open_table(guest, [PERSON, random_pk])
    with playing(table):
        pass  # nobody clicks
    table.refresh_from_db()
    assert table.status == Table.Status.DONE
    assert table.result is not None
    assert (table.result["reason"], table.result["offender"], table.result["durak"]) == ("timeout", 0, 0)
    assert table.result["detail"] == "guest made no move within 1 s (left the table?)"
    game = Game.objects.get(match=table.match)
    assert (game.reason, game.offender_seat) == ("timeout", 0)
    assert state(guest, table)["line"].startswith("You forfeited (timeout: guest made no move within 1 s")
