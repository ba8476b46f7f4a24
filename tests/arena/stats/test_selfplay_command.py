"""``manage.py stats_selfplay``: gentle self-play stored as ordinary, replayable, unrated matches the page reads."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from arena.matches.models import Game, GameSeat, Match, MatchEntry
from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay

pytestmark = pytest.mark.django_db


def test_the_command_stores_replayable_gentle_games_and_the_page_compares_them(db: None) -> None:
    out = io.StringIO()
    call_command("stats_selfplay", "--games", "3", "--players", "2", "--seed", "test", stdout=out)
    assert "stored 6 games (3 deals x 2 rotations)" in out.getvalue()
    match = Match.objects.get()
    assert (match.kind, match.rated, match.status) == ("challenge", False, "done")
    assert (match.preset, match.deals) == ("classic", 3)
    assert {e.version.bot.name for e in MatchEntry.objects.filter(match=match)} == {"gentle"}
    games = list(Game.objects.filter(match=match))
    assert sorted((g.deal, g.rotation) for g in games) == [(d, r) for d in range(3) for r in range(2)]
    for game in games:
        assert replay(GameRecord.from_dict(game.record)).status == "ok"
        assert game.first_attacker is not None and game.bouts > 0
    assert not GameSeat.objects.filter(game__match=match, start_trumps__isnull=True).exists()
    html = Client().get("/stats/").content.decode()
    assert "3 deals counted of 6 stored games" in html
    assert "durak rate, no trump dealt" in html


def test_the_command_refuses_a_table_it_cannot_seat(db: None) -> None:
    with pytest.raises(CommandError, match="between 2 and 6"):
        call_command("stats_selfplay", "--games", "1", "--players", "7")
    with pytest.raises(CommandError, match="positive"):
        call_command("stats_selfplay", "--games", "0")
    assert not Match.objects.exists()
