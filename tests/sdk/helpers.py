"""Shared helpers of the SDK tests: comparing observations field by field, a deterministic bot, games."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator

from bots_sdk import Bot
from bots_sdk.engine import Action, Game, Observation, Outcome, Rules

GRPC_TRACE = {"GRPC_TRACE": "tcp", "GRPC_VERBOSITY": "debug"}
"""The environment in which grpc-core logs every socket read and write, naming the file that did it."""


def grpc_endpoints(log: str) -> set[str]:
    """Which socket endpoints a process traced with ``GRPC_TRACE`` used: ``iomgr`` (``tcp_posix.cc``, with the
    experiments of bots_sdk/transport.py off) or ``event_engine`` (``endpoint.cc``, grpc's default); and
    ``unknown experiment`` if grpc-core did not know a name it was given."""
    found = set()
    if re.search(r"\stcp_posix\.cc:\d+\]", log):
        found.add("iomgr")
    if re.search(r"[\s/](?:posix_)?endpoint\.cc:\d+\]", log):
        found.add("event_engine")
    if "Unknown experiment" in log:
        found.add("unknown experiment")
    return found


PLAYER_RANGE: dict[str, tuple[int, int]] = {
    "classic": (2, 6), "transfer": (2, 6), "kawu": (2, 2), "table": (2, 6), "house": (2, 5), "pagat": (2, 6),
}
CONFIGS: list[tuple[str, int]] = [
    (preset, players) for preset, (low, high) in PLAYER_RANGE.items() for players in range(low, high + 1)
]
"""Every preset with every table size it allows."""


def observation_differences(
    first: Observation, second: Observation, ignore: tuple[str, ...] = ()
) -> list[str]:
    """Fields in which two observations differ: every dataclass field but the entries ``_history``, then ``history``."""
    out = []
    for field in dataclasses.fields(Observation):
        if field.name == "_history" or field.name in ignore:
            continue
        a, b = getattr(first, field.name), getattr(second, field.name)
        if a != b or type(a) is not type(b):
            out.append(f"{field.name}: {a!r} != {b!r}")
    if first.history != second.history:
        pairs = [(i, a, b) for i, (a, b) in enumerate(zip(first.history, second.history)) if a != b]
        out.append(f"history: lengths {len(first.history)}/{len(second.history)}, first differences {pairs[:2]}")
    return out


class MinBot(Bot):
    """Deterministic: the least legal action in text order. Keeps everything it is told."""

    name = "minbot"
    version = "7"

    def __init__(self) -> None:
        self.started: list[tuple[int, Rules]] = []
        self.seen: list[Observation] = []
        self.ended: list[tuple[Outcome, Observation]] = []

    def start_game(self, seat: int, rules: Rules) -> None:
        self.started.append((seat, rules))

    def choose_action(self, observation: Observation) -> Action:
        self.seen.append(observation)
        return min(observation.legal_actions, key=str)

    def end_game(self, outcome: Outcome, observation: Observation) -> None:
        self.ended.append((outcome, observation))


def random_positions(rules: Rules, seed: int) -> Iterator[Game]:
    """Every position of one game played by uniformly random moves (the game itself, advanced in place)."""
    game = Game.new(rules, seed)
    rng = random.Random(seed)
    yield game
    while not game.is_over():
        game.push(rng.choice(game.legal_actions()))
        yield game
