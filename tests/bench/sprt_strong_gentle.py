"""The SPRT decides strong vs gentle and reports how many games it needed.

    .venv/bin/python tests/bench/sprt_strong_gentle.py [--elo0 0] [--elo1 30] [--alpha 0.05] [--beta 0.05]
        [--max-pairs 2000] [--workers 2] [--budget-ms 200] [--json]

The arena's strength test, in-process: ``strong`` is B (the candidate) and ``gentle`` is A. Each pair deals
one shuffled deck twice (``play_game`` with the same seed deals the same cards) with the seats swapped; B
scores 1 per game when A is the durak, 1/2 for a draw, 0 when it is the durak, so a pair lands in one of
the five pentanomial bins. After every pair, in pair order, the counts go to the same statistics the site
uses (``arena.sprt.statistics.figures``, i.e. ``arena.ratings.sprt.sprt``) until it accepts H0 or H1 or
the cap is reached. Pairs are played ``--workers`` at a time in separate processes; a few pairs past the
decision may be in flight and are not counted.

``strong`` decides on wall-clock time (``--budget-ms`` per decision), so the figures depend a little on
the machine and its load. With ``--json`` the last line of stdout is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from arena.ratings.sprt import ELO_LIMIT
from arena.sprt.statistics import Figures, figures
from bots_sdk.bot import Bot
from bots_sdk.bots import StrongBot, make_bot
from bots_sdk.engine import Rules
from bots_sdk.local import play_game

RULES = Rules.preset("classic", players=2)
BINS = ("0", "1/4", "1/2", "3/4", "1")


def play_pair(index: int, budget_ms: float) -> int:
    """Pair ``index``: strong in seat 0, then in seat 1, on the deck of ``sprt-strong-gentle-<index>``.

    Returns strong's points over the two games in half-points (2 when gentle is the durak, 1 for a draw),
    which is the pair's pentanomial bin.
    """
    points = 0
    for strong_seat in (0, 1):
        strong: Bot = StrongBot(seed=index, budget_ms=budget_ms)
        gentle = make_bot("gentle", seed=index)
        bots = [strong, gentle] if strong_seat == 0 else [gentle, strong]
        outcome = play_game(RULES, bots, seed=f"sprt-strong-gentle-{index}").game.outcome
        assert outcome is not None
        if outcome.reason.is_forfeit:
            raise RuntimeError(f"pair {index}: a bot forfeited: {outcome}")
        points += 1 if outcome.durak is None else 0 if outcome.durak == strong_seat else 2
    return points


def progress(pairs: int, update: Figures, counts: list[int], started: float, final: bool = False) -> None:
    """The progress line on stderr: redrawn on a terminal, every 10th pair (and the last) in a log.

    Not ``bots_sdk.cli.progress.Progress``: that one measures against a known total, and an SPRT stops
    whenever the evidence suffices, usually far below its cap.
    """
    line = (f"pairs {pairs}: LLR {update.llr:+.3f} in [{update.lower:.3f}, {update.upper:.3f}], "
            f"bins {counts}, {time.perf_counter() - started:.0f} s")
    if sys.stderr.isatty():
        sys.stderr.write("\r" + line + "\x1b[K" + ("\n" if final else ""))
    elif final or pairs % 10 == 0:
        sys.stderr.write(line + "\n")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> dict[str, Any]:
    counts = [0, 0, 0, 0, 0]
    update: Figures | None = None
    started = time.perf_counter()
    window = max(1, 2 * args.workers)
    with ProcessPoolExecutor(args.workers) as pool:
        pending: deque[Future[int]] = deque()
        submitted = 0
        while submitted < min(window, args.max_pairs):
            pending.append(pool.submit(play_pair, submitted, args.budget_ms))
            submitted += 1
        while pending:
            counts[pending.popleft().result()] += 1
            update = figures(counts, args.elo0, args.elo1, args.alpha, args.beta)
            done = update.decision is not None or sum(counts) >= args.max_pairs
            progress(sum(counts), update, counts, started, final=done)
            if done:
                for future in pending:
                    future.cancel()
                break
            if submitted < args.max_pairs:
                pending.append(pool.submit(play_pair, submitted, args.budget_ms))
                submitted += 1
    seconds = time.perf_counter() - started
    assert update is not None
    pairs = sum(counts)
    return {
        "decision": update.decision,
        "pairs": pairs,
        "games": 2 * pairs,
        "llr": round(update.llr, 4),
        "lower": round(update.lower, 4),
        "upper": round(update.upper, 4),
        "elo": round(update.elo, 1),
        "elo_ci": [round(update.elo_low, 1), round(update.elo_high, 1)],
        "los": round(update.los, 6),
        "estimate": update.estimate,
        "pentanomial": counts,
        "elo0": args.elo0,
        "elo1": args.elo1,
        "alpha": args.alpha,
        "beta": args.beta,
        "budget_ms": args.budget_ms,
        "workers": args.workers,
        "seconds": round(seconds, 1),
    }


def elo_text(elo: float) -> str:
    """The estimate's search stops at ±1000 Elo (``arena.ratings.sprt.ELO_LIMIT``): there it means "beyond"."""
    if abs(elo) >= ELO_LIMIT:
        return f"{'≥ +' if elo > 0 else '≤ -'}{ELO_LIMIT:.0f}"
    return f"{elo:+.1f}"


def print_table(summary: dict[str, Any]) -> None:
    decision = {"H1": "H1 accepted: strong is stronger than gentle",
                "H0": "H0 accepted: strong is not stronger than gentle",
                None: "no decision (cap reached)"}[summary["decision"]]
    low, high = summary["elo_ci"]
    rows = [
        ("decision", decision),
        ("bounds", f"H0 {summary['elo0']:g} Elo, H1 {summary['elo1']:g} Elo, "
                   f"alpha {summary['alpha']:g}, beta {summary['beta']:g}"),
        ("pairs / games", f"{summary['pairs']} / {summary['games']}"),
        ("pairs by strong's score", ", ".join(f"{b}: {n}" for b, n in zip(BINS, summary["pentanomial"]))),
        ("LLR", f"{summary['llr']:+.3f} (bounds {summary['lower']:.3f}, {summary['upper']:.3f})"),
        ("Elo strong - gentle", f"{elo_text(summary['elo'])} (95 % {elo_text(low)} to {elo_text(high)}, "
                                f"{summary['estimate']} estimate)"),
        ("LOS", f"{summary['los']:.4%}"),
        ("time", f"{summary['seconds']:.0f} s with {summary['workers']} workers, "
                 f"strong's budget {summary['budget_ms']:g} ms"),
    ]
    print("SPRT strong vs gentle, classic 2 players, duplicate pairs")
    for label, value in rows:
        print(f"  {label:<24} {value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--elo0", type=float, default=0.0, help="H0: strong is this many Elo stronger")
    parser.add_argument("--elo1", type=float, default=30.0, help="H1: strong is this many Elo stronger")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-pairs", type=int, default=2000, help="stop undecided after this many pairs")
    parser.add_argument("--workers", type=int, default=2, help="processes playing pairs in parallel")
    parser.add_argument("--budget-ms", type=float, default=200.0, help="strong's time budget per decision")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args(argv)
    if args.smoke:
        args.max_pairs, args.workers, args.budget_ms = 2, 1, 5.0
    if not args.elo0 < args.elo1:
        parser.error("--elo0 must be below --elo1")
    summary = run(args)
    print_table(summary)
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
