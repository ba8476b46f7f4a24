"""Write the golden playthroughs: tests/engine/golden/<preset>-p<N>-s<seed>.json and .trace.jsonl.

Run ``PYTHONPATH=. .venv/bin/python tests/engine/make_golden.py`` from the repository root
after an intended change of engine behaviour; ``tests/engine/test_golden.py`` regenerates
every game in memory and compares it with these files, so any other change shows up as a diff.

Each game is fully determined by its seed, independently of engine internals: the deck is
shuffled by ``random.Random(seed)`` from a fixed list of card texts, and every decision is
``rng.choice`` over the legal actions in plain string order (not the engine's own order).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from bots_sdk.engine import Game, GameRecord, Rules, SeatInfo
from tests.engine.helpers import PLAYER_COUNTS, trace_text

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (1, 2, 3)
RANKS = "6789TJQKA"
SUITS = "SHDC"


TYPICAL = {"table": 5, "pagat": 4}
"""Where the largest table is not the interesting one: ``table`` with 5 still has a stock (and throws in
from the neighbours), ``pagat`` with 6 deals the whole deck (so no trump exchange, like ``classic``)."""


def table_sizes(preset: str) -> list[int]:
    """Two players and the largest (or most typical) table of each preset."""
    counts = PLAYER_COUNTS[preset]
    return sorted({counts[0], TYPICAL.get(preset, counts[-1])})


def golden_names() -> list[tuple[str, int, int]]:
    return [(preset, players, seed) for preset in PLAYER_COUNTS for players in table_sizes(preset) for seed in SEEDS]


def stem(preset: str, players: int, seed: int) -> str:
    return f"{preset}-p{players}-s{seed}"


def play(preset: str, players: int, seed: int) -> tuple[str, str]:
    """The record JSON and the trace text of one golden game."""
    rng = random.Random(seed)
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    rng.shuffle(deck)
    game = Game.from_deck(Rules.preset(preset, players), deck)
    while not game.is_over():
        game.push(rng.choice(game.legal_actions().sorted()))
    seats = [SeatInfo("random", "1") for _ in range(players)]
    record = GameRecord.from_game(game, seats)
    return record.to_json(), trace_text(record)


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    wanted = set()
    for preset, players, seed in golden_names():
        name = stem(preset, players, seed)
        record, trace = play(preset, players, seed)
        (GOLDEN / f"{name}.json").write_text(record, encoding="utf-8")
        (GOLDEN / f"{name}.trace.jsonl").write_text(trace, encoding="utf-8")
        wanted |= {f"{name}.json", f"{name}.trace.jsonl"}
    for path in GOLDEN.iterdir():
        if path.name not in wanted:
            path.unlink()
    print(f"wrote {len(wanted) // 2} golden games to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
