"""The base class every bot implements: one method, ``choose_action``.

A bot sees only its ``Observation`` (which carries the legal actions) and
returns one of them. The same class runs in-process in local play and behind
the gRPC service in the arena, so what works locally works there.

>>> from bots_sdk.engine import Game, Rules
>>> class FirstBot(Bot):
...     name = "first"
...     def choose_action(self, observation):
...         return observation.legal_actions[0]
>>> game = Game.new(Rules.preset("classic", players=2), seed=3)
>>> game.legal_actions()[0] == FirstBot().choose_action(game.observation(game.to_act))
True
"""

from __future__ import annotations

from typing import ClassVar

from bots_sdk.engine import Action, Observation, Outcome, Rules


class Bot:
    """Subclass it and implement ``choose_action``; the hooks are optional."""

    name: ClassVar[str] = "bot"
    """Shown in logs, records and on the site."""
    version: ClassVar[str] = "1"

    def start_game(self, seat: int, rules: Rules) -> None:
        """Called before each game with this bot's seat and the rules in force."""

    def choose_action(self, observation: Observation) -> Action:
        """Return one of ``observation.legal_actions``."""
        raise NotImplementedError(f"{type(self).__name__} must implement choose_action(observation)")

    def end_game(self, outcome: Outcome, observation: Observation) -> None:
        """Called after each game with its outcome and this seat's final view."""
