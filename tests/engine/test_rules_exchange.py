"""docs/rules.md section 7: the trump six exchange (option `trump_exchange`, preset `pagat`)."""

from __future__ import annotations

import pytest

from bots_sdk.engine import Game, IllegalActionError, Rules
from tests.engine.deals import deal, full_deck, hand, legal, play, sixteen_game, steps, take_a_club

# Two players, trump diamonds (KD turned up). Seat 0 holds the six of trumps (the lowest trump) and attacks.
SIX_HOLDER = [["6D", "7S", "9H", "TC", "JC", "KS"], ["8S", "TS", "7H", "KH", "8C", "QS"]]


def pagat(**changes: object) -> Rules:
    return Rules.preset("pagat", players=2).replace(**changes)


def test_exchange_is_an_extra_legal_action_of_the_six_holder() -> None:
    """Section 7: the holder of the six of trumps "may swap it for the turned-up trump ... offered as
    `exchange`, an extra legal action in any of that player's own decisions"."""
    game = deal(pagat(), SIX_HOLDER, "KD")
    assert legal(game) == ["attack 6D", "attack 7S", "attack 9H", "attack JC", "attack KS", "attack TC", "exchange"]
    play(game, (0, "exchange"))
    assert hand(game, 0) == {"KD", "7S", "9H", "TC", "JC", "KS"}
    assert str(game.trump_card) == "6D"
    assert str(game.observation(1).trump_card) == "6D"


def test_after_an_exchange_the_same_player_decides_again() -> None:
    """Section 7: "after it the same player decides again"."""
    game = deal(pagat(), SIX_HOLDER, "KD")
    play(game, (0, "exchange"))
    assert game.to_act == 0
    assert legal(game) == ["attack 7S", "attack 9H", "attack JC", "attack KD", "attack KS", "attack TC"]
    assert steps(game) == [(0, "exchange", False)]


def test_exchange_makes_a_forced_pass_a_real_decision_and_the_pass_after_it_is_forced() -> None:
    """Section 7: "(so a decision that would otherwise be forced becomes a real one); after it the same player
    decides again (a single remaining option is then forced)"."""
    game = deal(pagat(), SIX_HOLDER, "KD")
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"))
    # Seat 0 holds no 7 or 8: without the six it would pass as a forced move.
    assert game.to_act == 0
    assert legal(game) == ["exchange", "pass"]
    play(game, (0, "exchange"))
    assert steps(game)[-2:] == [(0, "exchange", False), (0, "pass", True)]
    assert (game.bout, game.attacker) == (2, 1)
    without = deal(Rules.preset("classic", players=2), SIX_HOLDER, "KD")
    play(without, (0, "attack 7S"), (1, "defend 7S 8S"))
    assert steps(without)[-1] == (0, "pass", True)


def test_exchange_makes_a_forced_lead_a_real_decision() -> None:
    """Section 7: a main attacker holding only the six has a real decision (lead or exchange)."""
    game = deal(pagat(hand_size=1), [["6D"], ["7S"]], "KD")
    assert legal(game) == ["attack 6D", "exchange"]
    play(game, (0, "exchange"))
    assert steps(game)[:2] == [(0, "exchange", False), (0, "attack KD", True)]


def test_exchange_is_offered_to_a_six_got_by_drawing() -> None:
    """Section 7: a player "who holds the six of trumps, got by the deal or by drawing (not by picking up)"."""
    hands = [["7D", "7S", "9H", "TC", "JC", "KS"], ["8S", "TS", "7H", "KH", "8C", "QS"]]
    game = deal(pagat(), hands, "KD", ["6D"])
    assert "exchange" not in legal(game)
    play(game, (0, "attack 9H"), (1, "defend 9H KH"), (0, "pass"))
    assert "6D" in hand(game, 0)
    play(game, (1, "attack 8S"))
    assert game.to_act == 0
    assert "exchange" in legal(game)


def test_no_exchange_when_the_turned_up_card_is_the_six() -> None:
    """Section 7: "Not offered when the turn-up is itself the six"."""
    hands = [["7D", "7S", "9H", "TC", "JC", "KS"], ["8S", "TS", "7H", "KH", "8C", "QS"]]
    game = deal(pagat(), hands, "6D")
    assert "exchange" not in legal(game)
    with pytest.raises(IllegalActionError, match="already 6D"):
        game.apply("exchange")


def test_no_exchange_for_a_six_that_has_been_on_the_table_even_for_its_first_owner() -> None:
    """Section 7: not offered "for a six that has been on the table (picked up, even by its first owner)"."""
    hands = [["9S", "9H", "7C", "8C", "TC", "JC"], ["6D", "7S", "8S", "7H", "8H", "QS"]]
    game = deal(pagat(first_attacker="dealer_left"), hands, "KD")
    play(game, (0, "attack 9S"))
    # The defender's own decision offers the exchange while the six is in its hand from the deal.
    assert legal(game) == ["defend 9S 6D", "defend 9S QS", "exchange", "take"]
    play(game, (1, "defend 9S 6D"), (0, "attack 9H"))
    # Seat 1 cannot beat 9H and takes: it picks up its own 6D.
    assert "6D" in hand(game, 1)
    assert (game.bout, game.attacker, game.defender) == (2, 0, 1)
    play(game, (0, "attack 7C"))
    assert "exchange" not in legal(game)
    assert "defend 7C 6D" in legal(game)
    with pytest.raises(IllegalActionError, match="has been on the table"):
        game.apply("exchange")


def test_no_exchange_once_the_turned_up_card_has_been_drawn() -> None:
    """Section 7: not offered "once the turned-up card has been drawn"."""
    game = sixteen_game(trump_exchange=True)
    assert "exchange" in legal(game)  # seat 1 holds 6D
    for rank in "789T":
        take_a_club(game, rank)
    assert game.trump_drawn_by == 1
    assert "6D" in hand(game, 1)
    assert game.to_act == 1
    assert "exchange" not in legal(game)
    with pytest.raises(IllegalActionError, match="has been drawn"):
        game.apply("exchange")


def test_after_an_exchange_the_six_is_the_card_drawn_last() -> None:
    """Section 7: the six takes the turned-up card's place "at the bottom of the stock" (section 2: drawn last)."""
    game = sixteen_game(trump_exchange=True)
    play(game, (1, "exchange"))
    assert "KD" in hand(game, 1)
    for rank in "789T":
        take_a_club(game, rank)
    assert game.stock_size == 0
    assert game.trump_drawn_by == 1
    assert "6D" in hand(game, 1)
    assert str(game.trump_card) == "6D"


def test_no_exchange_with_a_24_card_deck() -> None:
    """Section 7: "With a 24-card deck there is no six: no exchange"."""
    game = Game.from_deck(pagat(deck=24), full_deck(24))
    assert "exchange" not in legal(game)
    with pytest.raises(IllegalActionError):
        game.apply("exchange")


def test_no_exchange_without_the_option() -> None:
    """Section 7: the exchange is a variant rule (option `trump_exchange`), off in `classic`."""
    game = deal(Rules.preset("classic", players=2), SIX_HOLDER, "KD")
    assert "exchange" not in legal(game)
    with pytest.raises(IllegalActionError, match="option trump_exchange is off"):
        game.apply("exchange")
