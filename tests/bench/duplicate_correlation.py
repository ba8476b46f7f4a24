"""How much duplicate deals narrow the intervals: the correlation rho between a bot's games of one deal.

    .venv/bin/python tests/bench/duplicate_correlation.py [--bots gentle random] [--deals N] [--strong-ms MS] [--json]

Each deal (one shuffled deck) is played in every cyclic seat rotation, as the arena's matches are
(``worker/referee/match.py``), by reference bots in this process (each bot one instance for the whole run,
as a served bot is one process for a match). For each bot, X_r = 1 when it was the durak in rotation r;
rho is the intraclass correlation of X over the sets (``arena/stats/duplicate.py``, the statistics page's
maths), and 1 + (N-1) rho is the number of games duplicate sets need, relative to independent deals, for
an interval of the same width (docs/ratings.md section 5). We print rho with the page's 95 % interval (the union
of the F and the jackknife intervals), the F interval alone, and a percentile bootstrap over sets
(``--bootstrap`` resamples), which checks them.
With ``--json`` the last line of stdout is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.stats.duplicate import SetSums, correlation, correlation_of_sets, pooled
from bots_sdk.bot import Bot
from bots_sdk.bots import REFERENCE_BOTS, StrongBot, make_bot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import PRESETS, Rules
from bots_sdk.local import play_game
from bots_sdk.stats import format_rate


def play(names: list[str], preset: str, deals: int, seed: str, strong_ms: float) -> npt.NDArray[np.int8]:
    """``X[deal, rotation, entry]``: 1 when bot ``names[entry]`` was the durak of that game."""
    n = len(names)
    rules = Rules.preset(preset, players=n)
    bots: list[Bot] = [StrongBot(seed=i, budget_ms=strong_ms) if name == "strong" else make_bot(name, seed=i)
                       for i, name in enumerate(names)]
    x = np.zeros((deals, n, n), dtype=np.int8)
    with Progress(deals * n, f"{' vs '.join(names)}, {preset}") as progress:
        for deal in range(deals):
            for rotation in range(n):
                order = [(s + rotation) % n for s in range(n)]  # seat s holds bot order[s]
                outcome = play_game(rules, [bots[i] for i in order], seed=f"{seed}-{deal}").game.outcome
                assert outcome is not None
                if outcome.reason.is_forfeit:
                    raise RuntimeError(f"deal {deal}: a reference bot forfeited: {outcome}")
                if outcome.durak is not None:
                    x[deal, rotation, order[outcome.durak]] = 1
                progress.advance()
    return x


def sums(set_duraks: npt.NDArray[np.int64], n: int) -> SetSums:
    """The analysis-of-variance sums of one bot's durak counts per set (the SQL's formula, vectorised)."""
    k = int(set_duraks.size)
    d = float(set_duraks.sum())
    ss = float((set_duraks.astype(np.float64) ** 2).sum())
    return SetSums(n, k, 1, ss / n - d * d / (k * n), d - ss / n)


def rho_of(s: npt.NDArray[np.int64], n: int) -> tuple[list[float], float]:
    """Per bot and pooled rho of the per-set durak counts ``s[set, entry]`` (nan where undefined)."""
    per = [sums(s[:, e], n) for e in range(n)]
    values = [c.rho if (c := correlation(p)) is not None else float("nan") for p in per]
    overall = correlation(pooled(n, per), df_scale=1 / n)
    return values, overall.rho if overall is not None else float("nan")


def bootstrap(s: npt.NDArray[np.int64], n: int, resamples: int, seed: int) -> npt.NDArray[np.float64]:
    """rho per bot (columns 0..n-1) and pooled (column n) for ``resamples`` resamples of whole sets."""
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, n + 1))
    for b in range(resamples):
        picked = s[rng.integers(0, s.shape[0], s.shape[0])]
        values, overall = rho_of(picked, n)
        out[b, :n] = values
        out[b, n] = overall
    return out


def summarize(names: list[str], preset: str, x: npt.NDArray[np.int8], resamples: int) -> dict[str, Any]:
    deals, n, _ = x.shape
    s = x.sum(axis=1).astype(np.int64)  # duraks per set and bot
    boot = bootstrap(s, n, resamples, seed=1) if resamples else np.full((1, n + 1), np.nan)
    rows: list[dict[str, Any]] = []
    parts = [sums(s[:, e], n) for e in range(n)]
    for e, label in [*enumerate(names), (n, "all bots")]:
        f_only = correlation(parts[e]) if e < n else correlation(pooled(n, parts), df_scale=1 / n)
        entries = [e] if e < n else list(range(n))
        c = correlation_of_sets(n, np.repeat(entries, deals), np.concatenate([s[:, i] for i in entries]),
                                np.ones(deals * len(entries), dtype=np.int64), dependence=len(entries))
        column = boot[:, e][~np.isnan(boot[:, e])]
        low, high = (np.percentile(column, [2.5, 97.5]) if column.size else (np.nan, np.nan))
        duraks = int(x[:, :, e].sum()) if e < n else int(x.sum())
        rows.append({
            "bot": label, "games": deals * n, "duraks": duraks,
            "rho": c.rho if c else None, "ci95": [c.low, c.high] if c else None,
            "f_ci95": [f_only.low, f_only.high] if f_only else None,
            "bootstrap_ci95": [float(low), float(high)] if column.size else None,
            "factor": c.factor if c else None, "factor_ci95": [c.factor_low, c.factor_high] if c else None,
        })
    draws = int(deals * n - x.sum())
    return {"bots": names, "preset": preset, "players": n, "deals": deals, "games": deals * n, "draws": draws,
            "bootstrap_resamples": resamples, "rows": rows,
            "rho": rows[-1]["rho"], "factor": rows[-1]["factor"]}


def render(summary: dict[str, Any]) -> str:
    n = summary["players"]
    lines = [
        f"{' vs '.join(summary['bots'])}: {summary['deals']} deals x {n} rotations of {summary['preset']}"
        f" = {summary['games']} games ({summary['draws']} draws)",
        f"rho = correlation of a bot's durak results within a deal; games needed with duplicate sets"
        f" / independent deals = 1 + {n - 1} rho",
        "",
        f"{'bot':<10} {'durak rate [95 %]':<26} {'rho':>7} {'95 % (page)':>17} {'F only':>17} {'bootstrap':>17}"
        f" {'factor':>7} {'factor 95 %':>13}",
    ]
    for row in summary["rows"]:
        rate = format_rate(row["duraks"], row["games"]) if row["bot"] != "all bots" else ""
        if row["rho"] is None:
            lines.append(f"{row['bot']:<10} {rate:<26} {'-':>7}")
            continue
        low, high = row["ci95"]
        f_low, f_high = row["f_ci95"]
        boot = row["bootstrap_ci95"]
        page_text = f"{low:+.3f}..{high:+.3f}"
        f_text = f"{f_low:+.3f}..{f_high:+.3f}"
        boot_text = f"{boot[0]:+.3f}..{boot[1]:+.3f}" if boot else "-"
        factor_low, factor_high = row["factor_ci95"]
        factor_text = f"{factor_low:.2f}..{factor_high:.2f}"
        lines.append(
            f"{row['bot']:<10} {rate:<26} {row['rho']:+7.3f} {page_text:>17} {f_text:>17} {boot_text:>17}"
            f" {row['factor']:6.2f}x {factor_text:>13}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--bots", nargs="+", default=["gentle", "random"], choices=sorted(REFERENCE_BOTS),
                        help="reference bots, one per seat (default: gentle random)")
    parser.add_argument("--deals", type=int, default=2000, help="duplicate sets to play (default 2000)")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--seed", default="duplicate-correlation")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (0: none)")
    parser.add_argument("--strong-ms", type=float, default=20.0,
                        help="strong's time per decision in ms (default 20; the arena's strong takes 200)")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON object, last")
    args = parser.parse_args(argv)
    if args.smoke:
        args.deals, args.bootstrap = 4, 20
    if not 2 <= len(args.bots) <= 6:
        parser.error("--bots: a table seats 2 to 6 bots")
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    started = time.perf_counter()
    x = play(args.bots, args.preset, args.deals, args.seed, args.strong_ms)
    summary = summarize(args.bots, args.preset, x, args.bootstrap)
    summary["strong_ms"] = args.strong_ms if "strong" in args.bots else None
    summary["seconds"] = round(time.perf_counter() - started, 1)
    print(render(summary))
    print(f"\n{summary['games']} games in {summary['seconds']} s")
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
