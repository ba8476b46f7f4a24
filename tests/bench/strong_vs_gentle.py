"""``strong`` against ``gentle`` in two-player ``classic``, as duplicate pairs.

    .venv/bin/python tests/bench/strong_vs_gentle.py [--pairs N] [--budget-ms B] [--workers W] [--json]

Each pair deals one shuffled deck twice (``play_game`` with the same seed deals the same cards) with
the seats swapped, so the luck of the deal cancels within a pair and what is left is the difference
between the bots. We report each bot's durak rate with its 95 % Wilson interval, the draws, and the
pairs strong won (it scored more than gentle over the two games: a game gives the safe side 1 point,
a draw 1/2 each), lost, or split.

``strong`` decides on wall-clock time, so results depend a little on the machine and its load; with
``--workers`` above the number of idle cores the bots get less search than their budget says.
With ``--json`` the last line of stdout is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bots_sdk.bot import Bot
from bots_sdk.bots.gentle import GentleBot
from bots_sdk.bots.strong import StrongBot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import Rules
from bots_sdk.local import play_game
from bots_sdk.stats import format_rate, wilson_interval

RULES = Rules.preset("classic", players=2)


@dataclass(frozen=True)
class PairResult:
    """One deck played twice; per game, who was the durak (``strong``, ``gentle`` or ``draw``)."""

    index: int
    results: tuple[str, str]
    strong_ms_max: float
    """The longest decision strong took in the pair (a budget check, not a strength figure)."""


def play_pair(index: int, budget_ms: float) -> PairResult:
    """Play pair ``index``: strong in seat 0 then in seat 1, on the deck of seed ``strong-vs-gentle-<index>``."""
    results: list[str] = []
    longest = 0.0
    for strong_seat in (0, 1):
        strong = StrongBot(seed=index, budget_ms=budget_ms)
        gentle = GentleBot(seed=index)
        bots: list[Bot] = [strong, gentle] if strong_seat == 0 else [gentle, strong]
        played = play_game(RULES, bots, seed=f"strong-vs-gentle-{index}")
        outcome = played.game.outcome
        assert outcome is not None
        if outcome.reason.is_forfeit:
            raise RuntimeError(f"pair {index}: a bot forfeited: {outcome}")
        if outcome.durak is None:
            results.append("draw")
        else:
            results.append("strong" if outcome.durak == strong_seat else "gentle")
        for (seat, _), ms in zip(played.game.decisions(), played.ms):
            if seat == strong_seat:
                longest = max(longest, ms)
    return PairResult(index, (results[0], results[1]), longest)


def _play_pair_args(args: tuple[int, float]) -> PairResult:
    return play_pair(*args)


def summarise(pairs: list[PairResult], budget_ms: float, seconds: float) -> dict[str, Any]:
    games = 2 * len(pairs)
    flat = [r for pair in pairs for r in pair.results]
    strong_durak = flat.count("strong")
    gentle_durak = flat.count("gentle")
    draws = flat.count("draw")
    won = lost = split = 0
    for pair in pairs:
        # Points for strong over the two games: 1 when gentle is the durak, 1/2 for a draw.
        points = sum(1.0 if r == "gentle" else 0.5 if r == "draw" else 0.0 for r in pair.results)
        if points > 1.0:
            won += 1
        elif points < 1.0:
            lost += 1
        else:
            split += 1
    strong_low, strong_high = wilson_interval(strong_durak, games)
    gentle_low, gentle_high = wilson_interval(gentle_durak, games)
    decided = won + lost
    return {
        "rules": "classic-2",
        "pairs": len(pairs),
        "games": games,
        "budget_ms": budget_ms,
        "strong_durak": strong_durak,
        "strong_durak_rate": strong_durak / games if games else 0.0,
        "strong_durak_ci95": [strong_low, strong_high],
        "gentle_durak": gentle_durak,
        "gentle_durak_rate": gentle_durak / games if games else 0.0,
        "gentle_durak_ci95": [gentle_low, gentle_high],
        "draws": draws,
        "pairs_won": won,
        "pairs_lost": lost,
        "pairs_split": split,
        "pairs_won_of_decided_ci95": list(wilson_interval(won, decided)),
        "strong_ms_max": round(max((p.strong_ms_max for p in pairs), default=0.0), 1),
        "seconds": round(seconds, 1),
    }


def print_table(summary: dict[str, Any]) -> None:
    games = summary["games"]
    rows = [
        ("strong durak rate", format_rate(summary["strong_durak"], games)),
        ("gentle durak rate", format_rate(summary["gentle_durak"], games)),
        ("draws", f"{summary['draws']} of {games}"),
        ("pairs won / lost / split", f"{summary['pairs_won']} / {summary['pairs_lost']} / {summary['pairs_split']}"),
        ("pairs won of decided", format_rate(summary["pairs_won"], summary["pairs_won"] + summary["pairs_lost"])),
        ("strong's longest decision", f"{summary['strong_ms_max']:.1f} ms (budget {summary['budget_ms']:g} ms)"),
    ]
    print(f"strong vs gentle, classic 2 players, {summary['pairs']} duplicate pairs ({games} games), "
          f"{summary['seconds']:.0f} s")
    for label, value in rows:
        print(f"  {label:<26} {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs to play (2 games each)")
    parser.add_argument("--budget-ms", type=float, default=100.0, help="strong's time budget per decision")
    parser.add_argument("--workers", type=int, default=1, help="processes playing pairs in parallel")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args(argv)
    if args.smoke:
        args.pairs, args.workers, args.budget_ms = 1, 1, 5.0
    started = time.perf_counter()
    results: list[PairResult] = []
    with Progress(args.pairs, "pairs") as progress:
        jobs = [(i, args.budget_ms) for i in range(args.pairs)]
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                for result in pool.map(_play_pair_args, jobs):
                    results.append(result)
                    progress.advance(note=_note(results))
        else:
            for job in jobs:
                results.append(_play_pair_args(job))
                progress.advance(note=_note(results))
    summary = summarise(results, args.budget_ms, time.perf_counter() - started)
    print_table(summary)
    if args.json:
        print(json.dumps(summary))
    return 0


def _note(results: list[PairResult]) -> str:
    flat = [r for pair in results for r in pair.results]
    return f"strong durak {flat.count('strong')}, gentle durak {flat.count('gentle')}"


if __name__ == "__main__":
    sys.exit(main())
