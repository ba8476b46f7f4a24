"""Referee throughput with sandboxed bots (bubblewrap), one core per worker process.

    .venv/bin/python tests/bench/referee_throughput.py [--games G] [--starts N] [--rounds R] [--json] [--smoke]

- ``games_per_s``: two-player ``gentle`` vs ``gentle`` games per second in one worker
  process, both bots sandboxed and served over gRPC (duplicate deals, bots started once).
- ``overhead_ms_per_decision``: the same games' time per decision minus the time per
  decision of the same games played in-process. ``play_spec`` starts fresh bots for every
  seat rotation, so the starts it waits for (the first rotation's; the next ones start ahead
  where a core is free) and the last kill are spread over these decisions too;
  ``overhead_ms_per_decision_games_only`` is the same games with both bots started before the
  clock and kept for both seatings: the transport, the freezes and thaws, the start and end of
  each game.
- ``start_ms_median``: sandbox start to SERVING; ``kill_ms_median``: kill to nothing left.
- ``scaling_2_workers``: how much faster two worker processes finish a batch of matches
  than one (2.0 would be perfect on two cores).
- ``fresh_vs_kept``: games per second with fresh bots for every seat rotation (the
  referee, ``play_spec``) against the referee before it (``play_keeping_bots``: each bot
  started once for the whole match), alternating in one run, for a several-deal duplicate
  match and a one-deal ladder match (where the extra starts weigh most), each with bots
  that answer at once and with one that thinks (``WORKLOADS``), and their ratio.
  ``DURAK_START_AHEAD`` applies as in the worker.

``--smoke`` runs every part once, as small as it goes (seconds), to show the benchmark still works.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable

from bots_sdk.botdir import load_spec
from bots_sdk.bots import make_bot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import Rules
from bots_sdk.local import play_game
from bots_sdk.match import seat_order
from bots_sdk.remote import ARENA_LIMITS
from worker.referee.launch import Launcher, launcher_for
from worker.referee.match import (
    START_AHEAD_ENV,
    GameResult,
    MatchSpec,
    RunningBot,
    _play_one,
    bot_spec,
    play_spec,
    seat_bots,
    start_bot,
    stop_all,
)
from worker.sandbox import make_sandbox


def sandboxed_games(games: int) -> tuple[float, float]:
    """Games per second and seconds per decision, sandboxed, for ``games`` games (in duplicate pairs)."""
    spec = MatchSpec(("gentle", "gentle"), deals=max(1, games // 2), seed="throughput")
    started = time.perf_counter()
    with Progress(spec.deals * 2, "sandboxed games") as bar:
        results = play_spec(spec, launcher_for("bwrap"), on_game=lambda _r: bar.advance())
    seconds = time.perf_counter() - started
    decisions = sum(len(r.record["actions"]) for r in results)
    return len(results) / seconds, seconds / decisions


def sandboxed_games_only(games: int) -> float:
    """Seconds per decision of the same games as ``sandboxed_games``, with their bots started beforehand and
    kept for both seatings: the starts and kills that ``play_spec`` spreads over the games left out."""
    spec = MatchSpec(("gentle", "gentle"), deals=max(1, games // 2), seed="throughput")
    clock: list[float] = []
    results = play_keeping_bots(spec, launcher_for("bwrap"), clock)
    return clock[0] / sum(len(r.record["actions"]) for r in results)


def in_process_seconds_per_decision(games: int) -> float:
    rules = Rules.preset("classic", players=2)
    started = time.perf_counter()
    decisions = 0
    for deal in range(max(1, games // 2)):
        for _ in range(2):
            played = play_game(rules, [make_bot("gentle"), make_bot("gentle")], seed=f"throughput-{deal}")
            decisions += len(played.ms)
    return (time.perf_counter() - started) / decisions


def start_and_kill(starts: int) -> tuple[float, float]:
    sandbox = make_sandbox("bwrap")
    sandbox.self_test()
    spec = load_spec("random")
    start_ms, kill_ms = [], []
    for _ in range(starts):
        began = time.perf_counter()
        served = sandbox.launch(spec, ARENA_LIMITS)
        served.bot.wait_serving()
        start_ms.append((time.perf_counter() - began) * 1000)
        served.bot.close()
        kill_ms.append(served.handle.kill() * 1000)
    return statistics.median(start_ms), statistics.median(kill_ms)


def _batch_worker(specs: list[dict[str, object]]) -> int:
    launcher = launcher_for("bwrap")
    return sum(len(play_spec(MatchSpec.from_dict(s), launcher)) for s in specs)


def _no_start_ahead() -> None:
    os.environ[START_AHEAD_ENV] = "off"


def scaling(matches: int) -> float:
    """Seconds for one process to play the batch, divided by the seconds for two processes: what the
    referees share. Starts ahead are off on both sides (one referee alone would use the second core for
    them, which is not sharing), as ``auto`` has it for as many referees as cores."""
    specs = [MatchSpec(("gentle", "random"), deals=2, seed=f"batch-{i}").to_dict() for i in range(matches)]
    context = multiprocessing.get_context("spawn")
    timings = []
    for workers in (1, 2):  # both through fresh spawned processes, so both pay the same start-up
        with context.Pool(workers, initializer=_no_start_ahead) as pool:
            pool.map(_warm_up, range(workers))
            began = time.perf_counter()
            pool.map(_batch_worker, [specs[i::workers] for i in range(workers)])
            timings.append(time.perf_counter() - began)
    return timings[0] / timings[1]


def _warm_up(_: int) -> None:
    """Import everything and build the runtime before the clock starts."""
    launcher_for("bwrap")


def play_keeping_bots(spec: MatchSpec, launcher: Launcher, games_clock: list[float] | None = None) -> list[GameResult]:
    """The referee before fresh bots per rotation: each bot started once and kept for every deal and rotation.

    With ``games_clock``, every bot is started (and frozen) before the first game, and the seconds of the games
    alone are appended to it: the referee's work per decision without the starts and the kills."""
    rules = spec.rules
    entrants = len(spec.bots)
    bots = [[RunningBot(bot_spec(argument)) for _ in range(rules.players // entrants)] for argument in spec.bots]
    results = []
    try:
        if games_clock is not None:
            for group in bots:
                for running in group:
                    assert start_bot(running, launcher, spec.limits) is None, f"{running.spec.name} did not start"
            began = time.perf_counter()
        for deal in range(spec.deals):
            for rotation in range(entrants if spec.duplicate else 1):
                order = tuple(seat_order(rules, entrants, -rotation))
                results.append(_play_one(spec, rules, launcher, seat_bots(bots, order), deal, rotation, order))
        if games_clock is not None:
            games_clock.append(time.perf_counter() - began)
    finally:
        stop_all(bots)
    return results


WORKLOADS = {
    "gentle x2, duplicate 4 deals": (("gentle", "gentle"), 4),
    "gentle x2, ladder 1 deal": (("gentle", "gentle"), 1),
    "strong v gentle, duplicate 2 deals": (("strong", "gentle"), 2),
    "strong v gentle, ladder 1 deal": (("strong", "gentle"), 1),
}
"""The compared matches (both seatings of every deal): gentle answers at once, so its games are shorter than
a start and the starts weigh most; strong thinks up to 200 ms a decision, as bots using their clock do."""
SMOKE_WORKLOADS = ("gentle x2, ladder 1 deal",)


def fresh_vs_kept(bots: tuple[str, str], deals: int, rounds: int) -> tuple[float, float]:
    """Games per second of ``play_spec`` and of ``play_keeping_bots`` over ``rounds`` matches each, played
    alternately (which goes first alternates too) so a change in the machine's load hits both alike."""
    launcher = launcher_for("bwrap")
    pair: list[Callable[[MatchSpec, Launcher], list[GameResult]]] = [play_spec, play_keeping_bots]
    seconds = dict.fromkeys(pair, 0.0)
    games = dict.fromkeys(seconds, 0)
    for round_ in range(rounds):
        for play in pair if round_ % 2 == 0 else pair[::-1]:
            spec = MatchSpec(bots, deals=deals, seed=f"fresh-{round_}")
            began = time.perf_counter()
            games[play] += len(play(spec, launcher))
            seconds[play] += time.perf_counter() - began
    return games[play_spec] / seconds[play_spec], games[play_keeping_bots] / seconds[play_keeping_bots]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--starts", type=int, default=15)
    parser.add_argument("--matches", type=int, default=8, help="matches in the scaling batch")
    parser.add_argument("--rounds", type=int, default=2, help="matches per side in each fresh-vs-kept comparison")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="everything once, as small as it goes")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.starts, args.matches, args.rounds = 2, 1, 2, 1
    games_per_s, sandboxed = sandboxed_games(args.games)
    games_only = sandboxed_games_only(args.games)
    in_process = in_process_seconds_per_decision(args.games)
    overhead_ms, games_only_ms = (sandboxed - in_process) * 1000, (games_only - in_process) * 1000
    start_ms, kill_ms = start_and_kill(args.starts)
    factor = scaling(args.matches)
    compared = {name: fresh_vs_kept(bots, deals, args.rounds) for name, (bots, deals) in WORKLOADS.items()
                if not args.smoke or name in SMOKE_WORKLOADS}
    rows = [
        ("games per second (gentle x2, sandboxed)", f"{games_per_s:.2f}"),
        ("overhead per decision vs in-process (ms)", f"{overhead_ms:.3f}"),
        ("  the same, bots started beforehand (ms)", f"{games_only_ms:.3f}"),
        ("sandbox start to SERVING, median (ms)", f"{start_ms:.0f}"),
        ("kill to nothing left, median (ms)", f"{kill_ms:.1f}"),
        ("2 workers vs 1, same batch (x)", f"{factor:.2f}"),
    ]
    for name, (fresh, kept) in compared.items():
        rows += [
            (f"{name}: games/s, bots kept all match", f"{kept:.2f}"),
            (f"{name}: games/s, fresh bots per rotation", f"{fresh:.2f}"),
            (f"{name}: fresh / kept (x)", f"{fresh / kept:.2f}"),
        ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>10}")
    if args.json:
        print(json.dumps({
            "games_per_s": round(games_per_s, 2), "overhead_ms_per_decision": round(overhead_ms, 3),
            "overhead_ms_per_decision_games_only": round(games_only_ms, 3),
            "start_ms_median": round(start_ms), "kill_ms_median": round(kill_ms, 1),
            "scaling_2_workers": round(factor, 2),
            "fresh_vs_kept": {name: {"fresh_games_per_s": round(fresh, 2), "kept_games_per_s": round(kept, 2),
                                     "ratio": round(fresh / kept, 3)} for name, (fresh, kept) in compared.items()},
        }))


if __name__ == "__main__":
    main()
