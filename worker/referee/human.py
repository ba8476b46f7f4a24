"""A seat played by a person: a ``Bot`` whose move comes from outside, under a generous clock.

The referee drives every seat through one interface (``Bot.choose_action``), so a
person at a table is seated exactly like a bot: the same observation, the same
legal actions, the same fault handling. ``HumanSeat`` waits for the person's move
through an injected callable (the arena reads it from its database, a test from a
list), so this module knows nothing of Django. The clock is the referee's (a
per-move limit plus a per-game bank, as ``RemoteBot`` has) in minutes rather than
seconds; a person who walks away forfeits by timeout, with a detail saying so.

>>> from bots_sdk.engine import Game, Rules
>>> game = Game.new(Rules.preset("classic", players=2), seed=3)
>>> first = str(game.legal_actions()[0])
>>> seat = HumanSeat(lambda decision: first, name="ann")
>>> str(seat.choose_action(game.observation(game.to_act))) == first
True
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from bots_sdk.bot import Bot
from bots_sdk.engine import Action, DurakError, Observation, Reason, Rules
from bots_sdk.faults import BotFault

Answer = Callable[[int], "str | None"]
"""``answer(decision)``: the move the person submitted for decision number ``decision`` of the game, or None yet.

Decisions are numbered from 0 over all seats, as they stand in the game record's ``actions``."""

OnTurn = Callable[[int, float], None]
"""``on_turn(decision, seconds)``: the person is to act now and has ``seconds`` for it (for the page's clock)."""


@dataclasses.dataclass(frozen=True)
class HumanClock:
    """A person's clock: minutes where a bot gets seconds, since people read the table before they play."""

    move_s: float = 120.0
    """Per decision, before the bank is touched."""
    bank_s: float = 300.0
    """Per game: time beyond the per-move limits, in all."""
    poll_s: float = 0.15
    """How often the answer is looked for while the person thinks."""


def decision_number(observation: Observation) -> int:
    """How many decisions (moves not forced by the engine) the game has had before this one.

    >>> from bots_sdk.engine import Game, Rules
    >>> game = Game.new(Rules.preset("classic", players=2), seed=3)
    >>> decision_number(game.observation(0))
    0
    """
    return sum(1 for event in observation.history if event.kind == "action" and not event.forced)


class HumanSeat(Bot):
    """A person's seat: ``choose_action`` waits for ``answer`` to give a legal move, or forfeits on time."""

    def __init__(
        self, answer: Answer, *, name: str = "human", clock: HumanClock | None = None,
        on_turn: OnTurn | None = None, sleep: Callable[[float], None] = time.sleep,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name  # type: ignore[misc]  # a person's name, where a bot class has its own
        self.version = "human"  # type: ignore[misc]
        self.clock = clock or HumanClock()
        self.bank_left = self.clock.bank_s
        self._answer = answer
        self._on_turn = on_turn
        self._sleep = sleep
        self._now = now

    def start_game(self, seat: int, rules: Rules) -> None:
        self.bank_left = self.clock.bank_s

    def choose_action(self, observation: Observation) -> Action:
        """The person's move for this decision; a move that is not legal now (a stale click) is ignored."""
        decision = decision_number(observation)
        limit = self.clock.move_s + self.bank_left
        started = self._now()
        if self._on_turn is not None:
            self._on_turn(decision, limit)
        while True:
            action = _legal(self._answer(decision), observation)
            waited = self._now() - started
            if action is not None:
                self.bank_left = max(0.0, self.bank_left - max(0.0, waited - self.clock.move_s))
                return action
            if waited >= limit:
                break
            self._sleep(min(self.clock.poll_s, limit - waited))
        self.bank_left = 0.0
        raise BotFault(Reason.TIMEOUT, f"{self.name} made no move within {limit:.0f} s (left the table?)")


def _legal(text: str | None, observation: Observation) -> Action | None:
    if not text:
        return None
    try:
        action = Action.parse(text)
    except DurakError:
        return None
    return action if action in observation.legal_actions else None
