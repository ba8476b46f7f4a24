"""Durak as a PettingZoo AEC environment (docs/rl.md): one agent a seat, acting when the engine says.

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers). ``observe(agent)`` is
``{"observation": float32[SIZE], "action_mask": int8[ACTIONS]}`` in the layout of
``bots_sdk.rl.encoding``; the agent to act finds its full ``Observation`` in
``infos[agent]["observation"]``. Only real decisions reach an agent: forced moves
are the engine's. At the end the durak (in a team game every seat of the losing
team) gets -1, every other seat +1, and a draw 0 for everyone.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from bots_sdk.engine import Game, Observation, Rules
from bots_sdk.rl.encoding import ACTIONS, SIZE, action_mask, index_action, observation_vector

RENDER_MODES = ("ansi", "human")


class DurakEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    metadata: ClassVar[dict[str, Any]] = {"name": "durak_v1", "render_modes": list(RENDER_MODES),
                                          "is_parallelizable": False}

    def __init__(self, preset: str = "classic", players: int = 2, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode: {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        self.rules = Rules.preset(preset, players)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (SIZE,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (ACTIONS,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: gymnasium.spaces.Discrete(ACTIONS) for agent in self.possible_agents}
        self._rng = random.Random()
        self.game = Game.new(self.rules, 0)
        self._views: dict[int, Observation] = {}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal; ``seed`` makes this and the following deals repeatable. ``options={"dealer": s}``
        deals from seat ``s`` (by default the last seat deals)."""
        if seed is not None:
            self._rng.seed(seed)
        game = Game.new(self.rules, self._rng.getrandbits(64))
        dealer = (options or {}).get("dealer")
        self.game = game if dealer is None else Game.from_deck(self.rules, game.deck, int(dealer))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._turn()

    def view(self, seat: int) -> Observation:
        """``seat``'s ``Observation`` now (built once per step)."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = self.game.observation(seat)
        return found

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        view = self.view(self.possible_agents.index(agent))
        return {"observation": observation_vector(view), "action_mask": action_mask(view)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent}: None is an action only for an agent whose game is over")
        chosen = index_action(int(action))
        seat = self.possible_agents.index(agent)
        why = self.game.why_illegal(chosen, seat)
        if why:
            raise ValueError(f"{agent}: {chosen} (action {int(action)}) is illegal: {why}")
        self.game.push(chosen)
        self._cumulative_rewards[agent] = 0.0
        self._turn()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _turn(self) -> None:
        """After a deal or a decision: whose turn it is, or everyone's reward once the game is over."""
        self._views = {}
        outcome = self.game.outcome
        if outcome is None:
            to_act = self.game.to_act
            assert to_act is not None
            self.agent_selection = self.possible_agents[to_act]
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
            self.infos[self.agent_selection] = {"observation": self.view(to_act)}
            return
        losers = set(outcome.losers if outcome.losers is not None else () if outcome.durak is None
                     else (outcome.durak,))
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = 0.0 if outcome.draw else -1.0 if seat in losers else 1.0
            self.terminations[agent] = True
        self.infos = {agent: {"observation": self.view(seat)} for seat, agent in enumerate(self.possible_agents)}

    def render(self) -> str | None:
        """The table as text: the seat to act, its hand and the cards on the table."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        game = self.game
        if game.outcome is not None:
            return f"over: {game.outcome.to_dict()}"
        seat = game.to_act
        assert seat is not None
        table = " ".join(f"{a}/{c}" if c else str(a) for a, c in game.table()) or "empty"
        hand = " ".join(str(c) for c in game.hand(seat))
        return f"bout {game.bout}, trump {game.trump_card}, stock {game.stock_size}; table {table}; " \
               f"seat {seat} to act with {hand}"

    def close(self) -> None:
        """Nothing to release: the game is plain Python."""


def env(preset: str = "classic", players: int = 2, render_mode: str | None = None) -> DurakEnv:
    """The environment for ``players`` seats under ``preset`` (any preset of docs/rules.md section 8)."""
    return DurakEnv(preset, players, render_mode)
