"""The canonical Durak rules engine: pure Python, no dependencies, compiled where a C compiler is (setup.py).

>>> from bots_sdk.engine import Game, Rules
>>> game = Game.new(Rules.preset("classic", players=3), seed=7)
>>> game.to_act in range(3)
True
"""

from typing import TYPE_CHECKING, Any

# First: under DURAK_PURE_PYTHON=1 this makes the submodules below load from source, not compiled.
import bots_sdk.native  # noqa: F401
from bots_sdk.engine.actions import Action, ActionKind
from bots_sdk.engine.cards import Card, CardSet, Rank, Suit, sort_hand, suit_order
from bots_sdk.engine.determinize import determinize
from bots_sdk.engine.errors import (
    DurakError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDealError,
    InvalidRulesError,
    RecordError,
)
from bots_sdk.engine.game import Game
from bots_sdk.engine.history import Event
from bots_sdk.engine.legal import LegalActions
from bots_sdk.engine.observation import Observation, TablePair
from bots_sdk.engine.outcome import Outcome, Reason
from bots_sdk.engine.rules import PLAYER_COUNTS, PRESETS, TEAM_PRESETS, Rules
from bots_sdk.engine.watch import Watcher

if TYPE_CHECKING:
    from bots_sdk.engine.record import GameRecord, RecordedAction, SeatInfo

RECORDS = ("GameRecord", "RecordedAction", "SeatInfo")

__all__ = [
    "PLAYER_COUNTS", "PRESETS", "TEAM_PRESETS", "Action", "ActionKind", "Card", "CardSet", "DurakError", "Event",
    "Game", "GameRecord",
    "IllegalActionError", "InvalidActionError", "InvalidCardError", "InvalidDealError", "InvalidRulesError",
    "LegalActions", "Observation", "Outcome", "Rank", "Reason", "RecordError", "RecordedAction", "Rules",
    "SeatInfo", "Suit", "TablePair", "Watcher", "determinize", "sort_hand", "suit_order",
]


def __getattr__(name: str) -> Any:
    """Records load at their first use: a served bot never writes one, and their imports (json, pathlib) were
    a tenth of a Python bot's start (docs/sandbox.md section 3)."""
    if name in RECORDS:
        from bots_sdk.engine import record

        return getattr(record, name)
    raise AttributeError(f"module 'bots_sdk.engine' has no attribute {name!r}")
