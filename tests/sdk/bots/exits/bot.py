"""Its process exits (status 3) once, in the middle of its 3rd decision."""

from __future__ import annotations

import os
from pathlib import Path

from bots_sdk import Action, Bot, Observation, serve

MARKER = Path("exits.done")


class ExitsBot(Bot):
    name = "exits"

    def __init__(self) -> None:
        self.decisions = 0

    def choose_action(self, observation: Observation) -> Action:
        self.decisions += 1
        if self.decisions == 3 and not MARKER.exists():
            MARKER.touch()
            os._exit(3)
        return min(observation.legal_actions, key=str)


if __name__ == "__main__":
    serve(ExitsBot())
