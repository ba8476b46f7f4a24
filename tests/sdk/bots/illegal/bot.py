"""Attacks with a card it does not hold: well-formed, never legal (it defends legally, so that is its fault)."""

from __future__ import annotations

from bots_sdk import Action, Bot, Observation, serve
from bots_sdk.engine.cards import deck_cards


class IllegalBot(Bot):
    name = "illegal"

    def choose_action(self, observation: Observation) -> Action:
        if observation.seat == observation.defender:
            return observation.legal_actions[0]
        foreign = next(card for card in deck_cards(observation.rules.deck) if card not in observation.hand)
        return Action.attack(foreign)


if __name__ == "__main__":
    serve(IllegalBot())
