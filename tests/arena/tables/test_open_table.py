"""Opening a table: the form, its checks (with messages), the creator's seat, people joining by the link."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.tables.models import Table, TableSeat
from tests.arena.tables.conftest import PERSON, open_table

pytestmark = pytest.mark.django_db


def errors(client: Client, data: dict[str, str]) -> str:
    response = client.post("/tables/", data)
    assert response.status_code == 200
    return response.content.decode()


def test_the_list_page_has_the_form_and_the_nav_link(guest: Client, random_pk: str) -> None:
    page = guest.get("/tables/").content.decode()
    assert 'id="table-form"' in page and "random (reference bot)" in page
    assert 'href="/tables/"' in guest.get("/").content.decode()


def test_the_creator_sits_in_the_first_persons_seat_and_the_game_is_queued(guest: Client, random_pk: str) -> None:
    table = open_table(guest, [random_pk, PERSON, random_pk])
    seats = list(TableSeat.objects.filter(table=table).order_by("seat"))
    assert [s.kind for s in seats] == ["bot", "human", "bot"]
    assert seats[1].token and seats[1].name == "guest"
    assert table.status == Table.Status.QUEUED and table.players == 3


def test_wrong_options_say_what_is_wrong(guest: Client, random_pk: str, references: dict[str, BotVersion]) -> None:
    assert "Seat at least one person" in errors(guest, {"preset": "classic", "players": "2", "seat_0": random_pk,
                                                         "seat_1": random_pk})
    assert "is for 2 players" in errors(guest, {"preset": "kawu", "players": "3", "seat_0": PERSON,
                                                "seat_1": random_pk, "seat_2": random_pk})
    assert "Select a valid choice" in errors(guest, {"preset": "classic", "players": "2", "seat_0": PERSON,
                                                     "seat_1": "999999"})
    seats = {f"seat_{i}": PERSON if i == 0 else random_pk for i in range(5)}
    assert "is for 4 or 6 players, not 5" in errors(guest, {"preset": "pagat-pairs", "players": "5", **seats})
    assert not Table.objects.exists()


def test_a_table_limit_per_browser(guest: Client, random_pk: str, settings: object) -> None:
    settings.ARENA_TABLES_PER_PLAYER = 2  # type: ignore[attr-defined]
    open_table(guest, [PERSON, random_pk])
    open_table(guest, [PERSON, random_pk])
    page = errors(guest, {"preset": "classic", "players": "2", "seat_0": PERSON, "seat_1": random_pk})
    assert "You already sit at 2 unfinished tables" in page


def test_a_friend_joins_by_the_link_and_the_last_seat_starts_the_game(guest: Client, random_pk: str) -> None:
    table = open_table(guest, [PERSON, PERSON, random_pk])
    assert table.status == Table.Status.OPEN
    friend = Client()
    page = friend.get(f"/tables/{table.key}/").content.decode()
    assert 'id="take-seat-1"' in page and "you are watching" in page
    assert "already sit" in guest.post(f"/tables/{table.key}/seat", {"seat": "1"}, follow=True).content.decode()
    friend.post(f"/tables/{table.key}/seat", {"seat": "1"})
    table.refresh_from_db()
    assert table.status == Table.Status.QUEUED
    assert friend.get(f"/tables/{table.key}/state.json").json()["me"] == 1
    late = Client().post(f"/tables/{table.key}/seat", {"seat": "1"}, follow=True).content.decode()
    assert "The game has started" in late


def test_play_again_keeps_my_seat_and_the_bots(guest: Client, random_pk: str) -> None:
    table = open_table(guest, [random_pk, PERSON])
    response = guest.post(f"/tables/{table.key}/again")
    new = Table.objects.exclude(pk=table.pk).get()
    assert response["Location"] == f"/tables/{new.key}/"
    assert guest.get(f"/tables/{new.key}/state.json").json()["me"] == 1
