"""docs/rules.md section 2: deal and trump.

The first tests deal from a raw deck list (not ``deals.deck_order``), so they also
pin down the convention the helper relies on.
"""

from __future__ import annotations

import random

import pytest

from bots_sdk.engine import Card, Game, InvalidDealError, InvalidRulesError, Rules, Suit
from bots_sdk.engine.cards import deck_cards
from tests.engine.deals import deck_order, full_deck, hand, legal, play, sixteen_game


def test_deck_zero_goes_to_the_dealers_left_one_card_at_a_time_clockwise() -> None:
    """Section 2: dealt one at a time, clockwise, from the dealer's left: `deck[0]` to the dealer's left."""
    deck = full_deck(36)  # 6S 7S ... AS 6H ... AH 6D ... AD 6C ... AC
    game = Game.from_deck(Rules.preset("classic", players=3), deck)
    assert game.dealer == 2
    assert hand(game, 0) == {deck[i] for i in (0, 3, 6, 9, 12, 15)}
    assert hand(game, 1) == {deck[i] for i in (1, 4, 7, 10, 13, 16)}
    assert hand(game, 2) == {deck[i] for i in (2, 5, 8, 11, 14, 17)}


def test_dealing_starts_left_of_a_dealer_other_than_the_last_seat() -> None:
    """Section 2: "unless the match says otherwise": with dealer 1 of 4, `deck[0]` goes to seat 2."""
    deck = full_deck(36)
    game = Game.from_deck(Rules.preset("classic", players=4), deck, dealer=1)
    assert game.dealer == 1
    assert hand(game, 2) == {deck[i] for i in (0, 4, 8, 12, 16, 20)}
    assert hand(game, 3) == {deck[i] for i in (1, 5, 9, 13, 17, 21)}
    assert hand(game, 0) == {deck[i] for i in (2, 6, 10, 14, 18, 22)}
    assert hand(game, 1) == {deck[i] for i in (3, 7, 11, 15, 19, 23)}


def test_default_dealer_is_the_last_seat() -> None:
    """Section 2: "The dealer is seat `N-1` unless the match says otherwise"."""
    for players in range(2, 7):
        assert Game.from_deck(Rules.preset("classic", players=players), full_deck(36)).dealer == players - 1


def test_card_after_the_deal_is_turned_up_and_its_suit_is_trump() -> None:
    """Section 2: "The next card, `deck[N*hand_size]`, is turned up; its suit is trump"."""
    deck = full_deck(36)
    game = Game.from_deck(Rules.preset("classic", players=3), deck)
    assert str(game.trump_card) == deck[18] == "6D"
    assert game.trump is Suit.DIAMONDS
    assert all("6D" not in hand(game, seat) for seat in range(3))
    assert game.stock_size == 36 - 18
    assert str(game.observation(1).trump_card) == "6D"


def test_helper_deck_order_matches_the_spec_deal() -> None:
    """Section 2 as used by every other rules test: the helper deals each seat the hand asked for."""
    hands = [["6S", "7S", "8S", "9S", "TS", "JS"], ["6H", "7H", "8H", "9H", "TH", "JH"],
             ["6C", "7C", "8C", "9C", "TC", "JC"]]
    order = deck_order(hands, "QD", ["KD", "AD"], dealer=0)
    assert order[:4] == ["6H", "6C", "6S", "7H"]  # dealer 0: seat 1 first, then 2, then 0
    assert order[18:21] == ["QD", "KD", "AD"]
    game = Game.from_deck(Rules.preset("classic", players=3), order, dealer=0)
    assert [hand(game, seat) for seat in range(3)] == [set(h) for h in hands]


def test_turned_up_card_goes_to_the_bottom_and_the_stock_is_drawn_from_the_top() -> None:
    """Section 2: "the stock is drawn in the order `deck[N*hand_size+1]`, ..., the last card of the deck,
    and then the turned-up card"."""
    game = sixteen_game()
    # deck[32] = KD is turned up; deck[33:36] = AH, KH, AD.
    assert [str(c) for c in game.deck[32:]] == ["KD", "AH", "KH", "AD"]
    drawn = []
    for rank in "6789":
        # Seat 1 (lowest trump 6D) leads a club; seat 0 holds no club or trump and must take; seat 1 may
        # throw in the diamond of the same rank, and passes.
        before = hand(game, 1)
        play(game, (1, f"attack {rank}C"))
        assert legal(game) == [f"attack {rank}D", "pass"]
        play(game, (1, "pass"))
        (new,) = hand(game, 1) - before
        drawn.append(new)
    assert drawn == ["AH", "KH", "AD", "KD"]
    assert game.stock_size == 0
    assert game.trump_drawn_by == 1


def test_whole_deck_deal_keeps_the_trump_card_in_the_dealers_hand_and_the_stock_empty() -> None:
    """Section 2: with 6 x 6 = 36 "the last card dealt (the dealer's) is shown as the trump card and stays
    in the dealer's hand; the stock is empty from the start"."""
    deck = full_deck(36)
    game = Game.from_deck(Rules.preset("classic", players=6), deck)
    assert str(game.trump_card) == deck[35] == "AC"
    assert game.trump is Suit.CLUBS
    assert "AC" in hand(game, 5)
    assert all(len(game.hand(seat)) == 6 for seat in range(6))
    assert game.stock_size == 0
    assert game.trump_drawn_by == 5
    assert str(game.observation(0).trump_card) == "AC"


def test_whole_deck_deal_trump_card_stays_with_a_non_default_dealer() -> None:
    """Section 2: the last card dealt is the dealer's, whoever deals (here seat 2 of 6)."""
    deck = full_deck(36)
    game = Game.from_deck(Rules.preset("classic", players=6), deck, dealer=2)
    assert str(game.trump_card) == "AC"
    assert "AC" in hand(game, 2)
    assert game.stock_size == 0


def test_whole_deck_deal_with_24_cards_and_4_players() -> None:
    """Section 2: any deal using the whole deck (4 x 6 = 24) keeps the trump card in the dealer's hand."""
    rules = Rules.preset("classic", players=4).replace(deck=24)
    game = Game.from_deck(rules, full_deck(24))
    assert str(game.trump_card) == "AC"
    assert "AC" in hand(game, 3)
    assert game.stock_size == 0


@pytest.mark.parametrize(("players", "changes"), [
    (6, {"hand_size": 7}),
    (5, {"deck": 24}),
    (2, {"hand_size": 19}),
    (4, {"deck": 52, "hand_size": 14}),
])
def test_deal_needing_more_cards_than_the_deck_holds_is_rejected(players: int, changes: dict[str, int]) -> None:
    """Section 2: "A configuration whose deal needs more cards than the deck holds is rejected with a clear
    error"."""
    with pytest.raises(InvalidRulesError, match=r"hand_size: .* need \d+ cards"):
        Rules.preset("classic", players=players).replace(**changes)


def test_deal_of_exactly_the_deck_is_accepted() -> None:
    """Section 2: 6 x 6 = 36 and 2 x 18 = 36 use the whole deck, which is allowed."""
    assert Rules.preset("classic", players=2).replace(hand_size=18).deal_size == 36
    game = Game.from_deck(Rules.preset("classic", players=2).replace(hand_size=18), full_deck(36))
    assert game.stock_size == 0


def test_deck_order_that_is_not_the_configured_deck_is_rejected() -> None:
    """Section 2: the shuffled deck is an ordered list of the deck's cards (a wrong list is an error)."""
    rules = Rules.preset("classic", players=2)
    deck = full_deck(36)
    with pytest.raises(InvalidDealError, match="twice"):
        Game.from_deck(rules, [*deck[:-1], deck[0]])
    with pytest.raises(InvalidDealError, match="35 cards"):
        Game.from_deck(rules, deck[:-1])
    with pytest.raises(InvalidDealError, match="dealer"):
        Game.from_deck(rules, deck, dealer=2)


def test_replaying_the_same_deck_order_gives_the_same_deal() -> None:
    """Section 2: "Replays store this order, so a replay never depends on a random generator"."""
    game = Game.new(Rules.preset("classic", players=4), seed=11)
    again = Game.from_deck(Rules.preset("classic", players=4), list(game.deck))
    assert [hand(again, s) for s in range(4)] == [hand(game, s) for s in range(4)]
    assert again.trump_card is game.trump_card
    assert isinstance(game.deck[0], Card)


class _OwnRandom(random.Random):
    """A generator of the caller's own: the engine must use its ``shuffle``, whatever it does."""

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        x.reverse()


@pytest.mark.parametrize("deck", [36, 52, 24])
def test_a_seed_deals_the_order_random_shuffle_gives_it(deck: int) -> None:
    """``Game.new(rules, seed)`` is documented as ``random.Random(seed)``'s shuffle of the deck (the engine
    writes the shuffle out for speed; seeds in records and golden games must keep their deals)."""
    rules = Rules.preset("classic", players=2).replace(deck=deck, hand_size=6 if deck != 24 else 3)
    for seed in [*range(40), "a seed", 2**70]:
        order = deck_cards(deck)
        random.Random(seed).shuffle(order)
        assert Game.new(rules, seed).deck == tuple(order), seed
        rng, same = random.Random(seed), random.Random(seed)
        same.shuffle(order := deck_cards(deck))
        assert Game.new(rules, rng).deck == tuple(order)
        assert rng.random() == same.random(), "the generator was not left where its shuffle leaves it"
    assert Game.new(rules, _OwnRandom()).deck == tuple(reversed(deck_cards(deck)))
