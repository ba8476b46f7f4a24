"""The arena in a real browser in Russian, German and English: every kind of page in the reader's language, the
replay viewer narrating in it, and on a 390 px phone no page wider than the screen (long German compounds and
Cyrillic wrap instead of pushing the layout sideways). What the arena stored while it ran (a knockout's bracket
reasons and notes, why a match failed, a game's fault) reads in the reader's language too.
Screenshots: ``test-artifacts/screenshots/i18n-*``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from arena.bots.models import BotVersion
from arena.bots.services import reference_versions_ensure
from arena.matches.failures import classify
from arena.matches.models import Game, Match
from arena.matches.services import match_claim, match_fail, match_store_result
from arena.matches.tasks import play_match
from arena.tables.selectors import Player
from arena.tables.services import table_create
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_advance, tournament_create, tournament_match_done
from bots_sdk.bot import Bot
from bots_sdk.bots import make_bot
from bots_sdk.engine import Action, ActionKind, Observation, Rules
from bots_sdk.engine.cards import deck_cards
from bots_sdk.local import play_game
from tests.arena.conftest import shoot
from tests.arena.tournaments.helpers import playing, spec_versions
from worker.referee.match import GameResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": ("ru-RU", "Рейтинги", "шаг 1 /"), "de": ("de-DE", "Ranglisten", "Schritt 1 /"),
             "en": ("en-GB", "Ladders", "step 1 /")}
"""Per language: the browser locale, the top bar's word for the ladders, the replay counter after one step."""
STORED = {
    "ru": {"knockout": ["начат, участников: 2", "проходит участник с лучшим посевом (крайняя мера)",
                        "матч сорвался: судья остановился из-за внутренней ошибки (RuntimeError)", "побеждает"],
           "fault": ["— нельзя:"], "fault_replay": ["— нельзя:"]},
    "de": {"knockout": ["begonnen mit 2 Teilnehmern", "der besser Gesetzte kommt weiter (letztes Mittel)",
                        "Match gescheitert: der Schiedsrichter brach mit einem internen Fehler ab (RuntimeError)",
                        "gewinnt"],
           "fault": ["ist nicht erlaubt:"], "fault_replay": ["ist nicht erlaubt:"]},
    "en": {"knockout": ["started with 2 entrants", "the better seed goes on (the last resort)",
                        "match failed: the referee stopped with an internal error (RuntimeError)", "wins"],
           "fault": ["is not allowed:"], "fault_replay": ["is not allowed:"]},
}
"""Per language and page: what the arena stored while it ran, as the reader must read it."""
ENGLISH_STORED = re.compile(r"started with|the better seed|decided by|match failed|is not allowed|finished\b|"
                            r"does not hold|not a legal action|the referee stopped")
"""The English of those stored messages: none of it may be left on a Russian or German page."""


class Cheat(Bot):
    """A bot that leads a card it does not hold: the engine forfeits its game (``illegal``), as the referee would."""

    def choose_action(self, observation: Observation) -> Action:
        return Action(ActionKind.ATTACK, next(c for c in deck_cards(36) if c not in observation.hand))


def play_for_real(match: Match, cheat_in_game: int | None = None) -> None:
    """Store ``match`` with games the reference bots really played (in this process, without a sandbox); in game
    ``cheat_in_game`` the first seat cheats and forfeits."""
    versions = {v.pk: v for v in BotVersion.objects.filter(pk__in=spec_versions(match))}
    spec = [versions[pk] for pk in spec_versions(match)]
    n = match.players
    rules = Rules.preset(match.preset, players=n)
    results = []
    for g in range(match.deals * n):
        deal, rotation = divmod(g, n)
        seats = tuple((s + rotation) % n for s in range(n))
        bots = [make_bot(spec[i].reference, 7 * g + s) for s, i in enumerate(seats)]
        if g == cheat_in_game:
            bots[0] = Cheat()
        game = play_game(rules, bots, seed=1000 + deal)
        record = game.record().to_dict()
        record["seats"] = [{"bot": spec[i].bot.name, "version": spec[i].label} for i in seats]
        outcome = record["result"]
        end = game.game.outcome
        assert end is not None
        results.append(GameResult(deal=deal, rotation=rotation, seats=seats, durak=outcome["durak"],
                                  draw=outcome["draw"], reason=outcome["reason"], offender=end.offender,
                                  detail=end.detail, record=record))
    claimed = match_claim(match_id=match.pk, task_id=f"i18n-{match.pk}", worker="test")
    assert claimed is not None
    assert match_store_result(match=claimed, task_id=f"i18n-{match.pk}", results=results)
    tournament_match_done(match.pk)


@pytest.fixture
def arena(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A finished rated round robin of the reference bots (real games), and a table waiting for a second person."""
    monkeypatch.setattr(play_match, "apply_async", lambda *args, **kwargs: None)
    versions = reference_versions_ensure()
    tournament = tournament_create(name="Кубок / Pokal / Cup", format="round_robin", preset="transfer", players=2,
                                   deals=1, rated=True, versions=[versions["gentle"], versions["random"]],
                                   allow_overlap=True)
    tournament_advance(tournament.pk)
    for round_table in playing(tournament):
        assert round_table.match is not None
        play_for_real(round_table.match, cheat_in_game=0)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    games = Game.objects.filter(match__tournament_table__round__tournament=tournament)
    game = games.order_by("-decisions").first()
    faulty = games.get(reason="illegal")
    assert game is not None and game != faulty
    knockout = knockout_with_reasons(versions)
    host = User.objects.create_user("gastgeber", password="gastgeber-password-1")
    table = table_create(preset="classic", seats=[None, None, versions["gentle"]], player=Player("t" * 32, host))
    return {
        "home": "/", "ladder": "/ladders/transfer-2/", "bot": "/bots/gentle/", "match": f"/matches/{game.match_id}/",
        "replay": f"/games/{game.pk}/", "tournament": f"/tournaments/{tournament.pk}/", "statistics": "/stats/",
        "tables": "/tables/", "table": f"/tables/{table.key}/", "knockout": f"/tournaments/{knockout.pk}/",
        "fault": f"/matches/{faulty.match_id}/", "fault_replay": f"/games/{faulty.pk}/",
    }


def knockout_with_reasons(versions: dict[str, BotVersion]) -> Tournament:
    """A finished knockout whose one table's match failed, so the better seed went on (the last resort) and won:
    what the arena stores and then shows (notes, the bracket's reason, why the match failed) in the reader's
    language."""
    knockout = tournament_create(name="Knock-out", format="knockout", preset="classic", players=2, deals=1,
                                 versions=[versions["gentle"], versions["random"]], allow_overlap=True)
    tournament_advance(knockout.pk)
    (first,) = playing(knockout)
    assert first.match is not None
    claimed = match_claim(match_id=first.match.pk, task_id="i18n-failed", worker="test")
    assert claimed is not None
    match_fail(match=claimed, task_id="i18n-failed", error="staff only",
               public_error=classify(RuntimeError("boom")).public)
    tournament_match_done(claimed.pk)
    knockout.refresh_from_db()
    assert knockout.status == Tournament.Status.FINISHED
    return knockout


PHONE = 390
"""The phone's width in CSS pixels."""


PHONE = 390
"""The phone's width in CSS pixels."""


def context_page(browser: Browser, locale: str, width: int) -> Iterator[Page]:
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                                  is_mobile=width < 500, has_touch=width < 500)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_page_reads_in_the_browsers_language(browser: Browser, live_server: Any, arena: dict[str, str],
                                                   language: str) -> None:
    locale, ladders, step_one = LANGUAGES[language]
    for page in context_page(browser, locale, 1280):
        for name, path in arena.items():
            page.goto(f"{live_server}{path}")
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator(".topbar nav")).to_contain_text(ladders)
            text = page.locator("main").inner_text()
            for words in STORED[language].get(name, []):
                assert words in text, f"{name}: {words!r} not on the page"
            if language != "en" and name in STORED[language]:
                assert not ENGLISH_STORED.search(text), f"{name}: English left: {ENGLISH_STORED.findall(text)}"
            shoot(page, f"i18n-{language}-{name}")
        page.goto(f"{live_server}{arena['replay']}")
        page.click("#btn-forward")
        expect(page.locator("#step-counter")).to_contain_text(step_one)
        caption = page.locator("#caption").inner_text()
        if language == "ru":
            assert re.search(r"ходит|подкидывает|бьёт|переводит", caption), caption
        elif language == "de":
            assert re.search(r"spielt .* aus|legt .* nach|sticht|schiebt", caption), caption


@pytest.mark.parametrize("language", ["ru", "de"])
def test_no_page_is_wider_than_a_phone(browser: Browser, live_server: Any, arena: dict[str, str],
                                       language: str) -> None:
    for page in context_page(browser, LANGUAGES[language][0], PHONE):
        wide = {}
        for name, path in arena.items():
            page.goto(f"{live_server}{path}")
            # A mobile browser widens its layout viewport to fit wide content, so innerWidth alone would grow
            # with the overflow: the page must fit the phone's 390 px as well.
            width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            if max(width) > PHONE:
                wide[name] = width
            if name in ("home", "replay", "tournament", "table", "knockout", "fault_replay"):
                shoot(page, f"i18n-{language}-phone-{name}")
        assert not wide, f"pages wider than the phone (scrollWidth, innerWidth): {wide}"


def test_the_switcher_changes_the_language_on_the_spot(browser: Browser, live_server: Any,
                                                       arena: dict[str, str]) -> None:
    for page in context_page(browser, "en-GB", 1280):
        page.goto(f"{live_server}{arena['tournament']}")
        page.click("#language-switcher input[value=de]")
        expect(page).to_have_url(re.compile(re.escape(arena["tournament"]) + "$"))
        expect(page.locator(".topbar nav")).to_contain_text("Turniere")
        page.goto(f"{live_server}/")
        expect(page.locator("html")).to_have_attribute("lang", "de")  # the cookie keeps it
