"""The statistics page: every section rendered, the charts' data embedded as JSON, filters, escaping, cache."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from arena.bots.models import BotVersion
from tests.arena.stats.factories import Played, duplicate, store, versions

pytestmark = pytest.mark.django_db

EVIL = "<b>&\"evil'"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def charts(html: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(html.split('id="stats-data" type="application/json">')[1].split("</script>")[0])
    return data


@pytest.fixture
def arena_games(references: dict[str, BotVersion]) -> None:
    a, evil = versions("alpha", EVIL)
    gentle = references["gentle"]
    duplicate([a, evil], [[0, 1], [1, 0], [0, 0], [1, 0], [0, 1], [1, 1]] * 3)
    store([a, evil, gentle], [Played(durak=2, trumps=(1, 2, 0), first=0, bouts=40),
                              Played(durak=None, trumps=(0, 2, 1), first=1, bouts=60, reason="pickup_limit"),
                              Played(durak=1, trumps=(2, 2, 2), first=1, reason="timeout", offender=1)])
    store([gentle, gentle], [Played(durak=d % 2, trumps=(d % 4, 3 - d % 4), first=d % 2, bouts=25 + d, deal=d)
                             for d in range(20)])


def test_the_page_shows_every_section_with_its_chart_data(arena_games: None) -> None:
    response = Client().get("/stats/")
    assert response.status_code == 200
    html = response.content.decode()
    page = text(html)
    for title in ("Durak rate by trumps in the starting hand", "The first attacker's durak rate", "Game length",
                  "Draws and their reasons", "What duplicate deals are worth",
                  "Gentle self-play against the source's figures", "Faults per bot version",
                  "Partnerships: how much a team's seats matter"):
        assert title in page
    assert "chart.umd.min.js" in html and "stats/stats.js" in html
    data = charts(html)
    assert set(data) == {"trumps", "first_attacker", "bouts", "draws", "duplicate", "partnerships", "team_trumps",
                         "team_fair"}
    assert set(data["trumps"]) == {"2"}  # 3-player cells hold fewer than 10 seat-games
    assert [row[0] for row in data["first_attacker"]] == [2, 3]
    assert data["draws"]["reasons"] == {"pickup_limit": [0.0, pytest.approx(1 / 3, abs=1e-4)]}
    assert data["duplicate"][0][0] == "2p all bots"
    assert "durak rate, no trump dealt" in page and "55.0 %" in page  # the source's figure beside ours
    assert "20 deals counted of 20 stored games" in page
    assert "No partnership games ( pagat-pairs , pagat-trios ) yet" in page
    assert data["partnerships"] == {"labels": [], "attacker": [], "defender": [], "fair": []}
    faults = page.split("Faults per bot version")[1]
    assert re.search(r"evil&#x27; v1 39 1 0 0 0 2\.6 % 0\.5–13\.2 gentle v1 43 0", faults)  # worst first


def test_bot_names_are_escaped_in_tables_and_in_the_charts_data(arena_games: None) -> None:
    html = Client().get("/stats/").content.decode()
    assert EVIL not in html
    assert "&lt;b&gt;&amp;&quot;evil&#x27;" in html
    assert "\\u003Cb\\u003E\\u0026" in html  # json_script's escaping inside the <script> element
    assert any(EVIL in row[0] for row in charts(html)["duplicate"])
    assert "/bots/%3Cb%3E&amp;%22evil&#x27;/" in html  # the link to its page, quoted


def test_the_query_string_filters_every_section(arena_games: None) -> None:
    html = Client().get("/stats/?players=3").content.decode()
    data = charts(html)
    assert [row[0] for row in data["first_attacker"]] == [3]
    assert data["duplicate"] == []
    assert "3 recorded games" in text(html)
    assert 'value="3" selected' in html
    assert "No <code>classic</code> games with gentle in every seat at 3-player tables" in html
    assert "0 recorded games" in text(Client().get("/stats/?preset=transfer").content.decode())


def test_a_bad_filter_value_shows_everything(arena_games: None) -> None:
    response = Client().get("/stats/?players=9&preset=nonsense")
    assert response.status_code == 200
    assert "59 recorded games" in text(response.content.decode())


def test_an_empty_arena_says_how_to_fill_the_page(db: None) -> None:
    html = Client().get("/stats/").content.decode()
    assert "No games recorded yet" in text(html)
    assert "manage.py stats_selfplay" in html
    assert "chart.umd.min.js" not in html


def test_the_page_is_computed_once_per_filter_and_then_cached(
    arena_games: None, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with CaptureQueriesContext(connection) as first:
        Client().get("/stats/")
    with django_assert_num_queries(1):  # the newest game's id, the cache key's freshness
        assert Client().get("/stats/").status_code == 200
    a, b, c = versions("c1", "c2", "c3")
    duplicate([a, b, c], [[0, 1, 2], [2, 2, 1]] * 30)  # more games, bots and sets (and an emptied cache)
    with django_assert_num_queries(len(first)):  # a fixed number of aggregates, however many games
        Client().get("/stats/")
