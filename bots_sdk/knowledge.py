"""``Knowledge``: what is public in an observation, worked out so authors need not.

Every card is in one of these places: your hand, the table, the discard pile
(gone for good), the turned-up card at the bottom of the stock, a hand where
everyone saw it go (picked up from the table, or the drawn turn-up), or unseen:
in some opponent's hand or in the stock, equally likely anywhere.

>>> from bots_sdk.engine import Game, Rules, Card
>>> game = Game.new(Rules.preset("classic", players=2), seed=5)
>>> know = Knowledge(game.observation(0))
>>> len(know.unseen), know.hidden_in_hand(1), round(know.probability(1, know.unseen[0]), 3)
(29, 6, 0.207)
"""

from __future__ import annotations

from bots_sdk.engine import Card, Observation
from bots_sdk.engine.cards import cards_to_mask, deck_mask, mask_to_cards


class Knowledge:
    """The public state of one observation, as card lists and probabilities."""

    def __init__(self, observation: Observation) -> None:
        obs = observation
        self.seat = obs.seat
        self.trump = obs.trump
        self.hand_sizes = obs.hand_sizes
        self.mine: tuple[Card, ...] = obs.hand
        self.gone: tuple[Card, ...] = obs.discard
        """Cards in the discard pile: out of the game."""
        self.on_table: tuple[Card, ...] = tuple(
            card for pair in obs.table for card in (pair.attack, pair.cover) if card is not None
        )
        self.known: tuple[tuple[Card, ...], ...] = tuple(
            () if seat == obs.seat else cards for seat, cards in enumerate(obs.known_cards)
        )
        """Per seat: cards everyone knows that seat holds (empty for your own seat: see ``mine``)."""
        self.turn_up: Card | None = obs.trump_card if obs.stock_size else None
        """The turned-up card while it is still at the bottom of the stock."""
        seen = cards_to_mask(self.mine) | cards_to_mask(self.gone) | cards_to_mask(self.on_table)
        for cards in self.known:
            seen |= cards_to_mask(cards)
        if self.turn_up is not None:
            seen |= self.turn_up.mask
        self._unseen_mask = deck_mask(obs.rules.deck) & ~seen
        self.unseen: tuple[Card, ...] = tuple(mask_to_cards(self._unseen_mask))
        """Cards in opponents' hands (not publicly known) or in the stock, order unknown."""

    def hidden_in_hand(self, seat: int) -> int:
        """How many of ``seat``'s cards nobody but that player has seen."""
        if seat == self.seat:
            return 0
        return self.hand_sizes[seat] - len(self.known[seat])

    def probability(self, seat: int, card: Card) -> float:
        """The chance that ``seat`` holds ``card``, given only public information (uniform over unseen)."""
        if seat == self.seat:
            return 1.0 if card in self.mine else 0.0
        if card in self.known[seat]:
            return 1.0
        if not self._unseen_mask & card.mask or not self.unseen:
            return 0.0
        return self.hidden_in_hand(seat) / len(self.unseen)

    def unseen_trumps(self) -> tuple[Card, ...]:
        return tuple(card for card in self.unseen if card.suit == self.trump)
