"""Overruns the clock once: on its 3rd decision it sleeps past the move limit and the whole bank."""

from __future__ import annotations

import time
from pathlib import Path

from bots_sdk import Action, Bot, Observation, serve

MARKER = Path("slow.done")


class SlowBot(Bot):
    name = "slow"

    def __init__(self) -> None:
        self.decisions = 0

    def choose_action(self, observation: Observation) -> Action:
        self.decisions += 1
        if self.decisions == 3 and not MARKER.exists():
            MARKER.touch()
            # time_left is the move limit plus the bank: sleeping past it is a timeout.
            time.sleep((observation.time_left or 1.0) + 0.5)
        return min(observation.legal_actions, key=str)


if __name__ == "__main__":
    serve(SlowBot())
