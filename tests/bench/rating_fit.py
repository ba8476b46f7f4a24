"""Rating fit speed and accuracy: games simulated from known ratings, fitted by ``arena.ratings.maths.fit``.

    python tests/bench/rating_fit.py                                # 100,000 games, 200 bots
    python tests/bench/rating_fit.py --games 1000000 --bots 500 --json

Tables of 2 to 6 distinct bots (sizes equally likely) are drawn at random, and
the durak of each from the loser-choice model at the bots' true ratings (normal
around 1500, SD ``--spread``). The run times ``GameSet.from_tables`` from
Python lists (the shape the services hand over) and ``fit`` with the default
prior, and reports the fit's iterations, the RMSE of the mean-centred ratings
against the mean-centred truth, the mean SE, and the share of bots whose truth
lies in their 95 % interval (about 0.95 if the SEs are honest). Target
(docs/ratings.md section 3, periodic refits): 100,000 games over a few hundred bots in
at most 5 s on one machine.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
import numpy.typing as npt

from arena.ratings.maths import GameSet, fit

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def distinct_tables(rng: np.random.Generator, count: int, size: int, bots: int) -> IntArray:
    """``count`` tables of ``size`` distinct bots: draw with replacement, redraw the rows that repeat a bot."""
    tables = rng.integers(0, bots, (count, size))
    while True:
        ordered = np.sort(tables, axis=1)
        bad = np.flatnonzero(np.any(ordered[:, 1:] == ordered[:, :-1], axis=1))
        if not bad.size:
            return tables
        tables[bad] = rng.integers(0, bots, (bad.size, size))


def simulate(games: int, bots: int, spread: float, seed: int) -> tuple[FloatArray, list[list[int]], list[int]]:
    rng = np.random.default_rng(seed)
    truth = rng.normal(1500.0, spread, bots)
    sizes = rng.integers(2, min(6, bots) + 1, games)
    tables: list[list[int]] = [[] for _ in range(games)]
    duraks: list[int] = [0] * games
    for size in np.unique(sizes):
        rows = np.flatnonzero(sizes == size)
        block = distinct_tables(rng, rows.size, int(size), bots)
        # Gumbel-max: argmax of log-weight + Gumbel noise draws the durak with the model's probabilities
        noise = rng.gumbel(size=block.shape)
        losers = np.argmax(-truth[block] * math.log(10) / 400 + noise, axis=1)
        for row, table, loser in zip(rows.tolist(), block.tolist(), losers.tolist()):
            tables[row] = table
            duraks[row] = loser
    return truth, tables, duraks


def measure(games: int, bots: int, spread: float, seed: int) -> dict[str, float]:
    truth, tables, duraks = simulate(games, bots, spread, seed)
    started = time.perf_counter()
    game_set = GameSet.from_tables(tables, duraks, bots)
    build = time.perf_counter() - started
    started = time.perf_counter()
    result = fit(game_set)
    elapsed = time.perf_counter() - started
    error = (result.ratings - result.ratings.mean()) - (truth - truth.mean())
    covered = np.abs(error) <= 1.96 * result.se
    return {
        "games": games,
        "bots": bots,
        "build_s": round(build, 3),
        "fit_s": round(elapsed, 3),
        "iterations": result.iterations,
        "rmse_vs_truth": round(float(np.sqrt(np.mean(error**2))), 2),
        "mean_se": round(float(result.se.mean()), 2),
        "coverage_95": round(float(covered.mean()), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="rated games to simulate")
    parser.add_argument("--bots", type=int, default=200, help="bots in the pool")
    parser.add_argument("--spread", type=float, default=200.0, help="SD of the true ratings around 1500")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object last")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.bots = 2000, 20
    print(f"simulating {args.games:,} games among {args.bots} bots ...", file=sys.stderr)
    row = measure(args.games, args.bots, args.spread, args.seed)
    header = list(row)
    print(" ".join(f"{h:>14}" for h in header))
    print(" ".join(f"{row[h]:>14}" for h in header))
    if args.json:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
