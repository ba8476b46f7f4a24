"""Reference bots, found by name: ``make_bot("gentle")``.

They need only the engine, so they play in-process in ``durak selfplay`` and
``durak play`` and serve as the built-in opponents of ``durak check``.
"""

from __future__ import annotations

from collections.abc import Callable

from bots_sdk.bot import Bot
from bots_sdk.bots.gentle import GentleBot
from bots_sdk.bots.random_bot import RandomBot
from bots_sdk.bots.strong import StrongBot

REFERENCE_BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "gentle": GentleBot,
    "strong": StrongBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A fresh reference bot; ``seed`` makes a randomised bot repeatable."""
    factory = REFERENCE_BOTS.get(name)
    if factory is None:
        raise ValueError(f"{name!r} is not a reference bot (known: {', '.join(sorted(REFERENCE_BOTS))})")
    return factory(seed)


__all__ = ["REFERENCE_BOTS", "GentleBot", "RandomBot", "StrongBot", "make_bot"]
