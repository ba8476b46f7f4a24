"""Team matches on the pages: the match page names each game's teams and the team that lost, the replay page
groups the seats by team and names the losing team; an individual match reads as before, and names are escaped.

Matches are stored through the arena's services (``tests/arena/teams.py``) in the test database.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.matches.models import Game, Match
from tests.arena.teams import match_store, stand_ins, team_match_store

pytestmark = pytest.mark.django_db(transaction=True)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def losing_team(game: Game, layout: list[list[int]]) -> int | None:
    """The index in ``layout`` of the team whose seats are marked durak (``None``: a draw)."""
    lost = sorted(seat.seat for seat in game.seats.all() if seat.durak)
    return next((i for i, team in enumerate(layout) if team == lost), None) if lost else None


def frames_of(html: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(html.split('id="replay-frames" type="application/json">')[1]
                                         .split("</script>")[0])
    return data


@pytest.mark.parametrize(("preset", "layout"), [
    pytest.param("pagat-pairs", [[0, 2], [1, 3]], id="pagat-pairs-4"),
    pytest.param("pagat-trios", [[0, 2, 4], [1, 3, 5]], id="pagat-trios-6"),
])
def test_the_match_page_names_the_teams_and_the_team_that_lost(
    references: dict[str, BotVersion], preset: str, layout: list[list[int]],
) -> None:
    match = team_match_store([references["gentle"], references["random"]], preset)
    labels = ["+".join(map(str, team)) for team in layout]
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    page = text(html)
    assert f"Team match: seats {labels[0]} vs {labels[1]}." in page
    assert "Plays seats" in page and "Lost" in page
    for name in ("gentle", "random"):  # each plays both sides' seats, one rotation each
        assert re.search(rf"{name} v1 (\S+ or \S+) ", page), name
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert len(games) == 2 and all(g.players == len(layout) * len(layout[0]) for g in games)
    for game in games:
        row = page.split(f" {game.number + 1} deal 1 ")[1].split(" replay")[0]
        by_seat = {seat.seat: seat.version.bot.name for seat in game.seats.all()}
        for letter, team, label in zip("AB", layout, labels):
            assert f"{letter} {label}: {by_seat[team[0]]}" in row
        lost = losing_team(game, layout)
        if lost is None:
            assert "draw" in row
        else:
            assert f"team {'AB'[lost]} ({labels[lost]}, {by_seat[layout[lost][0]]}) lost" in row
        assert "is durak" not in row
    assert html.count('class="team-badge team-0"') == len(games) == html.count('class="team-badge team-1"')


def test_the_replay_page_groups_partners_and_names_the_losing_team(references: dict[str, BotVersion]) -> None:
    match = team_match_store([references["gentle"], references["random"]], "pagat-pairs")
    game = next(g for g in Game.objects.filter(match=match).order_by("number")
                if g.durak_seat is not None and stand_ins(g.record))
    html = Client().get(f"/games/{game.pk}/").content.decode()
    lost = losing_team(game, [[0, 2], [1, 3]])
    assert lost is not None
    by_seat = {seat.seat: seat.version.bot.name for seat in game.seats.all()}
    groups = html.split('<li class="rp-team-group')[1:]
    assert len(groups) == 2
    for index, (group, seats) in enumerate(zip(groups, ([0, 2], [1, 3]))):
        head = text(group.split("</span></span>")[0] + "</span>")
        assert f"Team {'AB'[index]} seats {'+'.join(map(str, seats))}" in head
        seat_numbers = re.findall(r'<span class="rp-seat-no rp-s(\d)">', group.split("</ol>")[0])
        assert [int(s) for s in seat_numbers] == seats, "partners are listed together"
        assert group.count(">lost</span>") == (2 if index == lost else 0)
    result = text(html.split('id="rp-result">')[1].split("</p>")[0]).strip()
    assert result == f"Team {'AB'[lost]} (seats {['0+2', '1+3'][lost]}, {by_seat[lost]}) lost"  # team i holds seat i
    assert 'id="rp-roles"' in html
    for seat in range(4):
        assert f"Seat {seat} ({by_seat[seat]}) · team {'AB'[seat % 2]}</option>" in html
    frames = frames_of(html)
    assert [t["letter"] for t in frames["teams"]] == ["A", "B"]  # type: ignore[attr-defined]


def test_team_pages_escape_names(references: dict[str, BotVersion]) -> None:
    match = team_match_store([references["gentle"], references["random"]], "pagat-pairs")
    BotVersion.objects.filter(pk=references["random"].pk).update(label="<b>bold</b>")
    game = Game.objects.filter(match=match).order_by("number").first()
    assert game is not None
    record = dict(game.record)
    record["seats"] = [{"bot": f"<img src=x onerror=alert({s})>", "version": "1"} for s in range(4)]
    Game.objects.filter(pk=game.pk).update(record=record)
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert "<img" not in html and "<b>bold</b>" not in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "Seat 0 (&lt;img src=x onerror=alert(0)&gt;) · team A" in html
    frames = frames_of(html)
    assert frames["teams"][0]["name"] == "<img src=x onerror=alert(0)> / <img src=x onerror=alert(2)>"  # type: ignore[index]
    assert "<b>" not in Client().get(f"/matches/{match.pk}/").content.decode()


def test_an_individual_match_still_names_the_durak_seat(references: dict[str, BotVersion]) -> None:
    match = match_store([references["gentle"], references["random"]], "classic",
                        lambda results: all(r.durak is not None for r in results))
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    page = text(html)
    assert "Team match" not in page and "team-badge" not in html and "Plays seats" not in page
    assert page.count(" is durak") == 2
    game = Game.objects.filter(match=match).first()
    assert game is not None
    replay = Client().get(f"/games/{game.pk}/").content.decode()
    assert "rp-team-group" not in replay and 'id="rp-roles"' not in replay and "· team" not in replay
    durak = game.seats.get(durak=True)
    assert f"{durak.version.bot.name} (seat {durak.seat}) is the durak" in text(replay)


def test_the_bot_page_lists_a_team_match(references: dict[str, BotVersion]) -> None:
    match = team_match_store([references["gentle"], references["random"]], "pagat-pairs")
    html = Client().get("/bots/gentle/").content.decode()
    assert f"/matches/{match.pk}/" in html and "pagat-pairs 4p" in html
    assert Match.objects.get(pk=match.pk).players == 4
