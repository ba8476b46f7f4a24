"""The ladder activity page: queue per ladder, recent games, every active bot with a mark on the starved ones."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

from django.contrib.auth.models import User
from django.test import Client, override_settings
from pytest_django import DjangoAssertNumQueries

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, Match
from arena.matchmaking.services import matchmaking_pass
from tests.arena.matchmaking.conftest import ArenaMaker, finish

HOSTILE = "<img src=x onerror=alert(1)>"


def test_the_page_shows_queues_recent_games_and_marks_starved_bots_with_names_escaped(arena: ArenaMaker) -> None:
    rng = random.Random(4)
    arena.random_arena(rng, authors=8, bots=12)
    with override_settings(ARENA_MATCHMAKING_LADDERS={"classic-2": 1}, ARENA_MATCHMAKING_QUEUE_DEPTH=3):
        created = matchmaking_pass(rng=rng)
    (hostile,) = arena.versions([(User.objects.create(username="<b>eve", password="!"), {})],
                                played_ago=timedelta(hours=5))
    Bot.objects.filter(pk=hostile.bot_id).update(name=HOSTILE)
    done = created[0]
    finish([done], at=arena.now - timedelta(minutes=10))
    Game.objects.bulk_create(Game(match=done, number=i, deal=0, rotation=i, preset="classic", players=2, rated=True,
                                  durak_seat=0, reason="normal", record={}, finished=arena.now) for i in range(2))
    Match.objects.filter(pk=created[1].pk).update(status=Match.Status.RUNNING)

    html = Client().get("/matchmaking/").content.decode()
    assert "<h1>Ladder activity</h1>" in html
    assert HOSTILE not in html and "<b>eve" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "&lt;b&gt;eve" in html
    rows = re.findall(r"<tr class=\"(is-starved)?\">(.*?)</tr>", html, re.S)
    hostile_row = next(row for mark, row in rows if "onerror" in row)
    assert "⚠" in hostile_row
    assert all("⚠" not in row for mark, row in rows if not mark)
    classic = re.search(r"Classic, 2 players</a></td>(.*?)</tr>", html, re.S)
    assert classic is not None
    assert re.findall(r"<td class=\"num\">(\d+)</td>", classic.group(1)) == ["1", "1", "2", "2"]
    chart = json.loads(re.search(r'id="activity-data" type="application/json">(.*?)</script>', html, re.S)
                       .group(1))  # type: ignore[union-attr]
    assert sum(chart["series"]["classic-2"]) == 2 and len(chart["labels"]) == 24


def test_the_page_costs_a_fixed_number_of_queries(
    arena: ArenaMaker, django_assert_max_num_queries: DjangoAssertNumQueries, references: dict[str, BotVersion]
) -> None:
    arena.random_arena(random.Random(5), authors=20, bots=60)
    matchmaking_pass(rng=random.Random(6))
    with django_assert_max_num_queries(12):
        assert Client().get("/matchmaking/").status_code == 200


def test_an_empty_arena_renders(db: None) -> None:
    html = Client().get("/matchmaking/").content.decode()
    assert "No active bots." in html
