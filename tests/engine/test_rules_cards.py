"""docs/rules.md section 1: cards, the beats relation, text notation, deck sizes."""

from __future__ import annotations

import pytest

from bots_sdk.engine import Action, Card, Game, IllegalActionError, InvalidCardError, InvalidDealError, Rules, Suit
from tests.engine.deals import RANKS_BY_DECK, deal, full_deck, hand, legal, play, steps

RANK_VALUE = {rank: value for value, rank in enumerate("23456789TJQKA", start=2)}
SUIT_OF = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}


def spec_beats(b: str, a: str, trump: str) -> bool:
    """The formula of section 1, on card texts."""
    same_suit_higher = b[1] == a[1] and RANK_VALUE[b[0]] > RANK_VALUE[a[0]]
    return same_suit_higher or (b[1] == trump and a[1] != trump)


def beats(b: str, a: str, trump: str) -> bool:
    return Card.parse(b).beats(Card.parse(a), trump=SUIT_OF[trump])


def test_higher_card_of_the_same_suit_beats_a_lower_one() -> None:
    """Section 1: `b` beats `a` iff `b.suit == a.suit and b.rank > a.rank` (or the trump clause)."""
    assert beats("9S", "7S", "H")
    assert not beats("7S", "9S", "H")
    assert not beats("7S", "7S", "H")
    assert beats("AC", "KC", "H")


def test_card_of_another_non_trump_suit_never_beats() -> None:
    """Section 1: a card of a different suit beats only as a trump."""
    assert not beats("AH", "6S", "D")
    assert not beats("9H", "9S", "D")


def test_any_trump_beats_any_non_trump() -> None:
    """Section 1: `b` beats `a` iff ... or `b.suit == trump and a.suit != trump`."""
    assert beats("6D", "AS", "D")
    assert beats("6D", "AC", "D")


def test_non_trump_never_beats_a_trump_not_even_an_ace() -> None:
    """Section 1: "A non-trump never beats a trump, not even an ace"."""
    assert not beats("AS", "6D", "D")
    assert not beats("AH", "6D", "D")


def test_trumps_beat_each_other_by_rank() -> None:
    """Section 1: two trumps compare like any two cards of one suit."""
    assert beats("7D", "6D", "D")
    assert not beats("6D", "7D", "D")


@pytest.mark.parametrize("trump", "SHDC")
def test_beats_matches_the_spec_formula_for_every_pair_of_52_cards(trump: str) -> None:
    """Section 1: the beats relation, checked against the formula for every ordered pair."""
    cards = full_deck(52)
    wrong = [(b, a) for b in cards for a in cards if beats(b, a, trump) != spec_beats(b, a, trump)]
    assert wrong == []


def test_defender_may_defend_exactly_with_the_cards_that_beat() -> None:
    """Section 1 + 4: `defend attack_card card` needs a card that beats the attack card."""
    rules = Rules.preset("classic", players=2)
    # Trump diamonds (turn-up AD); seat 0 holds the lowest trump and leads 9S.
    game = deal(rules, [["9S", "6D", "7C", "8C", "9C", "TC"],
                        ["8S", "TS", "KH", "AH", "7D", "JC"]], "AD")
    play(game, (0, "attack 9S"))
    assert legal(game) == ["defend 9S 7D", "defend 9S TS", "take"]
    with pytest.raises(IllegalActionError, match="does not beat"):
        game.apply("defend 9S 8S")
    with pytest.raises(IllegalActionError, match="does not beat"):
        game.apply("defend 9S AH")


def test_parser_reads_T_and_10_for_the_ten() -> None:
    """Section 1: `TD` is the ten of diamonds; parsers also accept `10D`."""
    assert Card.parse("10D") is Card.parse("TD")
    assert str(Card.parse("10D")) == "TD"
    assert Card.parse("TD").suit is Suit.DIAMONDS
    assert int(Card.parse("TD").rank) == 10


@pytest.mark.parametrize(("text", "ascii_form"), [
    ("6♠", "6S"), ("A♥", "AH"), ("10♦", "TD"), ("Q♣", "QC"), ("T♦", "TD"), ("td", "TD"), ("10s", "TS"),
])
def test_parser_accepts_suit_symbols_and_output_is_two_letter_ascii(text: str, ascii_form: str) -> None:
    """Section 1: parsers accept the symbols ♠ ♥ ♦ ♣; output is always the two-letter ASCII form."""
    assert str(Card.parse(text)) == ascii_form


@pytest.mark.parametrize("text", ["1D", "6X", "11S", "D", "", "6"])
def test_parser_rejects_text_that_is_not_a_card(text: str) -> None:
    """Section 1: only ranks 2-9 T J Q K A (and 10) with suits S H D C or the symbols are cards."""
    with pytest.raises(InvalidCardError):
        Card.parse(text)


def test_actions_given_with_10_or_symbols_are_written_in_ascii() -> None:
    """Section 1: the notation is used in logs; output is always the two-letter ASCII form."""
    assert str(Action.parse("defend 6s 10♠")) == "defend 6S TS"
    rules = Rules.preset("classic", players=2)
    game = deal(rules, [["TS", "6D", "7C", "8C", "9C", "TC"],
                        ["8S", "AS", "KH", "AH", "7D", "JC"]], "AD")
    game.apply("attack 10♠")
    game.apply("defend 10S A♠")
    assert steps(game)[:2] == [(0, "attack TS", False), (1, "defend TS AS", False)]


def test_deck_may_be_given_with_10_and_symbols() -> None:
    """Section 1: parsers accept `10D` and the symbols, so a deck list may use them."""
    deck = [card.replace("T", "10").replace("S", "♠") for card in full_deck(36)]
    game = Game.from_deck(Rules.preset("classic", players=2), deck)
    assert [str(c) for c in game.deck] == full_deck(36)


def test_52_card_deck_holds_ranks_2_to_ace() -> None:
    """Section 1: option `deck` 52 = 2..A; notation `2 3 4 5` for 52 cards."""
    rules = Rules.preset("classic", players=2).replace(deck=52)
    game = deal(rules, [["2S", "3S", "4S", "5S", "2D", "TC"],
                        ["2H", "3H", "4H", "5H", "6H", "JC"]], "AD")
    assert hand(game, 0) == {"2S", "3S", "4S", "5S", "2D", "TC"}
    assert game.stock_size == 52 - 12
    assert game.to_act == 0  # 2D is the lowest trump
    with pytest.raises(InvalidDealError):
        Game.from_deck(rules, full_deck(36))


def test_24_card_deck_holds_ranks_9_to_ace() -> None:
    """Section 1: option `deck` 24 = 9..A."""
    rules = Rules.preset("classic", players=2).replace(deck=24)
    game = Game.from_deck(rules, full_deck(24))
    assert game.stock_size == 24 - 12
    assert {c.rank.letter for c in game.deck} == set(RANKS_BY_DECK[24])
    with pytest.raises(InvalidDealError, match="6S"):
        Game.from_deck(rules, ["6S", *full_deck(24)[1:]])


def test_36_card_deck_holds_ranks_6_to_ace() -> None:
    """Section 1: deck of 36 cards, ranks 6 7 8 9 10 J Q K A in four suits (default)."""
    rules = Rules.preset("classic", players=2)
    assert rules.deck == 36
    with pytest.raises(InvalidDealError, match="5S"):
        Game.from_deck(rules, ["5S", *full_deck(36)[1:]])
