"""Re-executing a record: the trace of every decision and the verdict of ``durak replay``.

The verdict follows docs/protocol.md section 3: the record replays and matches
(``ok``), meets an illegal action (``illegal``), or ends differently from what
it stores (``mismatch``). A malformed record raises ``RecordError`` instead.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from bots_sdk.engine.errors import RecordError
from bots_sdk.engine.game import Game
from bots_sdk.engine.record import GameRecord


@dataclasses.dataclass(frozen=True, slots=True)
class TraceStep:
    """One decision, forced ones included; ``legal`` is in plain string order."""

    step: int
    seat: int
    legal: list[str]
    action: str
    forced: bool

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "seat": self.seat, "legal": self.legal, "action": self.action,
                "forced": self.forced}


@dataclasses.dataclass(frozen=True, slots=True)
class Replay:
    """What re-executing a record gave."""

    status: Literal["ok", "illegal", "mismatch"]
    steps: list[TraceStep]
    game: Game
    stored: dict[str, Any]
    replayed: dict[str, Any] | None = None
    """The result the replay arrived at (``None`` after an illegal action)."""
    illegal: dict[str, Any] | None = None
    """For ``illegal``: ``{"step", "action", "reason"}``."""

    def final_line(self) -> dict[str, Any]:
        """The last line of ``durak replay``: the result, or the error."""
        if self.status == "ok":
            return {"result": self.stored}
        if self.status == "illegal":
            return {"error": "illegal", **(self.illegal or {})}
        return {"error": "mismatch", "stored": self.stored, "replayed": self.replayed}


def replay(record: GameRecord) -> Replay:
    """Re-execute ``record`` action by action, collecting the trace."""
    game = Game.from_deck(record.rules, record.deck, record.dealer)
    steps: list[TraceStep] = []
    seen = 0

    def add_forced() -> None:
        nonlocal seen
        for event in game.events(seen):
            if event.action is not None:
                text = str(event.action)
                steps.append(TraceStep(len(steps), event.seat, [text], text, True))
        seen = game.event_count

    stored = record.result.to_dict()
    add_forced()
    for recorded in record.actions:
        action = recorded.action
        legal = game.legal_actions()
        if game.is_over() or recorded.seat != game.to_act or action not in legal:
            reason = game.why_illegal(action, recorded.seat)
            illegal = {"step": len(steps), "action": recorded.text or str(action), "reason": reason}
            return Replay("illegal", steps, game, stored, illegal=illegal)
        steps.append(TraceStep(len(steps), recorded.seat, legal.texts(), str(action), False))
        game.push(action)
        seen += 1
        add_forced()
    result = record.result
    if game.outcome is not None:
        replayed = game.outcome.to_dict()
        return Replay("ok" if replayed == stored else "mismatch", steps, game, stored, replayed)
    if not result.reason.is_forfeit:
        raise RecordError(
            f"actions: the record stops before the game ends (seat {game.to_act} is to act at step"
            f" {len(steps)}) and its result is not a forfeit"
        )
    offender = game.to_act
    assert offender is not None
    replayed = game.clone().forfeit(offender, result.reason, result.detail).to_dict()
    return Replay("ok" if replayed == stored else "mismatch", steps, game, stored, replayed)
