"""The pages a visitor reads after a bot is admitted: home, ladder, bot, match, replay, API docs."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.matches.models import Game, Match

pytestmark = pytest.mark.django_db(transaction=True)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_home_page_shows_the_ladder_and_the_admission_match(admitted: BotVersion) -> None:
    page = text(Client().get("/").content.decode())
    assert "Classic, 2 players" in page
    assert "mybot" in page and "random" in page
    assert "admission · classic 2p" in page


def test_the_ladder_lists_rank_author_rating_interval_games_and_provisional(admitted: BotVersion) -> None:
    html = Client().get("/ladders/classic-2/").content.decode()
    row = next(r for r in html.split("<tr") if "/bots/mybot/" in r)
    rating = admitted.ratings.get()
    assert "alice" in row
    assert f"{rating.rating:.0f}" in row and f"{rating.low:.0f} – {rating.high:.0f}" in row
    assert 'class="bar"' in row and 'class="provisional"' in row
    assert f">{rating.games}<" in row


def test_the_bot_page_has_versions_history_opponents_and_matches(admitted: BotVersion) -> None:
    response = Client().get("/bots/mybot/")
    html = response.content.decode()
    history = json.loads(html.split('id="rating-history" type="application/json">')[1].split("</script>")[0])
    assert [point[0] for point in history["classic-2"]] == [admitted.ratings.get().games]
    assert "chart.umd.min.js" in html
    opponents = html.split("Results per opponent")[1]
    assert "/bots/random/" in opponents
    assert f"/matches/{Match.objects.get(kind='admission').pk}/" in html


def test_the_match_page_tells_each_game_its_reason_and_latencies(admitted: BotVersion) -> None:
    match = Match.objects.get(kind="admission")
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    games = Game.objects.filter(match=match)
    for game in games:
        assert f"/games/{game.pk}/" in html
    assert "normal" in html or "draw" in html
    assert html.count('class="lat"') == 2 * games.count()


def test_a_forfeit_shows_its_reason_and_detail(admitted: BotVersion) -> None:
    game = Game.objects.filter(match__kind="admission").first()
    assert game is not None
    Game.objects.filter(pk=game.pk).update(reason="timeout", detail="seat 0 answered after 1.2 s")
    html = Client().get(f"/matches/{game.match_id}/").content.decode()
    assert "timeout" in html and "seat 0 answered after 1.2 s" in html


def test_the_replay_page_embeds_every_step(admitted: BotVersion) -> None:
    game = Game.objects.filter(match__kind="admission").first()
    assert game is not None
    html = Client().get(f"/games/{game.pk}/").content.decode()
    frames = json.loads(html.split('id="replay-frames" type="application/json">')[1].split("</script>")[0])
    assert len(frames["steps"]) == len(game.record["actions"]) + 1 or len(frames["steps"]) > len(game.record["actions"])
    record = Client().get(f"/games/{game.pk}/record.json").json()
    assert record == game.record


def test_unknown_pages_are_404(db: None) -> None:
    for url in ("/bots/nobody/", "/matches/999/", "/games/999/", "/ladders/classic-9/", "/ladders/nonsense/",
                "/versions/999/"):
        assert Client().get(url).status_code == 404, url


def test_the_api_documents_itself(db: None) -> None:
    assert Client().get("/api/docs").status_code == 200
    schema = Client().get("/api/openapi.json").json()
    assert {"/api/versions", "/api/ladders/{slug}", "/api/challenges"} <= set(schema["paths"])


def test_the_api_reads_ladders_bots_and_matches(admitted: BotVersion) -> None:
    ladder = Client().get("/api/ladders/classic-2").json()
    names = [s["bot"] for s in ladder["standings"]]
    assert "mybot" in names and "random" in names
    bot = Client().get("/api/bots/mybot").json()
    assert bot["versions"][0]["status"] == "active" and bot["ratings"][0]["ladder"] == "classic-2"
    match = Client().get(f"/api/matches/{Match.objects.get(kind='admission').pk}").json()
    assert match["status"] == "done" and len(match["games"]) == Game.objects.count()
    assert Client().get("/api/matches/12345").status_code == 404


def test_an_author_challenges_another_bot_unrated_through_the_api(admitted: BotVersion, alice_token: str) -> None:
    before = admitted.ratings.get().games
    response = Client().post("/api/challenges", {"bot": "mybot", "opponents": ["gentle"]},
                             content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {alice_token}")
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert match.kind == "challenge" and not match.rated and match.status == "done"  # tasks run in-process here
    assert not Game.objects.filter(match=match, rated=True).exists()
    assert admitted.ratings.get().games == before
    bad = Client().post("/api/challenges", {"bot": "mybot", "opponents": ["nobody"]},
                        content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {alice_token}")
    assert bad.status_code == 404 and "nobody" in bad.json()["detail"]
