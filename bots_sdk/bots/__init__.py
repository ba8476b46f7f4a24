"""Reference bots, found by name: ``make_bot("gentle")``.

They need only the engine, so they play in-process in ``durak selfplay`` and
``durak play`` and serve as the built-in opponents of ``durak check``. Each is
imported when it is first asked for (``make_bot``, or its class by name): a bot
process imports only its own, and ``strong``'s compiled search is a start's cost.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bots_sdk.bot import Bot

if TYPE_CHECKING:
    from bots_sdk.bots.gentle import GentleBot
    from bots_sdk.bots.random_bot import RandomBot
    from bots_sdk.bots.strong import StrongBot

REFERENCE_BOTS: dict[str, tuple[str, str]] = {
    "random": ("bots_sdk.bots.random_bot", "RandomBot"),
    "gentle": ("bots_sdk.bots.gentle", "GentleBot"),
    "strong": ("bots_sdk.bots.strong", "StrongBot"),
}
"""Each reference bot's module and class, by name."""
CLASSES = {cls: module for module, cls in REFERENCE_BOTS.values()}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A fresh reference bot; ``seed`` makes a randomised bot repeatable."""
    where = REFERENCE_BOTS.get(name)
    if where is None:
        raise ValueError(f"{name!r} is not a reference bot (known: {', '.join(sorted(REFERENCE_BOTS))})")
    bot: Bot = getattr(importlib.import_module(where[0]), where[1])(seed)
    return bot


def __getattr__(name: str) -> Any:
    if name in CLASSES:
        return getattr(importlib.import_module(CLASSES[name]), name)
    raise AttributeError(f"module 'bots_sdk.bots' has no attribute {name!r}")


__all__ = ["REFERENCE_BOTS", "GentleBot", "RandomBot", "StrongBot", "make_bot"]
