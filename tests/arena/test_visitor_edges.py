"""What a visitor meets on a new arena: error pages in the site's style, an order on every ladder, people
named as people, no doubled names, one count of decisions, clean descriptions, statistics that are fresh."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.views.defaults import server_error

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.ratings.models import Rating
from arena.ratings.services import ladder_for
from arena.tables.models import Table, TableSeat
from arena.tables.services import human_version_ensure
from tests.arena.visitors import stored_game, version_of

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_missing_page_is_the_sites_own_404() -> None:
    response = Client().get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in html and 'class="topbar"' in html and "/no/such/page/" in html


def test_a_server_error_is_the_sites_own_500() -> None:
    response = server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in html and 'class="topbar"' in html


def test_every_page_names_a_favicon_that_is_served() -> None:
    html = Client().get("/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert icon is not None
    assert Client().get(icon.group(1)).status_code == 200
    assert Client().get("/favicon.ico", follow=True).status_code == 200


def test_a_new_arena_ranks_its_provisional_ratings(alice: User) -> None:
    ladder = ladder_for("classic", 2)
    for name, rating in (("low", 1400.0), ("high", 1600.0), ("mid", 1500.0)):
        Rating.objects.create(ladder=ladder, version=version_of(alice, name), rating=rating, se=150, games=4,
                              provisional=True)
    page = Client().get("/ladders/classic-2/").content.decode()
    rows = [text("<tr" + row).split()[:3] for row in page.split("<tr")[2:]]
    assert rows == [["1", "?", "high"], ["2", "?", "mid"], ["3", "?", "low"]]  # "?": provisional
    assert page.count('class="rank-provisional"') == 3
    home = text(Client().get("/").content.decode())
    assert "1 ? high" in home and "2 ? mid" in home
    api = Client().get("/api/ladders/classic-2").json()
    assert [(s["rank"], s["bot"], s["provisional"]) for s in api["standings"]] == [
        (1, "high", True), (2, "mid", True), (3, "low", True)]


def test_a_person_at_a_table_is_named_as_the_person_never_as_a_bot(alice: User) -> None:
    references = {v.bot.name: v for v in BotVersion.objects.filter(reference=True)} or None
    opponent = references["random"] if references else version_of(alice, "random")
    match = stored_game([human_version_ensure(), opponent], kind=Match.Kind.TABLE)
    table = Table.objects.create(key="k1", preset="classic", players=2, seed="7", move_s=1, bank_s=10,
                                 status=Table.Status.DONE, match=match)
    TableSeat.objects.create(table=table, seat=0, kind=TableSeat.Kind.HUMAN, user=alice)
    assert "(human)" not in json.dumps(Client().get("/api/bots").json())
    for url in ("/matches/", f"/matches/{match.pk}/", f"/games/{match.games.get().pk}/"):
        page = text(Client().get(url).content.decode())
        assert "(human)" not in page, url
        assert "alice" in page, url
    TableSeat.objects.filter(table=table).update(user=None)
    assert "guest" in text(Client().get("/matches/").content.decode())


def test_replay_chips_and_the_match_page_agree_and_repeat_no_name(alice: User) -> None:
    match = stored_game([version_of(alice, "sly"), version_of(alice, "fox")])
    game = match.games.get()
    replay = Client().get(f"/games/{game.pk}/").content.decode()
    roster = text(replay.split('class="rp-roster"')[1].split("</ol>")[0])
    assert "sly v1" in roster and "sly sly" not in roster
    frames = json.loads(replay.split('id="replay-frames" type="application/json">')[1].split("</script>")[0])
    decisions = sum(1 for step in frames["steps"] if step["seat"] is not None and not step["forced"])
    assert decisions == game.decisions
    row = text(Client().get(f"/matches/{match.pk}/").content.decode())
    assert "Decisions" in row and f" {game.decisions} " in row


def test_a_description_is_markdown_made_safe(alice: User) -> None:
    version_of(alice, "md", "Uses `minimax` to depth *3*. <script>alert(1)</script> [home](javascript:alert(1))")
    html = Client().get("/bots/md/").content.decode()
    assert "<code>minimax</code>" in html and "<em>3</em>" in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)" in html  # raw HTML is shown as text
    assert "javascript:" not in html and "`" not in text(html)
    listing = text(Client().get("/bots/").content.decode())
    assert "Uses minimax to depth 3." in listing


def test_the_statistics_are_fresh_once_a_game_is_stored(alice: User) -> None:
    assert "No games recorded" in Client().get("/stats/").content.decode()
    stored_game([version_of(alice, "one"), version_of(alice, "two")])
    page = text(Client().get("/stats/").content.decode())
    assert "No games recorded" not in page and "1 recorded game" in page
