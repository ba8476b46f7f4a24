"""A whole game at a table: a guest against two random bots, played over the page's JSON endpoints while the
table's real task body plays the bots; the game is stored as an unrated match that the replay viewer opens."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.matches.models import Game, GameSeat, Match
from arena.ratings.models import Rating
from arena.tables.models import Table
from arena.tables.services import HUMAN_BOT
from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.arena.tables.conftest import PERSON, autoplay, chooser, open_table, playing, state

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_guest_plays_two_random_bots_to_the_end(guest: Client, random_pk: str, quick: None) -> None:
    table = open_table(guest, [PERSON, random_pk, random_pk])
    assert table.status == Table.Status.QUEUED
    with playing(table):
        final = autoplay(guest, table, chooser(7))
    table.refresh_from_db()
    assert table.status == Table.Status.DONE and final["status"] == "done"
    assert table.match_id is not None
    match = Match.objects.get(pk=table.match_id)
    assert (match.kind, match.rated, match.status, match.players) == ("table", False, "done", 3)
    game = Game.objects.get(match=match)
    assert not game.rated
    record = GameRecord.from_dict(game.record)
    assert replay(record).status == "ok"
    assert [s.bot for s in record.seats] == ["guest", "random", "random"]
    assert [a[1] for a in table.actions] == [a["action"] for a in game.record["actions"]]
    seats = GameSeat.objects.filter(game=game).select_related("version__bot").order_by("seat")
    assert [s.version.bot.name for s in seats] == [HUMAN_BOT, "random", "random"]
    assert seats[0].version.status == BotVersion.Status.RETIRED
    assert not Rating.objects.exists()
    assert final["replay_url"] == f"/games/{game.pk}/#view=0"
    page = guest.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b"guest" in page.content
    assert "durak" in final["line"] or "draw" in final["line"]


def test_the_same_browser_gets_its_seat_back_and_others_only_watch(guest: Client, random_pk: str) -> None:
    table = open_table(guest, [PERSON, random_pk])
    again = Client()
    again.cookies = guest.cookies  # the same browser after a reload (its session cookie)
    mine = state(again, table)
    assert mine["me"] == 0 and len(mine["hand"]) == 6
    other = state(Client(), table)
    assert other["me"] is None and other["hand"] == []
    assert all(seat["known"] == [] for seat in other["seats"])


def test_a_partnership_table_shows_teams_and_the_losing_team(guest: Client, random_pk: str, quick: None) -> None:
    """pagat-pairs for four: the guest and a random partner (seats 0 and 2) against two random bots."""
    table = open_table(guest, [PERSON, random_pk, random_pk, random_pk], preset="pagat-pairs")
    first = state(guest, table)
    assert [seat["team"] for seat in first["seats"]] == ["A", "B", "A", "B"]
    assert [seat["partner"] for seat in first["seats"]] == [False, False, True, False]
    with playing(table):
        final = autoplay(guest, table, chooser(3))
    table.refresh_from_db()
    losers = Game.objects.get(match=table.match).record["result"]["losers"]
    expected = "draw" if not losers else "Your team lost." if 0 in losers else "your team is safe"
    assert expected in final["line"]
