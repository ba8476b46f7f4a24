"""docs/rules.md section 3: who starts, and who defends."""

from __future__ import annotations

from bots_sdk.engine import Game, Rules
from tests.engine.deals import deal, full_deck

# Trump is diamonds in every deal below (turn-up AD unless said otherwise).
NO_TRUMPS = [
    ["6S", "7S", "8S", "9S", "TS", "JS"],
    ["6H", "7H", "8H", "9H", "TH", "JH"],
    ["6C", "7C", "8C", "9C", "TC", "JC"],
]


def test_holder_of_the_lowest_trump_attacks_first() -> None:
    """Section 3: `lowest_trump` (default): "the player holding the lowest trump attacks first"."""
    hands = [
        ["8D", "7S", "8S", "9S", "TS", "JS"],
        ["6H", "7H", "8H", "9H", "TH", "JH"],
        ["7D", "7C", "8C", "9C", "TC", "JC"],
    ]
    game = deal(Rules.preset("classic", players=3), hands, "AD", ["6D"])
    assert game.attacker == 2
    assert game.to_act == 2
    assert game.defender == 0


def test_lowest_trump_is_compared_by_rank_not_by_seat_or_count() -> None:
    """Section 3: the lowest trump wins, even against a player holding more trumps."""
    hands = [
        ["7D", "8D", "9D", "TD", "TS", "JS"],
        ["6H", "7H", "6D", "9H", "TH", "JH"],
        ["6C", "7C", "8C", "9C", "TC", "JC"],
    ]
    game = deal(Rules.preset("classic", players=3), hands, "AD")
    assert game.attacker == 1
    assert game.defender == 2


def test_nobody_holds_a_trump_so_the_dealers_left_attacks_first() -> None:
    """Section 3: "If nobody holds a trump, the dealer's left attacks first"."""
    game = deal(Rules.preset("classic", players=3), NO_TRUMPS, "AD")
    assert game.attacker == 0
    assert game.defender == 1
    other_dealer = deal(Rules.preset("classic", players=3), NO_TRUMPS, "AD", dealer=0)
    assert other_dealer.attacker == 1
    assert other_dealer.defender == 2


def test_dealer_left_option_ignores_who_holds_trumps() -> None:
    """Section 3: `dealer_left`: "the dealer's left attacks first"."""
    rules = Rules.preset("classic", players=3).replace(first_attacker="dealer_left")
    hands = [
        ["6H", "7H", "8H", "9H", "TH", "JH"],
        ["6C", "7C", "8C", "9C", "TC", "JC"],
        ["6D", "7S", "8S", "9S", "TS", "JS"],
    ]
    game = deal(rules, hands, "AD")
    assert game.attacker == 0
    assert game.to_act == 0
    assert deal(rules, hands, "AD", dealer=0).attacker == 1
    assert deal(rules, hands, "AD", dealer=1).attacker == 2


def test_defender_is_the_next_player_clockwise_after_the_main_attacker() -> None:
    """Section 3: "The defender is always the next active player after the main attacker" (wrapping)."""
    hands = [
        ["6S", "7S", "8S", "9S", "TS", "JS"],
        ["6H", "7H", "8H", "9H", "TH", "JH"],
        ["6C", "7C", "8C", "9C", "TC", "JC"],
        ["6D", "QS", "QH", "QC", "KS", "KH"],
    ]
    game = deal(Rules.preset("classic", players=4), hands, "AD")
    assert game.attacker == 3
    assert game.defender == 0


def test_whole_deck_deal_counts_the_dealers_turned_up_trump() -> None:
    """Sections 2-3: with 6 x 6 the trump card stays in the dealer's hand and counts for the lowest trump."""
    deck = full_deck(36)
    # Put 6C, the lowest club, last: the dealer (seat 5) keeps it and it is the lowest trump.
    deck.remove("6C")
    deck.append("6C")
    game = Game.from_deck(Rules.preset("classic", players=6), deck)
    assert str(game.trump_card) == "6C"
    assert game.attacker == 5
    assert game.defender == 0
