"""One seat as a Gymnasium environment: the other seats are played by bots (docs/rl.md).

The opponents are reference bots (``random``, ``gentle``, ``strong``) or bot folders, as ``durak play``
takes them: a Python bot runs in this process, any other (``language = "command"``) as its own process
over gRPC. Each episode is one game; the learner's seat is drawn anew (repeatably after a seeded reset)
unless ``reset(options={"seat": s})`` fixes it. The reward is the AEC environment's: +1 for not being
the durak, -1 for the durak, 0 for a draw, given at the last step.
"""

from __future__ import annotations

import contextlib
import random
import zlib
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from bots_sdk.bot import Bot
from bots_sdk.botdir import load_bot, load_spec
from bots_sdk.rl.aec import DurakEnv
from bots_sdk.rl.encoding import ACTIONS, action_index

Observed = dict[str, npt.NDArray[Any]]


class OpponentError(RuntimeError):
    """An opponent bot failed (raised, or chose an action that is not legal): the episode cannot go on."""


class SingleAgentEnv(gymnasium.Env[Observed, np.int64]):
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  (Gymnasium declares it so)

    def __init__(self, opponents: Sequence[str] = ("gentle",), preset: str = "classic",
                 players: int | None = None, render_mode: str | None = None) -> None:
        if not opponents:
            raise ValueError("opponents: give at least one bot (a reference name or a bot folder)")
        self.aec = DurakEnv(preset, players or len(opponents) + 1, render_mode)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space("player_0")
        self.action_space = gymnasium.spaces.Discrete(ACTIONS)
        self._stack = contextlib.ExitStack()
        self._bots = [self._load(argument, index) for index, argument in enumerate(opponents)]
        self._rng = random.Random()
        self.seat = 0
        self.opponents: dict[int, Bot] = {}

    def _load(self, argument: str, index: int) -> Bot:
        spec = load_spec(argument)
        if spec.in_process:
            return load_bot(spec, seed=zlib.crc32(f"opponent/{index}".encode()))
        from bots_sdk.process import BotProcess  # needs grpcio, as durak play --grpc does

        process = self._stack.enter_context(BotProcess(spec))
        process.wait_serving()
        process.bot.hello()
        return process.bot

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observed, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        players = self.aec.rules.players
        seat = (options or {}).get("seat")
        self.seat = self._rng.randrange(players) if seat is None else int(seat)
        self.aec.reset(seed=self._rng.getrandbits(32))
        others = [s for s in range(players) if s != self.seat]
        self.opponents = {s: self._bots[i % len(self._bots)] for i, s in enumerate(others)}
        for s, bot in self.opponents.items():
            bot.start_game(s, self.aec.rules)
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action: int | np.int64) -> tuple[Observed, float, bool, bool, dict[str, Any]]:
        if self.aec.game.outcome is not None:
            raise RuntimeError("the game is over: call reset()")
        self.aec.step(int(action))
        self._play_opponents()
        over = self.aec.game.outcome is not None
        reward = self.aec.rewards[self.aec.possible_agents[self.seat]] if over else 0.0
        return self._observe(), float(reward), over, False, self._info()

    def _play_opponents(self) -> None:
        game = self.aec.game
        while game.outcome is None and game.to_act != self.seat:
            seat = game.to_act
            assert seat is not None
            bot = self.opponents[seat]
            try:
                action = bot.choose_action(self.aec.view(seat))
                self.aec.step(action_index(action))
            except Exception as error:
                raise OpponentError(f"opponent {bot.name} in seat {seat}: {type(error).__name__}: {error}") from error
        if game.outcome is not None:
            for seat, bot in self.opponents.items():
                with contextlib.suppress(Exception):  # the result stands whatever a bot does with it
                    bot.end_game(game.outcome, self.aec.view(seat))

    def _observe(self) -> Observed:
        return self.aec.observe(self.aec.possible_agents[self.seat])

    def _info(self) -> dict[str, Any]:
        return {"observation": self.aec.view(self.seat), "seat": self.seat}

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self._stack.close()


def single_agent(opponents: Sequence[str] = ("gentle",), preset: str = "classic", players: int | None = None,
                 render_mode: str | None = None) -> SingleAgentEnv:
    """One seat against ``opponents`` (cycled over the other seats); ``players`` defaults to one more than them."""
    return SingleAgentEnv(opponents, preset, players, render_mode)
