"""Reinforcement learning on Durak (docs/rl.md): a PettingZoo environment and a Gymnasium one-seat wrapper.

    import bots_sdk.rl
    env = bots_sdk.rl.env(preset="classic", players=2)          # PettingZoo AEC, every seat an agent
    one = bots_sdk.rl.single_agent(opponents=["gentle"])        # Gymnasium, the other seats played by bots

Install the optional dependencies with ``pip install 'durak-arena[rl]'``. ``bots_sdk.rl.encoding`` (the
observation vector and the action integers) needs numpy only, so a bot that plays a trained policy
imports it without PettingZoo or Gymnasium; ``env`` and ``single_agent`` are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bots_sdk.rl.aec import env
    from bots_sdk.rl.single import single_agent

__all__ = ["env", "single_agent"]


def __getattr__(name: str) -> Any:
    if name == "env":
        from bots_sdk.rl.aec import env

        return env
    if name == "single_agent":
        from bots_sdk.rl.single import single_agent

        return single_agent
    raise AttributeError(f"module 'bots_sdk.rl' has no attribute {name!r}")
