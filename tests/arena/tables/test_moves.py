"""A person's clicks: a legal move is left for the waiting seat, anything else gets the engine's reason and is
not stored; a hint is a legal move; the poll is cheap while nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from arena.matches.fault_words import why_illegal_text
from arena.tables.board import intended, rebuild
from arena.tables.models import Table, TableSeat
from arena.tables.services import table_claim, table_progress
from bots_sdk.engine import Card
from bots_sdk.engine.cards import deck_cards
from tests.arena.tables.conftest import PERSON, act, open_table, state
from worker.referee.table import Decision

pytestmark = pytest.mark.django_db


def held(table: Table) -> Table:
    """The table as its worker holds it while the person is to act (no worker needed for a click)."""
    claimed = table_claim(table_id=table.pk, task_id="test-task", worker="test")
    assert claimed is not None
    game = rebuild(table.preset, table.players, table.seed, [])
    while game.to_act != 0:  # the bot's first moves, if it leads
        game.push(game.legal_actions()[0])
    decisions = [Decision(seat, str(action), 1) for seat, action in game.decisions()]
    table_progress(table_id=table.pk, task_id="test-task", decisions=decisions)
    claimed.refresh_from_db()
    return claimed


@pytest.fixture
def my_turn(guest: Client, random_pk: str) -> tuple[Table, dict[str, Any]]:
    table = held(open_table(guest, [PERSON, random_pk]))
    view = state(guest, table)
    assert view["my_turn"] and view["legal"]
    return table, view


def test_a_legal_click_is_left_for_the_seat(guest: Client, my_turn: tuple[Table, dict[str, Any]]) -> None:
    table, view = my_turn
    move = view["legal"][0]["action"]
    assert act(guest, table, action=move) == (200, {"ok": True, "action": move})
    seat = TableSeat.objects.get(table=table, seat=0)
    assert (seat.pending_action, seat.pending_for) == (move, len(table.actions))
    assert state(guest, table)["sent"] is True
    status, answer = act(guest, table, action=move)
    assert status == 400 and "already on its way" in answer["error"]


def test_a_card_that_fits_nothing_says_the_engines_reason(guest: Client, my_turn: tuple[Table, dict[str, Any]]) -> None:
    table, view = my_turn
    game = rebuild(table.preset, table.players, table.seed, table.actions)
    playable = {m["card"] for m in view["legal"]}
    dimmed = [c for c in view["hand"] if c not in playable]
    # A card of the hand that fits nothing, else (every card of an attacker's hand fits) one it does not hold.
    card = dimmed[0] if dimmed else next(str(c) for c in deck_cards(game.rules.deck) if str(c) not in view["hand"])
    status, answer = act(guest, table, card=card)
    assert status == 400
    assert answer["error"] == why_illegal_text(game.why_illegal(intended(game, 0, Card.parse(card)), 0))
    assert TableSeat.objects.get(table=table, seat=0).pending_for is None


def test_bad_input_is_refused_with_a_message(guest: Client, my_turn: tuple[Table, dict[str, Any]]) -> None:
    table, _ = my_turn
    assert act(guest, table, action="fly away")[0] == 400
    assert "not an action" in act(guest, table, action="fly away")[1]["error"]
    status, answer = act(guest, table, card="ZZ")
    assert status == 400 and "ZZ" in answer["error"]
    stranger = Client()
    status, answer = act(stranger, table, action="take")
    assert status == 403 and "no seat" in answer["error"]
    assert TableSeat.objects.get(table=table, seat=0).pending_for is None


def test_not_your_turn(guest: Client, random_pk: str) -> None:
    table = held(open_table(guest, [PERSON, random_pk]))
    game = rebuild(table.preset, table.players, table.seed, table.actions)
    while game.to_act == 0:  # the person moves until it is the bot's turn
        game.push(game.legal_actions()[0])
    Table.objects.filter(pk=table.pk).update(actions=[[s, str(a), 5] for s, a in game.decisions()])
    table.refresh_from_db()
    status, answer = act(guest, table, card=str(game.hand(0)[0]))
    assert status == 400 and answer["error"] == f"seat 0 is not to act (seat {game.to_act} is)"
    assert not state(guest, table)["my_turn"]


def test_the_hint_is_a_legal_move(guest: Client, my_turn: tuple[Table, dict[str, Any]]) -> None:
    table, view = my_turn
    answer = guest.post(f"/tables/{table.key}/hint").json()
    assert answer["action"] in {m["action"] for m in view["legal"]}
    assert answer["bot"] == "gentle" and answer["label"]
    assert TableSeat.objects.get(table=table, seat=0).hints == 1


def test_an_unchanged_table_answers_in_one_line(guest: Client, my_turn: tuple[Table, dict[str, Any]],
                                                django_assert_max_num_queries: Any) -> None:
    table, view = my_turn
    with django_assert_max_num_queries(2):
        same = guest.get(f"/tables/{table.key}/state.json?v={view['version']}").json()
    assert same == {"version": view["version"], "same": True}
    assert guest.get(f"/tables/{table.key}/state.json?v=0").json()["version"] == view["version"]
