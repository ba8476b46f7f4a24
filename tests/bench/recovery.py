"""Recovery: how long until a broken or dead worker's matches are failed or re-queued and the ladder plays on.

    flock /work/wt/sandbox.lock .venv/bin/python tests/bench/recovery.py            # beat's 60 s tick
    flock /work/wt/sandbox.lock .venv/bin/python tests/bench/recovery.py --smoke    # 1 s tick, seconds

Two cases, on a real Celery worker (prefork, Redis broker, PostgreSQL), a two-player ladder of the reference
bots (random, gentle) at a queue depth of one:

1. **A worker that raises on every match.** The worker starts with the bwrap sandbox and its runtime under a
   private ``DURAK_RUNTIME_DIR``; once it is ready the runtime is deleted, as after an SDK upgrade under a
   running worker, so every match it takes raises (``RuntimeStale``, the sandbox unavailable). Measured: from
   the match's creation to its end as failed (it is re-queued ``ARENA_TASK_ATTEMPTS`` times first, with
   Celery's backoff), and from then to the matchmaker's next match.
2. **A worker that died holding a match.** A match is claimed by a task no worker runs, with a deadline
   ``--deadline`` seconds ahead. Measured from the deadline: until the matchmaker creates a new match
   (a match past its deadline holds no place in the queue) and until the reaper re-queues it.

Beat's periodic tasks are the passes the bench calls every ``--tick`` seconds (60 s, as the schedules run
them; ``--smoke``: 1 s): ``matchmaking_pass`` and ``reap``, the functions behind ``fill_ladders`` and
``reap_overdue``. The target: within 2 minutes of the deadline (case 2), and of the failure (case 1).

The bench owns a PostgreSQL database (``--database``, created and migrated if missing; its matches are
deleted at each start) and a Redis database (``--broker``, flushed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


@dataclass
class Figures:
    fail_s: float
    """Case 1: creation to failed."""
    next_after_fail_s: float
    """Case 1: failed to the next match."""
    new_after_deadline_s: float
    """Case 2: deadline to a new match."""
    reaped_after_deadline_s: float
    """Case 2: deadline to re-queued."""


def database_ready(url: str) -> None:
    """Create the bench's database if it is missing (it is migrated once Django is set up)."""
    name = str(conninfo_to_dict(url)["dbname"])
    admin = make_conninfo(url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def arena_ready(database: str, broker: str) -> None:
    """The bench's own arena, Django set up on it: its PostgreSQL database created and migrated, its Redis
    database flushed, no matches, the reference bots random and gentle active (strong retired: it is slow)."""
    database_ready(database)
    os.environ.update(DATABASE_URL=database, ARENA_TEST_BROKER_URL=broker,
                      DJANGO_SETTINGS_MODULE="tests.django_settings")
    import django
    import redis

    django.setup()
    from django.core.management import call_command

    from arena.bots.models import BotVersion
    from arena.bots.services import reference_versions_ensure
    from arena.matches.models import Match

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(broker).flushdb()
    Match.objects.all().delete()
    reference_versions_ensure()
    BotVersion.objects.filter(reference="strong").update(status=BotVersion.Status.RETIRED)


def ticker(tick_s: float) -> Callable[[], None]:
    """One beat tick: the matchmaking pass and the reaper, as their periodic tasks run them."""
    from arena.matchmaking.services import matchmaking_pass
    from arena.ops.reaper import reap

    last = [0.0]

    def tick() -> None:
        if time.monotonic() - last[0] < tick_s:
            return
        last[0] = time.monotonic()
        matchmaking_pass()
        reap()

    return tick


def wait(condition: Callable[[], datetime | None], tick: Callable[[], None], timeout: float) -> datetime:
    """Tick until ``condition`` gives the time of what it waits for."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tick()
        found = condition()
        if found is not None:
            return found
        time.sleep(0.1)
    raise SystemExit(f"recovery bench: nothing happened within {timeout:.0f} s")


def start_worker(env: dict[str, str], log: Path, concurrency: int = 1) -> subprocess.Popen[bytes]:
    """A real Celery worker on the queues the compose file's ``worker`` takes, in its own process group."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "worker.celery", "worker", "-Q", "referee,default", "--concurrency",
         str(concurrency), "--pool", "prefork", "--loglevel", "INFO", "--without-gossip", "--without-mingle",
         "--without-heartbeat"], cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_ready(worker: subprocess.Popen[bytes], log: Path, bench: str) -> None:
    """Until the worker logs that it is ready; exits with its log if it dies or takes two minutes."""
    ready = time.monotonic() + 120
    while "ready." not in log.read_text():
        if worker.poll() is not None or time.monotonic() > ready:
            raise SystemExit(f"{bench} bench: the worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)


def measure(args: argparse.Namespace, scratch: Path) -> Figures:
    from django.utils import timezone

    from arena.matches.models import Match
    from arena.matches.services import match_claim
    from arena.notices import shown

    tick = ticker(args.tick)
    runtime = scratch / "runtime"
    runtime.mkdir(mode=0o755)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.django_settings", "PYTHONPATH": str(ROOT),
           "DURAK_RUNTIME_DIR": str(runtime), "ARENA_SANDBOX": "bwrap", "ARENA_MATCHMAKING_QUEUE_DEPTH": "1"}
    log = scratch / "worker.log"
    worker = start_worker(env, log)
    try:
        wait_ready(worker, log, "recovery")
        shutil.rmtree(runtime)  # every match this worker takes now raises

        # Case 1: the worker raises on every match.
        tick()
        first = Match.objects.order_by("pk").last()
        assert first is not None, "the matchmaker made no match"
        failed = wait(lambda: Match.objects.filter(pk=first.pk, status=Match.Status.FAILED)
                      .values_list("finished", flat=True).first(), tick, 120 + 3 * args.tick)
        following = wait(lambda: Match.objects.filter(pk__gt=first.pk).values_list("created", flat=True).first(),
                         tick, 120 + 3 * args.tick)
        first.refresh_from_db()
        print(f"case 1: match {first.pk} failed after {first.attempts} attempts: {shown(first.public_error)}",
              flush=True)
    finally:
        os.killpg(worker.pid, signal.SIGKILL)  # case 2's worker is dead: nobody plays what it claimed
        worker.wait()
    Match.objects.filter(status__in=(Match.Status.QUEUED, Match.Status.RUNNING)).update(
        status=Match.Status.FAILED, finished=timezone.now())

    # Case 2: a worker died holding a match.
    from arena.matchmaking.services import matchmaking_pass

    (stuck,) = matchmaking_pass()
    assert match_claim(match_id=stuck.pk, task_id="dead", worker="gone@bench") is not None
    due = timezone.now() + timedelta(seconds=args.deadline)
    Match.objects.filter(pk=stuck.pk).update(deadline=due)
    new = wait(lambda: Match.objects.filter(pk__gt=stuck.pk).values_list("created", flat=True).first(), tick,
               args.deadline + 3 * args.tick + 30)
    requeued = wait(lambda: timezone.now() if Match.objects.filter(pk=stuck.pk, reaped=1).exists() else None, tick,
                    args.deadline + 3 * args.tick + 30)
    return Figures(
        fail_s=(failed - first.created).total_seconds(), next_after_fail_s=(following - failed).total_seconds(),
        new_after_deadline_s=max(0.0, (new - due).total_seconds()),
        reaped_after_deadline_s=max(0.0, (requeued - due).total_seconds()),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="a 1 s tick and a 2 s deadline: seconds, not minutes")
    parser.add_argument("--tick", type=float, default=60.0, help="seconds between beat's passes (default 60)")
    parser.add_argument("--deadline", type=float, default=30.0, help="seconds from the dead claim to its deadline")
    parser.add_argument("--database", default="postgres://postgres:postgres@127.0.0.1:5432/durak_bench_recovery")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.tick, args.deadline = 1.0, 2.0
    arena_ready(args.database, args.broker)
    import redis
    from django.conf import settings

    settings.ARENA_MATCHMAKING_LADDERS = {"classic-2": 1}
    settings.ARENA_MATCHMAKING_QUEUE_DEPTH = 1
    settings.ARENA_MATCHMAKING_DEALS = 1
    scratch = Path(tempfile.mkdtemp(prefix="durak-recovery-"))
    scratch.chmod(0o755)
    try:
        figures = measure(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        redis.Redis.from_url(args.broker).flushdb()
    rows = [
        (f"case 1: match created -> failed ({settings.ARENA_TASK_ATTEMPTS} attempts) (s)", figures.fail_s),
        ("case 1: failed -> next match created (s)", figures.next_after_fail_s),
        ("case 2: deadline -> new match created (s)", figures.new_after_deadline_s),
        ("case 2: deadline -> match re-queued by the reaper (s)", figures.reaped_after_deadline_s),
    ]
    print(f"beat tick {args.tick:.0f} s, dead claim's deadline {args.deadline:.0f} s ahead")
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>8.1f}")
    if args.json:
        print(json.dumps({key: round(value, 1) for key, value in vars(figures).items()}))


if __name__ == "__main__":
    main()
