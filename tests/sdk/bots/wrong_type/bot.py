"""Returns the action's text (a str, not an Action) once, on its 3rd decision."""

from __future__ import annotations

from pathlib import Path

from bots_sdk import Action, Bot, Observation, serve

MARKER = Path("wrong_type.done")


class WrongTypeBot(Bot):
    name = "wrong_type"

    def __init__(self) -> None:
        self.decisions = 0

    def choose_action(self, observation: Observation) -> Action:
        self.decisions += 1
        best = min(observation.legal_actions, key=str)
        if self.decisions == 3 and not MARKER.exists():
            MARKER.touch()
            return str(best)  # type: ignore[return-value]  # the mistake under test
        return best


if __name__ == "__main__":
    serve(WrongTypeBot())
