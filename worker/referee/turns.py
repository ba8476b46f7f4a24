"""Only the seat on move runs: every other bot of the game is frozen while it is not being asked.

A bot that kept running between its turns could think on its opponents' time
and, on a busy worker, take their CPU until they time out. So the referee talks
to each launched bot through ``OnMove``: thaw once a call's request is written
(a decision, or the start and end of a game: ``RemoteBot.on_sent``), freeze as
soon as the answer is in, whatever the answer (a fault included: a bot that
timed out stays frozen until it is killed). A bot is frozen from its first
``OnMove`` on, and ``rest`` freezes a freshly started one until its first game.

The request goes to the frozen bot, and the thaw after it: thawing first woke the
bot's thread only to sleep again until the request came, a second wake-up and two
context switches per decision on the game's core.

Clocks stay wall-clock: the thaw and the freeze are a few microseconds each
(worker/sandbox/cgroups.py); the thaw is inside the bot's time, the freeze outside.

Each game also puts every process of its bots on the core the referee plays on
(worker/referee/cores.py), wherever they were started: a decision's request and
answer then wake the other side on the same core.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bots_sdk.bot import Bot
from bots_sdk.engine import Action, Observation, Outcome, Rules
from worker.referee.cores import game_core
from worker.referee.launch import LaunchedBot, Pausable, Placeable

T = TypeVar("T")


def rest(launched: LaunchedBot) -> None:
    """Freeze ``launched`` if its launcher can (a started bot waits for its game frozen)."""
    if isinstance(launched, Pausable):
        launched.freeze()


class OnMove(Bot):
    """``launched``'s bot for one game, on the referee's core, thawed for each call and frozen again after it
    (unpausable bots are just called)."""

    def __init__(self, launched: LaunchedBot) -> None:
        self.bot = launched.bot
        self.name = self.bot.name  # type: ignore[misc]
        self.version = self.bot.version  # type: ignore[misc]
        core = game_core()
        if core is not None and isinstance(launched, Placeable):
            launched.run_on({core})
        self._pause = launched if isinstance(launched, Pausable) else None
        if self._pause is not None:
            self._pause.freeze()
        self.bot.on_sent = self._pause.thaw if self._pause is not None else None

    def _asked(self, call: Callable[..., T], *args: object) -> T:
        if self._pause is None:
            return call(*args)
        try:
            return call(*args)  # thawed by the bot's ``on_sent``
        finally:
            self._pause.freeze()

    def start_game(self, seat: int, rules: Rules) -> None:
        self._asked(self.bot.start_game, seat, rules)

    def choose_action(self, observation: Observation) -> Action:
        return self._asked(self.bot.choose_action, observation)

    def end_game(self, outcome: Outcome, observation: Observation) -> None:
        self._asked(self.bot.end_game, outcome, observation)
