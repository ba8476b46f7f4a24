"""``durak analyze`` on two-player games of ``gentle`` against ``strong``: how long its exact and estimated parts
take, how many decisions the solver covers, and how often each bot makes a mistake by the solver's verdict.

    .venv/bin/python tests/bench/analysis_speed.py [--games N] [--samples S] [--budget-ms B] [--workers W] [--json]

Each game is dealt by seed ``analysis-<i>`` with the bots' seats alternating, played by ``play_game``, then
analysed as ``durak analyze`` does (``bots_sdk.analysis.review.analyze``, ``S`` sampled deals per estimated
decision). Reported: per game, the seconds of the exact part (empty stock: the solver) and of the estimated
part (sampled deals and playouts; a position the solver gave up on counts here), each as a mean, a
median and the slowest game; the share of decisions with an exact
verdict; per bot, mistakes (a result the solver proves thrown away) and inaccuracies (an estimated durak
chance up by more than the threshold) per 100 games, and the durak rate for context.

``strong`` plays on wall-clock time (``--budget-ms``), so its mistakes depend a little on the machine's load.
With ``--json`` the last line of stdout is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bots_sdk.analysis.review import analyze
from bots_sdk.bot import Bot
from bots_sdk.bots.gentle import GentleBot
from bots_sdk.bots.strong import StrongBot
from bots_sdk.engine import Rules
from bots_sdk.local import play_game

RULES = Rules.preset("classic", players=2)
BOTS = ("gentle", "strong")


@dataclass(frozen=True)
class GameFigures:
    exact_s: float
    estimate_s: float
    decisions: int
    exact: int
    mistakes: dict[str, int]
    inaccuracies: dict[str, int]
    durak: str | None


def one_game(index: int, samples: int, budget_ms: float, strong_samples: int | None) -> GameFigures:
    strong_seat = index % 2
    strong = StrongBot(seed=index, budget_ms=budget_ms, samples=strong_samples)
    gentle = GentleBot(seed=index)
    bots: list[Bot] = [strong, gentle] if strong_seat == 0 else [gentle, strong]
    names = ["strong", "gentle"] if strong_seat == 0 else ["gentle", "strong"]
    played = play_game(RULES, bots, seed=f"analysis-{index}")
    outcome = played.game.outcome
    assert outcome is not None
    reviews = list(analyze(played.record(), samples=samples, seed=index))
    mistakes = dict.fromkeys(BOTS, 0)
    inaccuracies = dict.fromkeys(BOTS, 0)
    for review in reviews:
        mistakes[names[review.seat]] += review.mistake
        inaccuracies[names[review.seat]] += bool(review.inaccuracy)
    return GameFigures(
        exact_s=sum(r.seconds for r in reviews if r.mode == "exact"),
        estimate_s=sum(r.seconds for r in reviews if r.mode == "estimate"),
        decisions=len(reviews), exact=sum(r.mode == "exact" for r in reviews),
        mistakes=mistakes, inaccuracies=inaccuracies,
        durak=None if outcome.durak is None else names[outcome.durak],
    )


def summary(games: list[GameFigures], args: argparse.Namespace) -> dict[str, Any]:
    n = len(games)
    decisions = sum(g.decisions for g in games)
    exact = sum(g.exact for g in games)
    return {
        "games": n, "samples": args.samples, "budget_ms": args.budget_ms,
        **{f"{part}_s_{name}": stat(getattr(g, f"{part}_s") for g in games)
           for part in ("exact", "estimate")
           for name, stat in (("mean", statistics.fmean), ("median", statistics.median), ("max", max))},
        "decisions_per_game": decisions / n, "exact_per_game": exact / n,
        "exact_share": exact / decisions if decisions else 0.0,
        "per_100_games": {bot: {"mistakes": 100 * sum(g.mistakes[bot] for g in games) / n,
                                "inaccuracies": 100 * sum(g.inaccuracies[bot] for g in games) / n,
                                "durak_rate": sum(g.durak == bot for g in games) / n} for bot in BOTS},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--samples", type=int, default=32, help="sampled deals per estimated decision")
    parser.add_argument("--budget-ms", type=float, default=100.0, help="strong's time a decision")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="two games, toy sample counts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    strong_samples = None
    if args.smoke:
        args.games, args.samples, strong_samples = 2, 2, 2
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(one_game, range(args.games), [args.samples] * args.games,
                              [args.budget_ms] * args.games, [strong_samples] * args.games))
    figures = summary(games, args)
    print(f"durak analyze on {figures['games']} two-player classic games, gentle against strong "
          f"({args.samples} sampled deals an estimated decision, strong {args.budget_ms:g} ms a move)")
    print(f"{'part':<10}{'mean s/game':>13}{'median':>9}{'max':>9}")
    for part in ("exact", "estimate"):
        print(f"{part:<10}{figures[f'{part}_s_mean']:>13.2f}{figures[f'{part}_s_median']:>9.2f}"
              f"{figures[f'{part}_s_max']:>9.2f}")
    print(f"decisions per game {figures['decisions_per_game']:.1f}, exact verdicts {figures['exact_per_game']:.1f} "
          f"({100 * figures['exact_share']:.0f} %)")
    print(f"{'per 100 games':<14}{'mistakes':>10}{'inaccuracies':>14}{'durak rate':>12}")
    for bot in BOTS:
        row = figures["per_100_games"][bot]
        print(f"{bot:<14}{row['mistakes']:>10.1f}{row['inaccuracies']:>14.1f}{row['durak_rate']:>12.2f}")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
