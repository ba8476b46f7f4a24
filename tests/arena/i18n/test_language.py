"""The reader's language: from the browser, from the switcher (a cookie), from a signed-in user's account; and
the words the code builds (the replay's narration, the table's moves, the API's ``detail``) in it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from arena.accounts.models import LanguagePreference
from arena.matches.replay import replay_frames
from arena.tables.board import table_view
from bots_sdk.bots import make_bot
from bots_sdk.engine import Game, Rules
from bots_sdk.local import play_game

pytestmark = pytest.mark.django_db


def nav(html: str) -> str:
    """The top bar's text."""
    return re.sub(r"<[^>]+>|\s+", " ", html.split('<header class="topbar">')[1].split("</header>")[0])


@pytest.mark.parametrize(("accept", "lang", "ladders"), [
    ("ru-RU,ru;q=0.9,en;q=0.5", "ru", "Рейтинги"), ("de-DE,de;q=0.9", "de", "Ranglisten"), ("fr", "en", "Ladders"),
])
def test_the_browser_language_picks_the_page_language(accept: str, lang: str, ladders: str) -> None:
    html = Client(headers={"accept-language": accept}).get("/").content.decode()
    assert f'<html lang="{lang}">' in html
    assert ladders in nav(html)


def test_the_switcher_sets_a_cookie_that_outranks_the_browser() -> None:
    client = Client(headers={"accept-language": "ru"})
    response = client.post("/accounts/language/", {"language": "de", "next": "/tournaments/"})
    assert response.status_code == 302 and response["Location"] == "/tournaments/"
    assert client.cookies["django_language"].value == "de"
    assert "Turniere" in client.get("/tournaments/").content.decode()


def test_a_signed_in_users_choice_follows_them_to_another_browser(alice: User) -> None:
    first = Client()
    first.force_login(alice)
    first.post("/accounts/language/", {"language": "ru", "next": "/"})
    assert LanguagePreference.objects.get(user=alice).language == "ru"

    elsewhere = Client(headers={"accept-language": "de"})  # another browser, no cookie, asking for German
    elsewhere.force_login(alice)
    response = elsewhere.get("/accounts/")
    assert '<html lang="ru">' in response.content.decode()
    assert response.cookies["django_language"].value == "ru"  # so the choice stays after logging out


def test_the_javascript_catalog_carries_the_viewers_words() -> None:
    body = Client(headers={"accept-language": "ru"}).get("/jsi18n/").content.decode()
    assert "\\u0431\\u0435\\u0440\\u0451\\u0442" in body or "берёт" in body  # "берёт" (takes)
    assert "pgettext" in body and "ngettext" in body


def test_the_replay_narrates_in_durak_players_words() -> None:
    record = play_game(Rules.preset("classic", players=2), [make_bot("gentle", 1), make_bot("random", 2)],
                       seed=5).record().to_dict()
    with translation.override("ru"):
        ru = replay_frames(record)
    with translation.override("de"):
        de = replay_frames(record)
    assert ru["steps"][1]["label"].startswith("ходит ") and de["steps"][1]["label"].endswith(" aus")
    assert "козырь" in ru["steps"][0]["caption"] and "Trumpf" in de["steps"][0]["caption"]
    ru_labels = " ".join(step["label"] for step in ru["steps"])
    de_labels = " ".join(step["label"] for step in de["steps"])
    assert "бьёт" in ru_labels and "sticht" in de_labels
    assert "дурак" in ru["steps"][-1]["caption"] or "Ничья" in ru["steps"][-1]["caption"]
    assert not re.search(r"\b(leads|beats|takes|passes|Seat)\b", " ".join(s["caption"] for s in ru["steps"]))


def test_the_table_speaks_to_the_player_in_their_language() -> None:
    game = Game.new(Rules.preset("classic", players=2), seed=3)
    me = game.to_act
    with translation.override("de"):
        view = table_view(game, me, ["Anna", "gentle"])
    assert view["headline"].startswith("Sie spielen aus")
    assert all(move["label"].endswith("ausspielen") for move in view["legal"])


def test_the_api_answers_detail_in_the_language_asked_for(alice_token: str) -> None:
    response = Client().post("/api/challenges", {"bot": "nobody", "opponents": ["ghost"]},
                             content_type="application/json",
                             headers={"authorization": f"Bearer {alice_token}", "accept-language": "de"})
    assert response.status_code == 404
    assert response.json()["detail"] == "keine aktive Version von nobody, ghost"
