"""Raises in choose_action once, on its 3rd decision."""

from __future__ import annotations

from pathlib import Path

from bots_sdk import Action, Bot, Observation, serve

MARKER = Path("crash.done")


class CrashBot(Bot):
    name = "crash"

    def __init__(self) -> None:
        self.decisions = 0

    def choose_action(self, observation: Observation) -> Action:
        self.decisions += 1
        if self.decisions == 3 and not MARKER.exists():
            MARKER.touch()
            raise RuntimeError("deliberate crash in choose_action")
        return min(observation.legal_actions, key=str)


if __name__ == "__main__":
    serve(CrashBot())
