"""How much the seat layout favours a team, compared with how much a seat favours a lone player.

    .venv/bin/python tests/bench/team_seats.py [--games N] [--jobs J] [--json]

Gentle plays itself through the engine only (``bots_sdk.match.play_match``; under a team preset one
bot a team, playing every seat of it) under ``pagat-pairs`` at 4 and 6 players, ``pagat-trios`` at 6
and, for comparison, individual ``pagat`` at 4 and 6 (the same rules without partnerships). For each
we count how often the side of the first attacker lost, and the side of the first defender (the next
seat, always an opponent in these layouts), against the fair share 1 / sides. A side is a team, or a
lone player; a team loses when the engine's ``Outcome.losers`` holds its seats. Draws count as not
lost, and every rate carries its 95 % Wilson interval. The statistics page shows the same figures
from the arena's stored games; this benchmark gives the note figures that do not wait for a ladder.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from bots_sdk.bot import Bot
from bots_sdk.bots import GentleBot
from bots_sdk.engine import Game, Rules
from bots_sdk.local import PlayedGame
from bots_sdk.match import play_match
from bots_sdk.stats import wilson_interval

TABLES = (("pagat-pairs", 4), ("pagat-pairs", 6), ("pagat-trios", 6), ("pagat", 4), ("pagat", 6))
"""Each team layout, and individual play at the same table sizes under the same rules."""


@dataclass
class Tally:
    """One table's counts: games, draws, and the games the first attacker's / first defender's side lost."""

    preset: str
    players: int
    sides: int
    games: int = 0
    draws: int = 0
    attacker_lost: int = 0
    defender_lost: int = 0
    seconds: float = 0.0


def play(preset: str, players: int, games: int) -> Tally:
    """``games`` games of gentle against itself at one table, seeded by the table, so runs repeat."""
    rules = Rules.preset(preset, players=players)
    teams = rules.teams
    tally = Tally(preset, players, rules.sides)
    seed = f"team-seats-{preset}-{players}"
    bots: list[Bot | list[Bot]]
    if teams is None:
        bots = [GentleBot(seed=s) for s in range(players)]
    else:
        bots = [[GentleBot(seed=s) for s in team] for team in teams]

    def count(g: int, played: PlayedGame) -> None:
        outcome = played.game.outcome
        assert outcome is not None and not outcome.reason.is_forfeit, outcome
        # The deal again, as play_match dealt it: its first bout's attacker and defender.
        start = Game.new(rules, f"{seed}-{g}")
        first, defender = start.attacker, start.defender
        losers = outcome.losers if outcome.losers is not None else (
            () if outcome.durak is None else (outcome.durak,))
        tally.games += 1
        tally.draws += outcome.durak is None
        tally.attacker_lost += first in losers
        tally.defender_lost += defender in losers

    started = time.perf_counter()
    play_match(rules, bots, games, seed=seed, on_game=count)
    tally.seconds = round(time.perf_counter() - started, 1)
    return tally


def rate(hits: int, trials: int) -> dict[str, Any]:
    low, high = wilson_interval(hits, trials)
    return {"rate": hits / trials if trials else None, "ci95": [low, high], "lost": hits, "games": trials}


def summarize(tallies: list[Tally]) -> dict[str, Any]:
    """Per table: both sides' loss rates with intervals, the fair share and the gap to it."""
    rows = []
    for t in tallies:
        fair = 1 / t.sides
        attacker, defender = rate(t.attacker_lost, t.games), rate(t.defender_lost, t.games)
        rows.append({**asdict(t), "fair": fair, "attacker": attacker, "defender": defender,
                     "attacker_gap": attacker["rate"] - fair, "defender_gap": defender["rate"] - fair})
    return {"tables": rows}


def cell(r: dict[str, Any]) -> str:
    low, high = r["ci95"]
    return f"{100 * r['rate']:5.1f} % [{100 * low:4.1f}-{100 * high:4.1f}]"


def render(summary: dict[str, Any]) -> str:
    lines = [
        "gentle self-play, pagat rules: loss rate of the first attacker's side and of the first defender's side",
        "(side = team or lone player; rate [95 % Wilson interval]; gap = rate - fair share, percentage points)",
        "",
        f"{'table':<18} {'sides':>5} {'games':>6} {'fair':>6}  {'first attacker side':<24} {'gap':>6}"
        f"  {'first defender side':<24} {'gap':>6} {'draws':>6}",
    ]
    for r in summary["tables"]:
        lines.append(
            f"{r['preset'] + ' ' + str(r['players']):<18} {r['sides']:>5} {r['games']:>6} {100 * r['fair']:5.1f}%"
            f"  {cell(r['attacker']):<24} {100 * r['attacker_gap']:+6.1f}"
            f"  {cell(r['defender']):<24} {100 * r['defender_gap']:+6.1f} {r['draws']:>6}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3000, help="games per table (default 3000)")
    parser.add_argument("--jobs", type=int, default=2, help="tables played at once (processes, default 2)")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON object, last")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.jobs = 5, 1
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be positive")
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        tallies = list(pool.map(play, *zip(*TABLES), [args.games] * len(TABLES)))
    summary = summarize(tallies)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    print(render(summary))
    print(f"\n{sum(t.games for t in tallies)} games in {summary['seconds']} s")
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
