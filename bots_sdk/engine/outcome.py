"""The end of a game as data: who is the durak, or why it is a draw."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any


class Reason(enum.StrEnum):
    """Why a game ended; the values are the record's ``result.reason``."""

    NORMAL = "normal"
    """At most one player still held cards (nobody: a draw)."""
    TIMEOUT = "timeout"
    """The offender did not answer in time (a forfeit)."""
    CRASH = "crash"
    """The offender's process died (a forfeit)."""
    ILLEGAL = "illegal"
    """The offender chose an action the rules do not allow (a forfeit)."""
    PROTOCOL = "protocol"
    """The offender broke the bot contract, e.g. sent an action that does not parse (a forfeit)."""
    PICKUP_LIMIT = "pickup_limit"
    """``pickup_draw_limit`` takes in a row with an empty stock and nobody going out: a draw."""
    MAX_BOUTS = "max_bouts"
    """Bout ``max_bouts`` was completed: a draw."""

    @property
    def is_forfeit(self) -> bool:
        return self in _FORFEITS


_FORFEITS = frozenset({Reason.TIMEOUT, Reason.CRASH, Reason.ILLEGAL, Reason.PROTOCOL})


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. ``durak`` is ``None`` exactly when the game is a draw."""

    durak: int | None
    reason: Reason
    out_order: tuple[int, ...] = ()
    """Seats in the order they went out (safe), for statistics."""
    offender: int | None = None
    """For a forfeit: the seat at fault (it is also the durak)."""
    detail: str = ""
    """For a forfeit: what happened, e.g. ``no answer within 1.0 s``."""
    losers: tuple[int, ...] | None = None
    """In a team game: the seats of the team that lost (empty for a draw); ``None`` in individual play.

    ``durak`` is then the first seat of that team still holding cards (or the offender)."""

    @property
    def draw(self) -> bool:
        return self.durak is None

    def to_dict(self) -> dict[str, Any]:
        """The record's ``result`` object, keys in the order of docs/protocol.md section 2."""
        out: dict[str, Any] = {
            "durak": self.durak, "draw": self.draw, "reason": self.reason.value, "out_order": list(self.out_order),
        }
        if self.losers is not None:
            out["losers"] = list(self.losers)
        if self.reason.is_forfeit:
            out["offender"] = self.offender
            out["detail"] = self.detail
        return out
