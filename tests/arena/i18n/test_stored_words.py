"""What the arena stores and shows later reads in the reader's language: stored messages (codes and parameters,
worded when shown), text stored before them (as it was), the engine's and the referee's fault details (kept
English in the records, worded on the pages), and django-ninja's own ``detail`` messages in the API."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from arena.bots.models import Bot, BotVersion
from arena.matches.fault_words import fault_text, why_illegal_text
from arena.notices import notice, shown
from bots_sdk.bot import Bot as SdkBot
from bots_sdk.bots import make_bot
from bots_sdk.engine import Action, ActionKind, Game, Observation, Rules
from bots_sdk.engine.cards import deck_cards
from bots_sdk.local import play_game


def test_a_stored_message_reads_in_each_language_and_old_text_as_it_was() -> None:
    decided = notice("table.by_finishing", where=notice("table.in_tiebreak", number=1, table=3), last_in=5.0,
                     first_out=4.5)
    notes = (f"2026-12-01 10:00 started with 4 entrants\n"  # written before messages were coded
             f"2026-12-01 10:05 {notice('tournament.table', round=1, table=2, note=decided).stored()}\n")
    expected = {
        "en": "round 1, table 2: decided by finishing order in tie-break deal 1 (table 3): 5 finishing points "
              "against 4.5",
        "ru": "тур 1, стол 2: решил порядок выхода в переигровке 1 (стол 3): 5 очков за выход против 4,5",
        "de": "Runde 1, Tisch 2: entschieden durch die Ausstiegsfolge im Stechen 1 (Tisch 3): 5 Ausstiegspunkte "
              "gegen 4,5",
    }
    for language, line in expected.items():
        with translation.override(language):
            assert shown(notes) == f"2026-12-01 10:00 started with 4 entrants\n2026-12-01 10:05 {line}\n"
    assert shown("cancelled: server move") == "cancelled: server move"
    assert shown('{"code": "no.such.code", "params": {}}') == '{"code": "no.such.code", "params": {}}'


class Cheat(SdkBot):
    """Leads a card it does not hold."""

    def choose_action(self, observation: Observation) -> Action:
        return Action(ActionKind.ATTACK, next(c for c in deck_cards(36) if c not in observation.hand))


class Raiser(SdkBot):
    def choose_action(self, observation: Observation) -> Action:
        raise ValueError("my bug")


def test_fault_details_the_engine_wrote_read_in_durak_players_words() -> None:
    rules = Rules.preset("classic", players=2)
    cheated = play_game(rules, [Cheat(), Cheat()], seed=1).game.outcome
    crashed = play_game(rules, [Raiser(), Raiser()], seed=1).game.outcome
    assert cheated is not None and crashed is not None
    assert cheated.detail.startswith("attack ") and "does not hold" in cheated.detail  # the record keeps English
    with translation.override("ru"):
        assert "— нельзя: у места" in fault_text(cheated.detail)
        assert fault_text(crashed.detail) == "бот выбросил исключение ValueError: my bug"
        assert fault_text("gentle: no answer within 1.0 s") == "gentle: нет ответа за 1,0 с"
    with translation.override("de"):
        assert "ist nicht erlaubt: Platz" in fault_text(cheated.detail)
        assert fault_text("gentle: no answer within 1.0 s") == "gentle: keine Antwort binnen 1,0 s"
    assert fault_text("something new") == "something new"


def test_every_reason_the_engine_gives_for_an_illegal_action_is_worded() -> None:
    """Reasons met in real positions of every preset's games: a new or reworded reason in the engine fails here."""
    unworded: set[str] = set()
    with translation.override("ru"):
        for preset, players in (("classic", 2), ("transfer", 3), ("house", 4), ("kawu", 2)):
            played = play_game(Rules.preset(preset, players=players),
                               [make_bot("random", s) for s in range(players)], seed=7)
            record = played.record()
            game = Game.from_deck(record.rules, record.deck, record.dealer)
            rng = random.Random(3)
            for action in record.actions:
                seat = game.to_act
                assert seat is not None
                for card in rng.sample(deck_cards(36), 6):
                    for kind in (ActionKind.ATTACK, ActionKind.TRANSFER, ActionKind.PASS, ActionKind.TAKE,
                                 ActionKind.EXCHANGE):
                        why = game.why_illegal(Action(kind, None if kind in (ActionKind.PASS, ActionKind.TAKE,
                                                                          ActionKind.EXCHANGE) else card), seat)
                        if why and why_illegal_text(why) == why:
                            unworded.add(why)
                    for target, _cover in game.table()[:2]:
                        if card == target:
                            continue
                        why = game.why_illegal(Action(ActionKind.DEFEND, card, target), seat)
                        if why and why_illegal_text(why) == why:
                            unworded.add(why)
                game.push(action.action)
    assert not unworded, f"reasons of the engine not worded in arena/matches/fault_words.py: {sorted(unworded)}"


@pytest.mark.django_db
def test_a_rejected_versions_reason_reads_in_its_authors_language(alice: User, alice_client: Client) -> None:
    bot = Bot.objects.create(owner=alice, name="flaky")
    version = BotVersion.objects.create(
        bot=bot, number=1, label="1", language="python", status=BotVersion.Status.REJECTED,
        error=notice("version.admission_lost", game=2, reason=notice("reason", code="timeout"),
                     detail=notice("fault", detail="flaky: no answer within 1.0 s")).stored())
    page = alice_client.get(f"/versions/{version.pk}/", headers={"accept-language": "de"}).content.decode()
    assert "Zulassung: Partie 2 gegen random verloren durch Zeitüberschreitung: flaky: keine Antwort binnen 1,0 s" \
        in page


@pytest.mark.django_db
def test_django_ninjas_own_details_come_in_the_language_asked_for() -> None:
    client = Client(headers={"accept-language": "ru"})
    unauthorized = client.post("/api/challenges", {}, content_type="application/json")
    assert unauthorized.status_code == 401
    assert unauthorized.json()["detail"].startswith("Нет доступа: пришлите заголовок Authorization")
    missing = Client(headers={"accept-language": "de"}).get("/api/bots/nobody")
    assert missing.status_code == 404 and missing.json()["detail"] == "kein Bot dieses Namens"
    assert Client().get("/api/bots/nobody").json()["detail"] == "no bot of that name"
