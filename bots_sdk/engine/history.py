"""The public history of a game: what every seat saw happen, in order.

The engine appends one compact tuple per event, ``(tag, seat, value, flag)``, because
building an object per step would slow random play (the figure search bots live on).
``Event`` is the typed form bots read (``Observation.history``, ``Game.events``); the tuples
stay inside the SDK (the engine, the gRPC conversion, determinization).

>>> from bots_sdk.engine import Action
>>> to_event((ACTED, 1, Action.parse("take"), False))
Event(kind='action', seat=1, action=Action.parse('take'), forced=False, count=0, turn_up=False)
"""

from __future__ import annotations

import dataclasses
from typing import Final, Literal

from bots_sdk.engine.actions import Action

ACTED: Final = 0
"""Tag of an action: ``(ACTED, seat, action, forced)``."""
DREW: Final = 1
"""Tag of a draw: ``(DREW, seat, count, drew_turn_up)``."""

HistoryEntry = tuple[int, int, object, object]
"""The engine's compact entry: ``(ACTED, seat, Action, forced)`` or ``(DREW, seat, count, drew_turn_up)``."""


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """One public event of the game: a seat's action, or how many cards a seat drew."""

    kind: Literal["action", "draw"]
    seat: int
    action: Action | None = None
    forced: bool = False
    """For an action: the engine applied it because it was the only legal one."""
    count: int = 0
    """For a draw: how many cards."""
    turn_up: bool = False
    """For a draw: the last card drawn was the turned-up trump (so everyone knows it)."""


def to_event(entry: HistoryEntry) -> Event:
    """The typed form of one engine entry."""
    tag, seat, value, flag = entry
    if tag == ACTED:
        assert isinstance(value, Action)
        return Event("action", seat, value, bool(flag))
    assert isinstance(value, int)
    return Event("draw", seat, count=value, turn_up=bool(flag))

