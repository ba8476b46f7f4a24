"""Referee throughput with sandboxed bots (bubblewrap), one core per worker process.

    .venv/bin/python tests/bench/referee_throughput.py [--games G] [--starts N] [--matches M] [--rounds R]
        [--scaling-rounds K] [--only games|starts|scaling|fresh ...] [--json] [--smoke]

- ``games_per_s``: two-player ``gentle`` vs ``gentle`` games per second in one worker
  process, both bots sandboxed and served over gRPC (duplicate deals, bots started once).
- ``overhead_ms_per_decision``: the same games' time per decision minus the time per
  decision of the same games played in-process. ``play_spec`` starts fresh bots for every
  seat rotation, so the starts it waits for (the first rotation's; the next ones start ahead
  where a core is free) and the last kill are spread over these decisions too;
  ``overhead_ms_per_decision_games_only`` is the same games with both bots started before the
  clock and kept for both seatings: the transport, the freezes and thaws, the start and end of
  each game. ``overhead_ms_per_decision_pooled`` (and ``games_per_s_pooled``): ``play_spec`` as a
  worker with a core to spare plays, fresh bots started in its pool of sandboxes started ahead
  (full when the first match comes); what is left is where the starts' CPU outgrows the spare core.
- ``start_ms_median``: sandbox start to SERVING (a cold start); ``start_ms_median_pooled``: the same bot
  started in a pooled sandbox (worker/sandbox/warm.py), launch to SERVING, alternating with the cold starts;
  ``kill_ms_median``: kill to nothing left. In the same rounds, where a cold start's time goes:
  ``python_ms_median``, the runtime's interpreter run outside the sandbox with nothing to do (Python's own
  floor on this machine), and ``python_imports_ms_median``, the same with the reference bot's imports; the
  rest of a cold start is the sandbox's and the serving.
- ``scaling_2_workers``: how many matches per second two referee processes play against one, each on a core
  of its own as two referees on two cores are (worker/referee/cores.py; 2.0 would be perfect), counted while
  every referee had a match to play: from the batch's start to the moment its last match was handed out (a match
  running across that moment counts for the part played before it). The matches are handed out one at a time,
  as a broker does, and they differ in length; what a finite batch adds after that moment, one referee finishing
  its last match while the other has none left, is no cost of sharing and is the batch's own:
  ``scaling_2_workers_batch`` is the ratio of the whole batches' wall times, that tail included (half a match
  on average, so the fewer the matches, the lower). The same two processes, started once, play ``--scaling-rounds``
  rounds of both (one of them alone in one worker's turn; the order alternating, so a drift in the machine's
  speed hits both alike); ``scaling_each_round`` is each round's ratio.
  ``scaling_2_workers_cpu_bound`` is the machine's own ceiling, measured in the same rounds by the same
  processes and dispatch: pure Python arithmetic that shares nothing, neither memory nor the kernel. On a
  virtual machine it is below 2 and drifts from run to run (the host's other guests); the referee's figure
  is to be read against it.
  Beside it where the CPU went: ``cores_one_worker``, the cores one worker keeps busy
  (its referee and its bots, launch chain included; above 1.0 it caps the scaling at
  2 / cores), and ``cpu_ms_per_match`` of the referees and of the bots with one worker
  and with two (CPU the second worker adds per match is contention: what the two share).
  ``host_cores`` is the cores the whole host kept busy with one worker and with two (``/proc/stat``): the
  kernel's work for the sandboxes (namespaces torn down in its own threads) counts there and nowhere else.
  Only meaningful on an otherwise idle machine: compare ``cores_one_worker`` and the CPU per match.
- ``fresh_vs_kept``: games per second with fresh bots for every seat rotation (the
  referee, ``play_spec``) against the referee before it (``play_keeping_bots``: each bot
  started once for the whole match), alternating in one run, for a several-deal duplicate
  match and a one-deal ladder match (where the extra starts weigh most), each with bots
  that answer at once and with one that thinks (``WORKLOADS``), and their ratio; and fresh bots started in a
  pool of sandboxes started ahead (``pooled_games_per_s``, ``pooled_ratio``), in turn with the other two.
  ``DURAK_START_AHEAD`` applies as in the worker.

``referee_on_bots_python``: whether this process (the referee) runs on the interpreter the bots run on, Debian's
under ``/usr``, as a worker of the Docker image does and a venv made by ``.ci/run`` does. The figures above were
measured so: with another build of Python for the referee (a pyenv one, say) its share of every decision differs
(docs/development.md, "Benchmarks").

``--only`` runs the parts named (``--only scaling``: the scaling batch alone); ``--smoke`` runs every part
once, as small as it goes (seconds), to show the benchmark still works.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import TypeVar

from bots_sdk.botdir import load_spec
from bots_sdk.bots import make_bot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import Rules
from bots_sdk.local import play_game
from bots_sdk.match import seat_order
from bots_sdk.remote import ARENA_LIMITS
from worker.health import prepare
from worker.referee.cores import REFEREES_ENV, claim_core, off_game_core
from worker.referee.launch import WARM_POOL_ENV, Launcher, launcher_for
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
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.cgroups import CgroupManager
from worker.sandbox.runtime import ensure_runtime, sandbox_python
from worker.sandbox.warm import WarmPool

PRIME_S = 60.0
"""How long the pool may take to fill before a start is timed (a loaded machine)."""


def sandboxed_games(games: int, launcher: Launcher, label: str = "sandboxed games") -> tuple[float, float]:
    """Games per second and seconds per decision, sandboxed, for ``games`` games (in duplicate pairs)."""
    spec = MatchSpec(("gentle", "gentle"), deals=max(1, games // 2), seed="throughput")
    started = time.perf_counter()
    with Progress(spec.deals * 2, label) as bar:
        results = play_spec(spec, launcher, on_game=lambda _r: bar.advance())
    seconds = time.perf_counter() - started
    decisions = sum(len(r.record["actions"]) for r in results)
    return len(results) / seconds, seconds / decisions


def worker_pool() -> WarmPool:
    """A pool of sandboxes as a worker's (worker/referee/launch.py: tended off the game core), full, as a worker's
    is when its matches come."""
    sandbox = make_sandbox("bwrap")
    assert isinstance(sandbox, BwrapSandbox)
    pool = WarmPool(sandbox, on_thread=off_game_core)
    pool.prime(PRIME_S)
    return pool


def pooled_games(games: int) -> tuple[float, float]:
    """``sandboxed_games`` with the bots started in a full pool of sandboxes, as a worker with a spare core has it."""
    pool = worker_pool()
    try:
        return sandboxed_games(games, pool.launch, "sandboxed games, pooled starts")
    finally:
        pool.close()


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


BOT_IMPORTS = "import bots_sdk.bots, bots_sdk.server"
"""What ``python -m bots_sdk.bots NAME`` imports before it serves."""


@dataclasses.dataclass(frozen=True)
class Starts:
    """Medians, in ms, of ``start_and_kill``'s rounds."""

    cold: float
    pooled: float
    kill: float
    python: float
    """The runtime's interpreter started outside the sandbox with nothing to run: Python's own floor."""
    imports: float
    """The same with the reference bot's imports: the part of a cold start that is Python's."""


def python_ms(python: str, code: str, cwd: str) -> float:
    """One run of ``python -c code`` in ``cwd``, in ms (``cwd`` keeps a checkout off ``sys.path``)."""
    began = time.perf_counter()
    subprocess.run([python, "-c", code], cwd=cwd, check=True)
    return (time.perf_counter() - began) * 1000


def start_and_kill(starts: int) -> Starts:
    """Medians of a cold start's and a pooled start's launch to SERVING (alternating), of the kills, and of the
    runtime's Python started outside the sandbox with and without the bot's imports, in the same rounds.

    Before each start the pool is full and ready (off the clock), so no refill runs while a start is timed."""
    sandbox = make_sandbox("bwrap")
    sandbox.self_test()
    assert isinstance(sandbox, BwrapSandbox)
    python = str(ensure_runtime(sandbox.runtime_dir) / "bin" / "python")
    pool = WarmPool(sandbox, size=1)
    spec = load_spec("random")
    launches = {"cold": sandbox.launch, "pooled": pool.launch}
    start_ms: dict[str, list[float]] = {name: [] for name in launches}
    kill_ms, bare_ms, imports_ms = [], [], []
    try:
        with tempfile.TemporaryDirectory() as elsewhere:
            for round_ in range(starts):
                for name in list(launches) if round_ % 2 == 0 else list(launches)[::-1]:
                    pool.prime(PRIME_S)
                    began = time.perf_counter()
                    served = launches[name](spec, ARENA_LIMITS)
                    served.bot.wait_serving()
                    start_ms[name].append((time.perf_counter() - began) * 1000)
                    served.bot.close()
                    kill_ms.append(served.handle.kill() * 1000)
                bare_ms.append(python_ms(python, "pass", elsewhere))
                imports_ms.append(python_ms(python, BOT_IMPORTS, elsewhere))
    finally:
        pool.close()
    assert pool.pooled_starts == starts, f"only {pool.pooled_starts} of {starts} starts were pooled"
    return Starts(*(statistics.median(times) for times in (
        start_ms["cold"], start_ms["pooled"], kill_ms, bare_ms, imports_ms)))


T = TypeVar("T")

REFEREES = 2
"""The scaling batch's referee processes: two, each on a core of its own, one of them alone in half the turns."""


_launcher: Launcher | None = None
"""The pool process's launcher, self-tested once (``_warm_up``), as a worker process keeps its sandbox."""


def _warm_up() -> None:
    """Import everything, build the runtime and self-test the sandbox before the clock starts; starts ahead
    off (a referee alone would use the other core for them, which is not sharing), and a core for its games, as
    a Celery pool process claims one (worker/referee/cores.py)."""
    global _launcher
    os.environ[START_AHEAD_ENV] = "off"
    os.environ[REFEREES_ENV] = str(REFEREES)
    claim_core()
    _launcher = launcher_for("bwrap")


@dataclasses.dataclass(frozen=True)
class Played:
    """One match of the batch as its referee process saw it: its CPU seconds and when it ran (``time.monotonic``,
    one clock for every process of the host)."""

    cpu_s: float
    began: float
    ended: float


def _play_match(spec: dict[str, object]) -> Played:
    """Play one match of the batch in this pool process."""
    assert _launcher is not None, "the pool's initializer sets the launcher"
    before, began = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    play_spec(MatchSpec.from_dict(spec), _launcher)
    after, ended = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    return Played(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, began, ended)


SPIN_STEPS = 3_000_000
"""One unit of the scaling batch's CPU-bound twin, two units for each match: pure Python arithmetic, about half
a match's time here."""


def _spin(steps: int) -> Played:
    """Work that shares nothing with the other process, neither memory nor the kernel: what two cores of this
    machine give two processes at best, measured with the same dispatch as the matches."""
    before, began = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    total = 0
    for step in range(steps):
        total += step * step % 7
    after, ended = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    return Played(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, began, ended)


def matches_while_busy(began: float, played: list[Played]) -> tuple[float, float]:
    """The matches played from ``began`` until the last match was handed out, while every worker had one to play,
    and that span's seconds: a match across its end counts for the share of its time before it. Two referees, the
    second's first match twice as long, so the last match goes to the first at 1.0, half through the second's:

    >>> matches_while_busy(0.0, [Played(0.5, 0.0, 1.0), Played(0.5, 0.0, 2.0), Played(0.5, 1.0, 2.5)])
    (1.5, 1.0)
    """
    until = max(match.began for match in played)
    done = sum(max(0.0, min(match.ended, until) - match.began) / (match.ended - match.began) for match in played)
    return done, until - began


@dataclasses.dataclass(frozen=True)
class Batch:
    """One run of the scaling batch: its wall time, the part of it while no worker had run out of matches, and
    where the CPU went (referees, bots), in seconds."""

    wall_s: float
    busy_matches: float
    busy_s: float
    referee_cpu_s: float
    bots_cpu_s: float
    """The bots' cgroups, launch chain (setpriv, prlimit, bwrap) included: everything after the launcher joins."""
    host_cpu_s: float
    """Every core's busy time over the batch (``/proc/stat``): beyond the two above, the kernel's own threads
    (a namespace torn down after its sandbox exits) and whatever else the host runs."""

    @property
    def busy_rate(self) -> float:
        """Matches per second while every worker had a match to play."""
        return self.busy_matches / self.busy_s

    @property
    def cores(self) -> float:
        """Cores kept busy on average: above 1 for one worker, two workers cannot reach 2x on two cores."""
        return (self.referee_cpu_s + self.bots_cpu_s) / self.wall_s

    @property
    def host_cores(self) -> float:
        """Cores the whole host kept busy: what two workers on two cores really compete for."""
        return self.host_cpu_s / self.wall_s


def host_busy_s() -> float:
    """Seconds of CPU the host's cores have been busy since boot, every kind but idle and iowait."""
    with open("/proc/stat") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


@dataclasses.dataclass(frozen=True)
class Scaling:
    """Two workers against one over the rounds of the scaling batch (``scaling``)."""

    factor: float
    """Matches per second while every worker had one to play, two workers over one, over all rounds."""
    batch_factor: float
    """The whole batches' wall times, one worker's over two workers', the tail of each batch included."""
    each_round: list[float]
    cpu_bound: float
    """The same for ``_spin``, played in the same rounds by the same processes: this machine's own ceiling."""
    one: Batch
    two: Batch
    """Each side's rounds of matches summed."""


def play_batch(referees: list[ProcessPoolExecutor], work: Callable[[T], Played], items: list[T],
               bots: CgroupManager) -> Batch:
    """Run ``work`` on each of ``items`` on ``referees``, handed out one at a time as a broker hands out matches:
    a referee takes the next when it has finished one, so none idles while any are left."""
    waiting = iter(items)
    bots_before, host_before, began = bots.cpu_ns(), host_busy_s(), time.monotonic()
    running = {referee.submit(work, item): referee for referee, item in zip(referees, waiting)}
    played: list[Played] = []
    while running:
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            referee = running.pop(future)
            played.append(future.result())
            if (item := next(waiting, None)) is not None:
                running[referee.submit(work, item)] = referee
    wall = time.monotonic() - began
    return Batch(wall, *matches_while_busy(began, played), sum(match.cpu_s for match in played),
                 (bots.cpu_ns() - bots_before) / 1e9, host_busy_s() - host_before)


def summed(batches: list[Batch]) -> Batch:
    """Rounds of a batch added up."""
    return Batch(*(sum(getattr(b, field.name) for b in batches) for field in dataclasses.fields(Batch)))


def scaling(matches: int, rounds: int) -> Scaling:
    """One referee process against two on the same batch of matches, over ``rounds`` rounds of both, their order
    alternating: this machine's speed drifts by more than the effect measured, and a drift between one worker's
    turn and two workers' would be read as (or hide) a cost of sharing. The same two processes, started and
    warmed up once, play every turn (one of them alone in one worker's), so the rounds cost no start-up and can
    be many. The bots' CPU comes from the sandboxes' parent cgroup, which only this benchmark's bots use under
    the sandbox lock."""
    specs = [MatchSpec(("gentle", "random"), deals=2, seed=f"batch-{i}").to_dict() for i in range(matches)]
    spins = [SPIN_STEPS] * 2 * matches
    bots = CgroupManager()
    context = multiprocessing.get_context("spawn")
    referees = [ProcessPoolExecutor(1, mp_context=context, initializer=_warm_up) for _ in range(REFEREES)]
    batches: dict[tuple[str, int], list[Batch]] = {(kind, n): [] for kind in ("matches", "spins") for n in (1, 2)}
    try:
        for started in [referee.submit(os.getpid) for referee in referees]:
            started.result()
        for round_ in range(rounds):
            for workers in (1, 2) if round_ % 2 == 0 else (2, 1):
                batches["matches", workers].append(play_batch(referees[:workers], _play_match, specs, bots))
                batches["spins", workers].append(play_batch(referees[:workers], _spin, spins, bots))
    finally:
        for referee in referees:
            referee.shutdown(cancel_futures=True)
    one, two = summed(batches["matches", 1]), summed(batches["matches", 2])
    each = [b.busy_rate / a.busy_rate for a, b in zip(batches["matches", 1], batches["matches", 2], strict=True)]
    cpu_bound = summed(batches["spins", 2]).busy_rate / summed(batches["spins", 1]).busy_rate
    return Scaling(two.busy_rate / one.busy_rate, one.wall_s / two.wall_s, each, cpu_bound, one, two)


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


def fresh_vs_kept(bots: tuple[str, str], deals: int, rounds: int, pool: WarmPool) -> tuple[float, float, float]:
    """Games per second of ``play_spec`` with cold starts, of ``play_spec`` starting in ``pool``, and of
    ``play_keeping_bots`` (cold), over ``rounds`` matches each, played in turn (the order rotating) so a change
    in the machine's load hits all alike."""
    cold = pool.sandbox.launch
    arms: list[tuple[Callable[[MatchSpec, Launcher], list[GameResult]], Launcher]] = [
        (play_spec, cold), (play_spec, pool.launch), (play_keeping_bots, cold)]
    seconds = [0.0] * len(arms)
    games = [0] * len(arms)
    for round_ in range(rounds):
        for index in [(round_ + k) % len(arms) for k in range(len(arms))]:
            play, launcher = arms[index]
            spec = MatchSpec(bots, deals=deals, seed=f"fresh-{round_}")
            began = time.perf_counter()
            games[index] += len(play(spec, launcher))
            seconds[index] += time.perf_counter() - began
    fresh, pooled, kept = (done / spent for done, spent in zip(games, seconds, strict=True))
    return fresh, pooled, kept


def fresh_part(smoke: bool, rounds: int) -> dict[str, tuple[float, float, float]]:
    """``fresh_vs_kept`` for every workload (the smoke run's only), with one pool for all."""
    pool = worker_pool()
    try:
        return {name: fresh_vs_kept(bots, deals, rounds, pool)
                for name, (bots, deals) in WORKLOADS.items() if not smoke or name in SMOKE_WORKLOADS}
    finally:
        pool.close()


@dataclasses.dataclass(frozen=True)
class Games:
    """The games part's seconds per decision: ``play_spec`` with cold starts, with pooled starts, the games alone
    with bots started beforehand, and the same games in-process; and the first two's games per second."""

    sandboxed: float
    pooled: float
    games_only: float
    in_process: float
    games_per_s: float
    pooled_games_per_s: float


def games_part(games: int) -> Games:
    games_per_s, sandboxed = sandboxed_games(games, launcher_for("bwrap"))
    pooled_per_s, pooled = pooled_games(games)
    return Games(sandboxed, pooled, sandboxed_games_only(games), in_process_seconds_per_decision(games),
                 games_per_s, pooled_per_s)


def _as_a_worker() -> None:
    """A pool's initializer: the process is a referee of a worker alone on this host, as Celery starts one
    (worker/celery.py): it claims a core for its games (worker/referee/cores.py), in a directory of its own, so
    that the scaling part's processes still find every core free."""
    os.environ[REFEREES_ENV] = "1"
    claim_core(Path(tempfile.mkdtemp(prefix="durak-bench-cores-")))


def as_a_worker(work: Callable[..., T], *args: object) -> T:
    """``work(*args)`` in a fresh process that plays as a worker's referee does (``_as_a_worker``)."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_as_a_worker) as pool:
        return pool.submit(work, *args).result()


MIN_MATCHES = 4
"""The smallest scaling batch: with two matches per worker the span while both are busy is a match long."""

PARTS = ("games", "starts", "scaling", "fresh")
"""What ``--only`` can pick: sandboxed games and overhead, start and kill, the scaling batch, fresh vs kept."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--starts", type=int, default=15)
    parser.add_argument("--matches", type=int, default=8,
                        help=f"matches in the scaling batch (at least {MIN_MATCHES})")
    parser.add_argument("--scaling-rounds", type=int, default=10,
                        help="rounds of the scaling batch, one worker and two in each, their order alternating")
    parser.add_argument("--rounds", type=int, default=2, help="matches per side in each fresh-vs-kept comparison")
    parser.add_argument("--only", choices=PARTS, action="append", help="run only this part (repeatable)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="everything once, as small as it goes")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.starts, args.matches, args.rounds, args.scaling_rounds = 2, 1, MIN_MATCHES, 1, 1
    if args.matches < MIN_MATCHES:
        parser.error(f"--matches {args.matches}: the scaling batch needs at least {MIN_MATCHES}, two per worker, "
                     "so that both workers are busy before its last match is handed out")
    parts = set(args.only or PARTS)
    # As a worker does at start, in the main process: a pool process is daemonic and cannot build the runtime
    # (compileall forks), and one whose initializer fails is replaced for ever.
    problem = prepare("bwrap")
    if problem:
        raise SystemExit(problem)
    # The pool is measured where it is named (its own figures); elsewhere its refills would only add noise.
    os.environ[WARM_POOL_ENV] = "off"
    referee, bots = Path(sys._base_executable).resolve(), sandbox_python()  # type: ignore[attr-defined]
    same = "yes" if referee == bots else f"no: {referee}"
    rows: list[tuple[str, str]] = [("the referee runs on the bots' Python", same)]
    figures: dict[str, object] = {"referee_on_bots_python": referee == bots}
    if "games" in parts:
        played = as_a_worker(games_part, args.games)
        games_per_s, pooled_per_s, in_process = played.games_per_s, played.pooled_games_per_s, played.in_process
        overhead_ms, games_only_ms = (played.sandboxed - in_process) * 1000, (played.games_only - in_process) * 1000
        pooled_ms = (played.pooled - in_process) * 1000
        rows += [("games per second (gentle x2, sandboxed)", f"{games_per_s:.2f}"),
                 ("overhead per decision vs in-process (ms)", f"{overhead_ms:.3f}"),
                 ("  the same, bots started in a pool (ms)", f"{pooled_ms:.3f}"),
                 ("  the same, bots started beforehand (ms)", f"{games_only_ms:.3f}"),
                 ("games per second, bots started in a pool", f"{pooled_per_s:.2f}")]
        figures |= {"games_per_s": round(games_per_s, 2), "overhead_ms_per_decision": round(overhead_ms, 3),
                    "overhead_ms_per_decision_pooled": round(pooled_ms, 3),
                    "games_per_s_pooled": round(pooled_per_s, 2),
                    "overhead_ms_per_decision_games_only": round(games_only_ms, 3)}
    if "starts" in parts:
        timed = start_and_kill(args.starts)
        rows += [("sandbox start to SERVING, median (ms)", f"{timed.cold:.0f}"),
                 ("  Python alone, outside the sandbox (ms)", f"{timed.python:.0f}"),
                 ("  Python with the bot's imports, outside (ms)", f"{timed.imports:.0f}"),
                 ("  so the sandbox and serving (ms)", f"{timed.cold - timed.imports:.0f}"),
                 ("pooled sandbox start to SERVING, median (ms)", f"{timed.pooled:.0f}"),
                 ("kill to nothing left, median (ms)", f"{timed.kill:.1f}")]
        figures |= {"start_ms_median": round(timed.cold), "start_ms_median_pooled": round(timed.pooled),
                    "kill_ms_median": round(timed.kill, 1), "python_ms_median": round(timed.python, 1),
                    "python_imports_ms_median": round(timed.imports, 1)}
    if "scaling" in parts:
        measured = scaling(args.matches, args.scaling_rounds)
        one, two = measured.one, measured.two
        matches = args.matches * args.scaling_rounds
        rows += [("2 workers vs 1, matches/s while both busy (x)", f"{measured.factor:.2f}"),
                 ("  each round (x)", " ".join(f"{ratio:.2f}" for ratio in measured.each_round)),
                 ("  whole batches, their tails included (x)", f"{measured.batch_factor:.2f}"),
                 ("  pure CPU work, same rounds: the machine's ceiling (x)", f"{measured.cpu_bound:.2f}"),
                 ("cores kept busy by 1 worker (referee + bots)", f"{one.cores:.2f}"),
                 ("  so 2 workers on 2 cores reach at most (x)", f"{min(2.0, 2 / one.cores):.2f}"),
                 ("cores the whole host kept busy, 1 worker", f"{one.host_cores:.2f}"),
                 ("cores the whole host kept busy, 2 workers", f"{two.host_cores:.2f}"),
                 ("CPU per match, 1 worker: referee + bots (ms)",
                  f"{one.referee_cpu_s / matches * 1000:.0f} + {one.bots_cpu_s / matches * 1000:.0f}"),
                 ("CPU per match, 2 workers: referee + bots (ms)",
                  f"{two.referee_cpu_s / matches * 1000:.0f} + {two.bots_cpu_s / matches * 1000:.0f}")]
        figures |= {"scaling_2_workers": round(measured.factor, 2),
                    "scaling_each_round": [round(ratio, 2) for ratio in measured.each_round],
                    "scaling_2_workers_batch": round(measured.batch_factor, 2),
                    "scaling_2_workers_cpu_bound": round(measured.cpu_bound, 2),
                    "cores_one_worker": round(one.cores, 2),
                    "host_cores": {"1": round(one.host_cores, 2), "2": round(two.host_cores, 2)},
                    "cpu_ms_per_match": {str(n): {"referee": round(b.referee_cpu_s / matches * 1000),
                                                  "bots": round(b.bots_cpu_s / matches * 1000)}
                                         for n, b in ((1, one), (2, two))}}
    if "fresh" in parts:
        compared = as_a_worker(fresh_part, args.smoke, args.rounds)
        for name, (fresh, pooled, kept) in compared.items():
            rows += [
                (f"{name}: games/s, bots kept all match", f"{kept:.2f}"),
                (f"{name}: games/s, fresh bots per rotation", f"{fresh:.2f}"),
                (f"{name}: games/s, fresh bots, pooled starts", f"{pooled:.2f}"),
                (f"{name}: fresh / kept (x)", f"{fresh / kept:.2f}"),
                (f"{name}: fresh pooled / kept (x)", f"{pooled / kept:.2f}"),
            ]
        figures["fresh_vs_kept"] = {
            name: {"fresh_games_per_s": round(fresh, 2), "kept_games_per_s": round(kept, 2),
                   "ratio": round(fresh / kept, 3), "pooled_games_per_s": round(pooled, 2),
                   "pooled_ratio": round(pooled / kept, 3)}
            for name, (fresh, pooled, kept) in compared.items()}
    report(rows, figures if args.json else None)


def report(rows: list[tuple[str, str]], figures: dict[str, object] | None, value_width: int = 10) -> None:
    """Print the table of ``rows`` (name, value), then ``figures`` as one JSON line if given (``--json``)."""
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>{value_width}}")
    if figures is not None:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
