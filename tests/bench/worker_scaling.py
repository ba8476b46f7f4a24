"""The whole path's scaling: matches per second of a real Celery worker with two referees against one.

    flock /work/wt/sandbox.lock .venv/bin/python tests/bench/worker_scaling.py [--matches M] [--rounds R] [--json]
    flock /work/wt/sandbox.lock .venv/bin/python tests/bench/worker_scaling.py --smoke

``referee_throughput.py``'s scaling batch plays its matches in its own processes, with no broker and no
database. Here every match takes the site's path: created in PostgreSQL, enqueued on Redis, taken by a real
Celery worker (prefork, the compose file's queues, ``--concurrency`` 1 or 2 with every other setting as
deployed, so one referee has the second core for its starts ahead and two take a core each), claimed, played
in the bwrap sandbox, stored with every game and rated. The matches are ``gentle`` against ``random``, two
deals each, as in that batch.

- ``scaling_2_workers``: matches per second with two referees against one, counted from the first match's
  start to the last match's start (while every referee had a match to play; ``referee_throughput.py`` says
  why), over ``--rounds`` rounds of both, their order alternating; ``scaling_each_round``: each round's ratio;
  ``scaling_2_workers_batch``: the whole batches, from enqueueing to the last match stored.
  ``--per-core`` runs both workers with a core for each referee and no starts ahead (``PER_CORE``), so one
  referee gets one core as in ``referee_throughput.py``: what PostgreSQL, Redis and Celery cost the scaling.
- ``matches_per_s``: one referee's and two referees' rates.
- ``host_cores``: the cores the host kept busy (``/proc/stat``) with one referee and with two: the referees,
  their bots, and what they share here, PostgreSQL, Redis and the worker's main process.

Only meaningful on an otherwise idle machine. A fresh worker starts for every turn (not timed). The bench owns
a PostgreSQL database (``--database``, created and migrated if missing; its matches are deleted at each start)
and a Redis database (``--broker``, flushed).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.recovery import arena_ready, start_worker, wait_ready  # noqa: E402
from tests.bench.referee_throughput import Played, host_busy_s, matches_while_busy, report  # noqa: E402


@dataclass(frozen=True)
class Turn:
    """One worker's turn at the batch."""

    busy_matches: float
    busy_s: float
    """The matches played while every referee had one, and that span's seconds."""
    wall_s: float
    """Enqueueing to the last match stored."""
    host_cpu_s: float


PER_CORE = {"DURAK_START_AHEAD": "off", "DURAK_PIN_CORES": "on"}
"""``--per-core``: one referee as one of two on two cores runs, as ``referee_throughput.py`` measures it."""


def play_turn(concurrency: int, matches: int, scratch: Path, settings: dict[str, str]) -> Turn:
    """Start a worker with ``concurrency`` referees, give it ``matches`` matches at once, wait for every one to
    be stored, stop the worker."""
    from django.db import transaction

    from arena.bots.models import BotVersion
    from arena.matches.models import Match
    from arena.matches.services import match_create

    versions = [BotVersion.objects.get(reference=name) for name in ("gentle", "random")]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARENA_SANDBOX": "bwrap", **settings}
    log = scratch / f"worker-{concurrency}.log"
    worker = start_worker(env, log, concurrency)
    try:
        wait_ready(worker, log, "worker scaling")
        host_before, began = host_busy_s(), time.time()
        with transaction.atomic():  # enqueued together when it commits, as a matchmaking pass does
            made = [match_create(kind=Match.Kind.LADDER, versions=versions, preset="classic", deals=2, rated=True)
                    for _ in range(matches)]
        ids = [match.pk for match in made]
        deadline = time.monotonic() + 60 + 10 * matches
        while (pending := Match.objects.filter(pk__in=ids, status__in=(Match.Status.QUEUED, Match.Status.RUNNING))
               .count()):
            if worker.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"worker scaling bench: {pending} of {matches} matches not played:\n"
                                 f"{log.read_text()[-3000:]}")
            time.sleep(0.05)
        host_cpu = host_busy_s() - host_before
    finally:
        os.killpg(worker.pid, signal.SIGTERM)  # a warm shutdown, as compose stops it
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
    done = Match.objects.filter(pk__in=ids)
    if failed := [match.pk for match in done if match.status != Match.Status.DONE]:
        raise SystemExit(f"worker scaling bench: matches {failed} did not finish as done:\n{log.read_text()[-3000:]}")
    played = [Played(0.0, match.started.timestamp(), match.finished.timestamp()) for match in done
              if match.started is not None and match.finished is not None]
    busy_matches, busy_s = matches_while_busy(min(match.began for match in played), played)
    wall = max(match.ended for match in played) - began
    return Turn(busy_matches, busy_s, wall, host_cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=12, help="matches in each turn's batch (at least 4)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of one referee and two, their order alternating")
    parser.add_argument("--database", default="postgres://postgres:postgres@127.0.0.1:5432/durak_bench_scaling")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--per-core", action="store_true",
                        help="no starts ahead and a core for each referee, one referee too: what a core gives")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="one round of four matches")
    args = parser.parse_args()
    if args.smoke:
        args.matches, args.rounds = 4, 1
    if args.matches < 4:
        parser.error(f"--matches {args.matches}: a batch needs at least 4, two per referee")
    arena_ready(args.database, args.broker)
    import redis

    turns: dict[int, list[Turn]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="durak-scaling-") as scratch:
        for round_ in range(args.rounds):
            for concurrency in (1, 2) if round_ % 2 == 0 else (2, 1):
                turns[concurrency].append(play_turn(concurrency, args.matches, Path(scratch),
                                                    PER_CORE if args.per_core else {}))
                print(f"round {round_ + 1}/{args.rounds}, {concurrency} referee(s): "
                      f"{turns[concurrency][-1].wall_s:.1f} s", file=sys.stderr, flush=True)
    redis.Redis.from_url(args.broker).flushdb()

    def rate(n: int) -> float:
        return sum(t.busy_matches for t in turns[n]) / sum(t.busy_s for t in turns[n])

    def host(n: int) -> float:
        return sum(t.host_cpu_s for t in turns[n]) / sum(t.wall_s for t in turns[n])

    each = [b.busy_matches / b.busy_s / (a.busy_matches / a.busy_s) for a, b in zip(turns[1], turns[2], strict=True)]
    figures = {
        "scaling_2_workers": round(rate(2) / rate(1), 2), "scaling_each_round": [round(r, 2) for r in each],
        "scaling_2_workers_batch": round(sum(t.wall_s for t in turns[1]) / sum(t.wall_s for t in turns[2]), 2),
        "matches_per_s": {"1": round(rate(1), 2), "2": round(rate(2), 2)},
        "host_cores": {"1": round(host(1), 2), "2": round(host(2), 2)}, "per_core": args.per_core,
    }
    rows = [
        ("2 referees vs 1, matches/s while both busy (x)", f"{figures['scaling_2_workers']:.2f}"),
        ("  each round (x)", " ".join(f"{r:.2f}" for r in each)),
        ("  median round (x)", f"{statistics.median(each):.2f}"),
        ("  whole batches, enqueued to stored (x)", f"{figures['scaling_2_workers_batch']:.2f}"),
        ("matches per second, 1 referee / 2", f"{rate(1):.2f} / {rate(2):.2f}"),
        ("cores the whole host kept busy, 1 referee / 2", f"{host(1):.2f} / {host(2):.2f}"),
    ]
    print(f"{args.matches} matches (gentle v random, 2 deals) per turn, {args.rounds} rounds, bwrap, "
          f"PostgreSQL and Redis, {'a core per referee' if args.per_core else 'settings as deployed'}")
    report(rows, figures if args.json else None, value_width=12)


if __name__ == "__main__":
    main()
