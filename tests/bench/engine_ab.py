"""Two versions of the engine against each other, in one process, on the same new games.

    git worktree add /tmp/base main
    python tests/bench/engine_ab.py /tmp/base/bots_sdk/engine bots_sdk/engine --players 2

A change worth a few percent hides in this machine's noise when two runs are compared;
alternating chunks of games in one process, each engine on its own continuing stream of
the same seeded games, gives a ratio that holds still. Both copies are imported under
their own package names. A warm-up plays first, and every chunk plays games not played
before: replaying the same games would flatter any cache an engine keeps.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ENGINE = Path(__file__).resolve().parents[2] / "bots_sdk" / "engine"
"""This checkout's engine: both sides by default, so ``--smoke`` runs with no arguments."""


def load(source: Path, name: str, into: Path) -> ModuleType:
    """Import the engine package at ``source`` as ``name.engine``."""
    package = into / name / "engine"
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__"))
    (into / name / "__init__.py").write_text("")
    for module in package.glob("*.py"):
        module.write_text(module.read_text().replace("bots_sdk.engine", f"{name}.engine"))
    return importlib.import_module(f"{name}.engine")


def chunk(engine: ModuleType, preset: str, players: int, games: int, rng: random.Random) -> float:
    rules = engine.Rules.preset(preset, players=players)
    choice = rng.choice
    started = time.perf_counter()
    for _ in range(games):
        game = engine.Game.new(rules, rng)
        while not game.is_over():
            game.push(choice(game.legal_actions()))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", type=Path, nargs="?", default=ENGINE,
                        help="the first engine package directory (the base; default this checkout's)")
    parser.add_argument("b", type=Path, nargs="?", default=ENGINE, help="the second (the change; default the same)")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=200, help="games a chunk")
    parser.add_argument("--warm", type=int, default=5000, help="games each engine plays first")
    parser.add_argument("--rounds", type=int, default=30, help="chunks each engine plays, alternating")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object last")
    args = parser.parse_args()
    if args.smoke:
        args.chunk, args.warm, args.rounds = 20, 20, 2
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        engines = {"a": load(args.a, "engine_a", Path(tmp)), "b": load(args.b, "engine_b", Path(tmp))}
        streams = {name: random.Random(1) for name in engines}
        times: dict[str, list[float]] = {name: [] for name in engines}
        total = args.warm // args.chunk + args.rounds
        for i in range(total):
            for name, engine in engines.items():
                seconds = chunk(engine, args.preset, args.players, args.chunk, streams[name])
                if i >= args.warm // args.chunk:
                    times[name].append(seconds)
            print(f"\r{i + 1}/{total} chunks", end="", file=sys.stderr)
        print(file=sys.stderr)
    ratios = sorted(a / b for a, b in zip(times["a"], times["b"], strict=True))
    played = args.chunk * args.rounds
    print(f"{'engine':>8} {'games/s':>10}")
    for name in engines:
        print(f"{name:>8} {played / sum(times[name]):>10,.0f}")
    ratio = sum(times["a"]) / sum(times["b"])
    print(f"b / a: {ratio:.3f} in all, median chunk {statistics.median(ratios):.3f}, "
          f"quartiles {ratios[len(ratios) // 4]:.3f}-{ratios[3 * len(ratios) // 4]:.3f} "
          f"({args.preset}, {args.players} players, {played} games each)")
    if args.json:
        print(json.dumps({
            **{f"{name}_games_per_s": round(played / sum(times[name]), 1) for name in engines},
            "ratio_b_to_a": round(ratio, 3), "median_chunk_ratio": round(statistics.median(ratios), 3),
        }))


if __name__ == "__main__":
    main()
