"""``Knowledge`` on real positions: the places partition the deck, probabilities add up, pick-ups are known."""

from __future__ import annotations

import random

import pytest

from bots_sdk import Knowledge
from bots_sdk.engine import Card, Game, Rules
from bots_sdk.engine.cards import deck_cards

from .helpers import CONFIGS, random_positions


def places(know: Knowledge) -> list[Card]:
    cards = [*know.unseen, *know.mine, *know.gone, *know.on_table]
    for known in know.known:
        cards.extend(known)
    if know.turn_up is not None:
        cards.append(know.turn_up)
    return cards


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_the_places_partition_the_deck_and_probabilities_add_up(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    deck = deck_cards(rules.deck)
    for game in random_positions(rules, players * 7):
        for seat in range(players):
            observation = game.observation(seat)
            know = Knowledge(observation)
            cards = places(know)
            assert sorted(cards) == sorted(deck), (len(game.steps()), seat)  # each card in exactly one place
            hidden = {other: know.hidden_in_hand(other) for other in range(players) if other != seat}
            assert all(count >= 0 for count in hidden.values())
            in_stock_unseen = observation.stock_size - (1 if know.turn_up is not None else 0)
            assert len(know.unseen) == sum(hidden.values()) + in_stock_unseen
            for other, count in hidden.items():
                total = sum(know.probability(other, card) for card in know.unseen)
                assert total == pytest.approx(count)
                for card in know.known[other]:
                    assert know.probability(other, card) == 1.0
                for card in (*know.mine, *know.gone, *know.on_table):
                    assert know.probability(other, card) == 0.0
            assert know.hidden_in_hand(seat) == 0
            assert all(know.probability(seat, card) == 1.0 for card in know.mine)
            assert all(know.probability(seat, card) == 0.0 for card in know.unseen)
            assert know.unseen_trumps() == tuple(c for c in know.unseen if c.suit == observation.trump)


def test_a_picked_up_card_is_known_until_it_is_played() -> None:
    """A card the defender picks up is certain (probability 1) for everyone else until it leaves that hand."""
    followed = played = 0
    for seed in range(12):
        game = Game.new(Rules.preset("classic", players=3), seed)
        rng = random.Random(seed)
        picked: dict[Card, int] = {}  # card -> the seat that picked it up, while still in that hand
        while not game.is_over():
            before = {card for pair in game.table() for card in pair if card is not None}
            defender = game.defender
            game.push(rng.choice(game.legal_actions()))
            after = {card for pair in game.table() for card in pair if card is not None}
            for card in before - after:
                if card in game.hand(defender):
                    picked[card] = defender
            for card, holder in list(picked.items()):
                if card not in game.hand(holder):  # played (or gone with the hand): no longer certain
                    del picked[card]
                    played += 1
                    for seat in range(game.players):
                        if seat != holder:
                            assert Knowledge(game.observation(seat)).probability(holder, card) < 1.0
            for card, holder in picked.items():
                for seat in range(game.players):
                    if seat != holder:
                        know = Knowledge(game.observation(seat))
                        assert card in know.known[holder]
                        assert card not in know.unseen
                        assert know.probability(holder, card) == 1.0
                        assert all(know.probability(other, card) == 0.0
                                   for other in range(game.players) if other not in (holder, seat))
                followed += 1
    assert followed > 100 and played > 10


def test_the_drawn_turn_up_is_known() -> None:
    for seed in range(20):
        for game in random_positions(Rules.preset("classic", players=2), seed):
            holder = game.trump_drawn_by
            if holder is None or game.trump_card not in game.hand(holder):
                continue
            know = Knowledge(game.observation(1 - holder))
            assert know.turn_up is None
            assert know.probability(holder, game.trump_card) == 1.0
            return
    pytest.fail("no game drew the turn-up")
