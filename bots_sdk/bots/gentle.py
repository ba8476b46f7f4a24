"""``gentle``: a sensible heuristic (placeholder until the full heuristic lands)."""

from __future__ import annotations

import random

from bots_sdk.bot import Bot
from bots_sdk.engine import Action, Observation


class GentleBot(Bot):
    name = "gentle"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_action(self, observation: Observation) -> Action:
        return observation.legal_actions[0]
