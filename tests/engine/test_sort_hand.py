"""``sort_hand``: the one order in which the replay viewer and the tables show a hand, as a player holds it."""

from __future__ import annotations

import itertools

import pytest

from bots_sdk.engine import Card, Suit, sort_hand
from bots_sdk.engine.cards import deck_cards, is_red


@pytest.mark.parametrize("trump", list(Suit))
def test_suits_in_groups_colours_alternate_each_suit_rises_and_the_trumps_come_last(trump: Suit) -> None:
    held = sort_hand(reversed(deck_cards(36)), trump)
    suits = list(dict.fromkeys(card.suit for card in held))
    assert len(suits) == 4 and suits[-1] == trump  # each suit one group, the trumps last
    assert all(is_red(a) != is_red(b) for a, b in itertools.pairwise(suits))  # red and black alternate
    for suit in suits:
        ranks = [card.rank for card in held if card.suit == suit]
        assert ranks == sorted(ranks)
    assert held[-1] == Card.parse("A" + trump.letter)  # the highest card is the last


def test_a_hand_of_a_game() -> None:
    hand = [Card.parse(text) for text in ("KD", "6C", "AS", "7H", "9C", "6D")]
    assert " ".join(map(str, sort_hand(hand, Suit.CLUBS))) == "7H AS 6D KD 6C 9C"
