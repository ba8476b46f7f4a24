"""The referee task on a real Celery worker process against the real Redis (database 15, or the run's own
``ARENA_TEST_BROKER_URL``: docs/development.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from celery import Celery

from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.e2e.processes import marked

ROOT = Path(__file__).resolve().parents[2]
BROKER = os.environ.get("ARENA_TEST_BROKER_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def celery_env() -> Iterator[dict[str, str]]:
    client = redis.Redis.from_url(BROKER)
    try:
        client.ping()
    except redis.ConnectionError:
        pytest.fail("Redis is not running on 127.0.0.1:6379 (.ci/run starts it)")
    client.flushdb()
    yield referee_env(BROKER)
    client.flushdb()


def start_worker(
    env: dict[str, str], log: Path, queues: str = "referee", concurrency: int = 1
) -> subprocess.Popen[bytes]:
    """A real worker process (``concurrency`` prefork children) in its own process group, logging to ``log``."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "worker.celery", "worker", "-Q", queues, "--concurrency",
         str(concurrency),
         "--pool", "prefork", "--loglevel", "INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
    )


def referee_env(broker: str) -> dict[str, str]:
    """A referee worker's environment on its own, without the arena's Django settings (which keep results in
    the database instead of the broker)."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env.update(CELERY_BROKER_URL=broker, CELERY_RESULT_BACKEND=broker, PYTHONPATH=str(ROOT))
    return env


def sender() -> Celery:
    """A client app of its own: the worker package's app may already be bound to another broker and backend."""
    return Celery("sender", broker=BROKER, backend=BROKER)


def stop(process: subprocess.Popen[bytes], warm: bool = False) -> None:
    """SIGTERM to the worker's whole group; ``warm``: to its main process only, so an idle pool child reports
    what it did before it goes (a child killed first has its last task logged as lost)."""
    if process.poll() is None:
        if warm:
            os.kill(process.pid, signal.SIGTERM)
        else:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_a_worker_plays_a_match_spec_and_returns_replayable_records(
    celery_env: dict[str, str], tmp_path: Path
) -> None:
    from worker.referee.match import MatchSpec

    app = sender()
    worker = start_worker(celery_env, tmp_path / "worker.log")
    try:
        spec = MatchSpec(("random", "gentle"), deals=2, seed="celery")
        outcome = app.send_task("worker.tasks.play_match_spec", args=[spec.to_dict(), "none"], queue="referee")
        result = outcome.get(timeout=120)
    finally:
        stop(worker)
    games = result["games"]
    assert [(g["deal"], g["seats"]) for g in games] == [(0, [0, 1]), (0, [1, 0]), (1, [0, 1]), (1, [1, 0])]
    for game in games:
        record = GameRecord.from_dict(game["record"])
        assert replay(record).status == "ok"
        assert game["offender"] is None
    assert worker.returncode is not None


def cores_allowed(pid: int) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Cpus_allowed_list:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no Cpus_allowed_list for {pid}")


def test_a_referee_worker_with_a_child_per_core_gives_each_a_core_of_its_own(
    celery_env: dict[str, str], tmp_path: Path
) -> None:
    """worker/referee/cores.py in a real worker: as many pool processes as cores, each on its own core, while the
    main process (which plays nothing) keeps every core."""
    cores = sorted(os.sched_getaffinity(0))
    worker = start_worker(celery_env, tmp_path / "worker.log", concurrency=len(cores))
    try:
        deadline = time.monotonic() + 60
        while True:
            children = [int(pid) for pid in Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()]
            allowed = sorted(cores_allowed(pid) for pid in children)
            if len(children) == len(cores) and all("," not in a and "-" not in a for a in allowed):
                break
            assert time.monotonic() < deadline, (allowed, (tmp_path / "worker.log").read_text()[-3000:])
            time.sleep(0.2)
        assert allowed == sorted(str(core) for core in cores)
        main = cores_allowed(worker.pid)
        assert main == (str(cores[0]) if len(cores) == 1 else f"{cores[0]}-{cores[-1]}")
    finally:
        stop(worker)


def test_a_worker_that_plays_no_match_leaves_the_cores_to_the_referees(
    celery_env: dict[str, str], tmp_path: Path
) -> None:
    """An analysis worker with a child per core, as ``durak-arena`` starts one beside its referees: none of its
    pool processes claims a core (a core held by it would be one no referee could play on)."""
    cores = sorted(os.sched_getaffinity(0))
    everything = str(cores[0]) if len(cores) == 1 else f"{cores[0]}-{cores[-1]}"
    log = tmp_path / "worker.log"
    worker = start_worker(celery_env, log, queues="analysis", concurrency=len(cores))
    try:
        deadline = time.monotonic() + 60
        while b" ready." not in log.read_bytes():
            assert time.monotonic() < deadline and worker.poll() is None, log.read_text()[-3000:]
            time.sleep(0.2)
        time.sleep(1.0)  # a pool process claims its core as it starts, well before its worker says ready
        children = [int(pid) for pid in Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()]
        assert len(children) == len(cores), log.read_text()[-3000:]
        assert [cores_allowed(pid) for pid in children] == [everything] * len(cores)
    finally:
        stop(worker)


def bot_processes(marker: str) -> set[int]:
    """Pids of the processes serving bots (``python -m bots_sdk.bots``) that this test's workers started: they
    inherit ``marker`` in their environment, other runs' bots on the machine do not."""
    found = set()
    for pid in marked(marker):
        try:
            if b"bots_sdk.bots" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
        except OSError:
            continue
    return found


def test_a_match_survives_its_worker_being_killed(
    celery_env: dict[str, str], tmp_path: Path
) -> None:
    """SIGKILL the worker mid-match: the broker delivers the match again and it finishes, with one result."""
    marker = uuid.uuid4().hex
    env = {**celery_env, "DURAK_VISIBILITY_TIMEOUT_S": "6", "DURAK_MATCH_TIME_LIMIT_S": "5",
           "DURAK_RESTORE_INTERVAL_S": "1", "DURAK_TEST_MARK": marker}
    from worker.referee.match import MatchSpec

    app = sender()
    first = start_worker(env, tmp_path / "first.log")
    spec = MatchSpec(("gentle", "random"), deals=1, seed="killed")
    outcome = app.send_task("worker.tasks.play_match_spec", args=[spec.to_dict(), "none"], queue="referee")
    deadline = time.monotonic() + 30
    while not bot_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.05)  # the match has started once its bots run
    assert bot_processes(marker), (tmp_path / "first.log").read_text()
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    time.sleep(0.5)
    assert not bot_processes(marker), "the killed worker's bots outlived it"
    second = start_worker(env, tmp_path / "second.log")
    try:
        result = outcome.get(timeout=90)
    finally:
        stop(second, warm=True)
    assert len(result["games"]) == 2
    assert all(replay(GameRecord.from_dict(g["record"])).status == "ok" for g in result["games"])
    # Played to the end exactly once: by the second worker, after the broker gave it back.
    finished = f"Task worker.tasks.play_match_spec[{outcome.id}] succeeded in "
    assert (tmp_path / "second.log").read_text().count(finished) == 1
    assert "succeeded" not in (tmp_path / "first.log").read_text()
