"""Reproduce the statistics table of seed 000 (docs/rules.md section 10) with ``gentle`` playing itself.

    .venv/bin/python tests/bench/seed_stats.py [--games-scale F] [--json]

The source (klyo) played 6900 games of ``classic`` between its own "gentle" computer players:
3000 with 2 players, 2300 with 3 and 1600 with 4. We play the same numbers (times ``--games-scale``)
with our ``gentle`` in every seat and print our figures beside the source's, each rate with its 95 %
Wilson interval and a z score for the gap (the source's own sampling error included, its sample size
estimated from the deal), so a reader can tell a real gap from noise.

Definitions: a seat's starting hand is the ``hand_size`` cards dealt to it (before any play); "durak
rate with no trump" is the share of seat-games whose starting hand held no trump and that seat ended
as the durak (draws count as not durak), likewise for exactly three trumps. The opener is the seat
that attacks first, which under ``lowest_trump`` is the holder of the lowest trump.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from arena.stats.source import GAMES, SOURCE, SOURCE_OPENER_2P, hand_share
from bots_sdk.bots import GentleBot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import ActionKind, Game, Rules
from bots_sdk.local import play_game
from bots_sdk.stats import wilson_interval

Z95 = 1.959963984540054


def gap_z(ours: float, n_ours: int, theirs: float, n_theirs: float) -> float:
    """z score of the difference of two proportions, each with its own binomial error."""
    var = ours * (1 - ours) / max(n_ours, 1) + theirs * (1 - theirs) / max(n_theirs, 1.0)
    return (ours - theirs) / math.sqrt(var) if var > 0 else 0.0


@dataclass
class Tally:
    """Counts for one player count."""

    players: int
    games: int = 0
    draws: int = 0
    draw_reasons: dict[str, int] = field(default_factory=dict)
    bouts: list[int] = field(default_factory=list)
    attack_cards: list[int] = field(default_factory=list)
    takes: list[int] = field(default_factory=list)
    by_trumps: dict[int, list[int]] = field(default_factory=dict)
    """Starting trumps -> [seat-games, of which durak]."""
    opener_games: int = 0
    opener_durak: int = 0

    def rate(self, trumps: int) -> tuple[int, int]:
        seats, durak = self.by_trumps.get(trumps, [0, 0])
        return durak, seats


def play(players: int, games: int) -> Tally:
    """Play ``games`` games of gentle against itself and count what the table needs."""
    rules = Rules.preset("classic", players=players)
    tally = Tally(players)
    with Progress(games, f"{players} players") as progress:
        for i in range(games):
            seed = f"seed-stats-{players}-{i}"
            dealt = Game.new(rules, seed)
            opener = dealt.attacker
            trumps = [sum(1 for c in dealt.hand(s) if c.suit == dealt.trump) for s in range(players)]
            someone_has_trump = any(trumps)
            bots = [GentleBot(seed=i * 10 + s) for s in range(players)]
            game = play_game(rules, bots, seed).game
            outcome = game.outcome
            assert outcome is not None and not outcome.reason.is_forfeit, outcome
            tally.games += 1
            if outcome.durak is None:
                tally.draws += 1
                tally.draw_reasons[outcome.reason.value] = tally.draw_reasons.get(outcome.reason.value, 0) + 1
            tally.bouts.append(game.bout)
            steps = game.steps()
            tally.attack_cards.append(sum(1 for _, a, _ in steps if a.kind in (ActionKind.ATTACK, ActionKind.TRANSFER)))
            tally.takes.append(sum(1 for _, a, _ in steps if a.kind is ActionKind.TAKE))
            for seat, count in enumerate(trumps):
                cell = tally.by_trumps.setdefault(count, [0, 0])
                cell[0] += 1
                cell[1] += outcome.durak == seat
            if someone_has_trump:
                tally.opener_games += 1
                tally.opener_durak += outcome.durak == opener
            progress.advance()
    return tally


def mean_ci(values: list[int]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, Z95 * math.sqrt(var / n)


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def rate_cell(hits: int, n: int) -> str:
    low, high = wilson_interval(hits, n)
    return f"{pct(hits / n) if n else '-':>7} [{100 * low:4.1f}-{100 * high:4.1f}] n={n}"


def summarize(tallies: list[Tally], scale: float) -> dict[str, Any]:
    """Every figure of the table, ours and the source's, as plain data."""
    out: dict[str, Any] = {"games_scale": scale, "players": {}}
    for t in tallies:
        rules = Rules.preset("classic", players=t.players)
        row: dict[str, Any] = {"games": t.games, "fair_share": 1 / t.players}
        for key, k in (("no_trump", 0), ("three_trumps", 3)):
            hits, n = t.rate(k)
            low, high = wilson_interval(hits, n)
            theirs = SOURCE[t.players][key]
            assert theirs is not None
            source_n = GAMES[t.players] * t.players * hand_share(k, deck=rules.deck, hand=rules.hand_size)
            row[key] = {
                "rate": hits / n if n else None, "ci95": [low, high], "seat_games": n, "durak": hits,
                "source": theirs, "source_seat_games_est": round(source_n),
                "z": gap_z(hits / n, n, theirs, source_n) if n else None,
            }
        mean, half = mean_ci(t.bouts)
        row["bouts"] = {"mean": mean, "ci95_half": half, "source": SOURCE[t.players]["bouts"]}
        row["attack_cards"] = {"mean": sum(t.attack_cards) / t.games}
        row["takes"] = {"mean": sum(t.takes) / t.games}
        low, high = wilson_interval(t.draws, t.games)
        row["draws"] = {"rate": t.draws / t.games, "ci95": [low, high], "count": t.draws,
                        "reasons": t.draw_reasons, "source": SOURCE[t.players]["draws"]}
        row["by_trumps"] = {str(k): {"seat_games": v[0], "durak_rate": v[1] / v[0]}
                            for k, v in sorted(t.by_trumps.items())}
        if t.players == 2:
            low, high = wilson_interval(t.opener_durak, t.opener_games)
            row["opener"] = {"rate": t.opener_durak / t.opener_games, "ci95": [low, high],
                             "games": t.opener_games, "source": SOURCE_OPENER_2P,
                             "z": gap_z(t.opener_durak / t.opener_games, t.opener_games,
                                        SOURCE_OPENER_2P, GAMES[2])}
        out["players"][str(t.players)] = row
    return out


def render(summary: dict[str, Any]) -> str:
    """The table of docs/rules.md section 10, ours beside the source's."""
    lines = [
        "seed 000 statistics: gentle vs gentle, classic (ours: rate [95 % Wilson interval] n=seat-games;"
        " z = gap in standard errors, the source's sampling error included)",
        "",
    ]
    for key, title in (("no_trump", "durak rate, no trump in the starting hand"),
                       ("three_trumps", "durak rate, exactly three trumps in the starting hand")):
        lines.append(title)
        for players, row in summary["players"].items():
            cell = row[key]
            lines.append(
                f"  {players} players: ours {rate_cell(cell['durak'], cell['seat_games'])}"
                f"   source {pct(cell['source'])} (n~{cell['source_seat_games_est']})"
                f"   z={cell['z']:+.1f}   fair share {pct(row['fair_share'])}"
            )
        lines.append("")
    lines.append("mean bouts per game (attack cards and takes per game: diagnostics, no source figure)")
    for players, row in summary["players"].items():
        b = row["bouts"]
        lines.append(f"  {players} players: ours {b['mean']:5.1f} +/- {b['ci95_half']:.1f}"
                     f"   source {b['source']:.0f}   (attack cards {row['attack_cards']['mean']:.1f},"
                     f" takes {row['takes']['mean']:.1f})")
    lines.append("")
    lines.append("draws")
    for players, row in summary["players"].items():
        d = row["draws"]
        source = "(not given)" if d["source"] is None else f"about {pct(d['source'])}"
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(d["reasons"].items())) or "none"
        lines.append(f"  {players} players: ours {rate_cell(d['count'], row['games'])} games"
                     f" ({reasons})   source {source}")
    opener = summary["players"].get("2", {}).get("opener")
    if opener is not None:
        lines.append("")
        lines.append("2 players: durak rate of the opener (holder of the lowest trump)")
        lines.append(f"  ours {rate_cell(round(opener['rate'] * opener['games']), opener['games'])} games"
                     f"   source {pct(opener['source'])}   z={opener['z']:+.1f}")
    lines.append("")
    lines.append("durak rate by starting trumps (ours)")
    for players, row in summary["players"].items():
        cells = "  ".join(f"{k}:{100 * v['durak_rate']:4.1f}%" for k, v in row["by_trumps"].items()
                          if v["seat_games"] >= 30)
        lines.append(f"  {players} players: {cells}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games-scale", "--scale", type=float, default=1.0, dest="scale",
                        help="fraction of the source's game counts to play (default 1.0: 3000/2300/1600)")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON object, last")
    args = parser.parse_args(argv)
    if args.smoke:
        args.scale = 0.01
    if args.scale <= 0:
        parser.error("--games-scale must be positive")
    started = time.perf_counter()
    tallies = [play(players, max(1, round(games * args.scale))) for players, games in GAMES.items()]
    summary = summarize(tallies, args.scale)
    summary["seconds"] = round(time.perf_counter() - started, 1)
    print(render(summary))
    print(f"\n{sum(t.games for t in tallies)} games in {summary['seconds']} s")
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
