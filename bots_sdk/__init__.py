"""Durak Arena SDK: everything a bot needs, from one import.

    from bots_sdk import Bot, Action, serve

``Bot`` is the base class (implement ``choose_action(observation)``), ``Action``
parses action text (``Action.parse("attack 6S")``), ``serve(bot)`` runs a bot as
the gRPC service of the arena's contract. The rules engine is ``bots_sdk.engine``
(pure Python); ``serve`` is imported on first use, so the engine and local play
work even where grpcio is not installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# First, in this order: what the imports below name but a bot does not use runs at its first use instead
# (deferred_imports.py); and before anything of ours imports grpc, grpc-core's settings, which it reads once,
# on import (transport.py).
from bots_sdk import deferred_imports, transport  # noqa: F401
from bots_sdk.bot import Bot
from bots_sdk.engine import Action, Card, Game, Observation, Rules, determinize
from bots_sdk.knowledge import Knowledge

if TYPE_CHECKING:
    from bots_sdk.server import serve

__version__ = "0.1.0"
__all__ = ["Action", "Bot", "Card", "Game", "Knowledge", "Observation", "Rules", "determinize", "serve"]


def __getattr__(name: str) -> Any:
    if name == "serve":
        from bots_sdk.server import serve

        return serve
    raise AttributeError(f"module 'bots_sdk' has no attribute {name!r}")
