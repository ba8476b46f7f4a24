"""Cards as the pages write them: ``"TS"`` (the engine's and the records' text) as ``"10♠"``."""

from __future__ import annotations

from typing import Final

SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def pretty(card: str) -> str:
    """``"TS"`` as people write it: ``"10♠"``."""
    return ("10" if card[0] == "T" else card[0]) + SYMBOLS.get(card[1], card[1])
