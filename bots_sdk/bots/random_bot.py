"""``random``: a uniformly random legal action. The floor every bot must beat."""

from __future__ import annotations

import random

from bots_sdk.bot import Bot
from bots_sdk.engine import Action, Observation


class RandomBot(Bot):
    name = "random"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_action(self, observation: Observation) -> Action:
        return self._rng.choice(observation.legal_actions)
