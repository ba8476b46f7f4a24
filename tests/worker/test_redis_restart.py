"""Redis restarted (or crashed) while matches wait in the queue: none may be lost.

Celery's Redis transport keeps a queued task as an element of a Redis list (the
queue ``referee``) and, once a worker holds it unacked, in the ``unacked`` hash;
both live only in Redis's memory. Whether they survive a Redis restart is
therefore Redis's persistence setting, not Celery's:

* ``--appendonly yes --appendfsync always``: every accepted ``LPUSH`` is in the
  append-only file before Redis answers, so a restart, even after ``kill -9``,
  reloads every queued match. (``everysec``, Redis's default with AOF, can lose
  the last second of writes on a crash; RDB snapshots lose everything since the
  last snapshot.)
* no persistence (how .ci/run starts the test Redis: ``--save "" --appendonly
  no``): a restart empties the queue; the matches are silently gone.

PRODUCTION REQUIREMENT: the broker Redis must run with ``appendonly yes`` (and
``appendfsync always``, or accept losing up to a second of queued matches on a
Redis crash), on a persistent volume for its ``--dir``. The compose file must
configure that. Both behaviours are tested below on a private Redis (port 6390,
its own directory) so the shared Redis on 6379 is never restarted.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.worker.test_celery_task import referee_env, start_worker, stop

PORT = 6390
URL = f"redis://127.0.0.1:{PORT}/0"
QUEUE = "referee"
MATCHES = 3


class PrivateRedis:
    """A redis-server of our own in ``directory``; ``restart`` stops it (SIGTERM or SIGKILL) and starts it again."""

    def __init__(self, directory: Path, *persistence: str) -> None:
        self.directory = directory
        self.persistence = list(persistence)
        self.process: subprocess.Popen[bytes] | None = None
        self.client = redis.Redis.from_url(URL)

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(PORT), "--bind", "127.0.0.1", "--dir", str(self.directory),
             "--save", "", *self.persistence, "--logfile", str(self.directory / "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                if self.client.ping():
                    return
            except redis.ConnectionError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                log = (self.directory / "redis.log").read_text() if (self.directory / "redis.log").exists() else ""
                raise RuntimeError(f"redis-server on port {PORT} did not start:\n{log}")
            time.sleep(0.05)

    def stop(self, signum: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signum)
            self.process.wait(timeout=10)
        self.client.connection_pool.disconnect()

    def restart(self, signum: int) -> None:
        self.stop(signum)
        self.start()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[Path]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    probe = redis.Redis(host="127.0.0.1", port=PORT)
    try:
        probe.ping()
        pytest.fail(f"something already listens on port {PORT}")
    except redis.ConnectionError:
        pass
    directory = tmp_path / "redis"
    directory.mkdir()
    from worker.celery import app

    saved = (app.conf.broker_url, app.conf.result_backend)
    yield directory
    app.conf.update(broker_url=saved[0], result_backend=saved[1])  # queue_matches pointed the app at us


def queue_matches() -> list[str]:
    """Send MATCHES tiny match specs (no sandbox) to the ``referee`` queue of the private Redis; their task ids."""
    from celery import Celery

    from worker.referee.match import MatchSpec

    # A sender of its own: the worker's app object may already hold a connection pool to another broker
    # (from earlier tests in this process), and would quietly send there.
    sender = Celery("queue-matches", broker=URL, backend=URL)
    sender.conf.update(task_serializer="json", accept_content=["json"])
    ids = []
    for index in range(MATCHES):
        spec = MatchSpec(("random", "gentle"), deals=1, seed=f"restart-{index}")
        outcome = sender.send_task("worker.tasks.play_match_spec", args=[spec.to_dict(), "none"], queue="referee")
        ids.append(outcome.id)
    sender.close()
    return ids


def test_queued_matches_survive_a_redis_crash_with_aof(private_redis: Path, tmp_path: Path) -> None:
    """Redis with ``appendonly yes, appendfsync always``; MATCHES matches queued while no worker runs; Redis is
    SIGKILLed (a crash, not even a clean shutdown) and started again; then a worker starts. Must happen: every
    queued match is still in the queue and completes, each exactly once."""
    server = PrivateRedis(private_redis, "--appendonly", "yes", "--appendfsync", "always")
    server.start()
    worker = None
    try:
        ids = queue_matches()
        assert server.client.llen(QUEUE) == MATCHES
        server.restart(signal.SIGKILL)
        assert server.client.llen(QUEUE) == MATCHES, "queued matches were lost in the restart"
        worker = start_worker(referee_env(URL), tmp_path / "worker.log")
        results: dict[str, dict[str, Any]] = {}
        deadline = time.monotonic() + 120
        while len(results) < MATCHES and time.monotonic() < deadline:
            for task_id in ids:
                raw = server.client.get(f"celery-task-meta-{task_id}")
                if raw is not None and json.loads(raw)["status"] in ("SUCCESS", "FAILURE"):
                    results[task_id] = json.loads(raw)
            time.sleep(0.2)
    finally:
        if worker is not None:
            stop(worker)
        server.stop()
    log = (tmp_path / "worker.log").read_text()
    assert len(results) == MATCHES, f"only {len(results)} of {MATCHES} matches completed; worker log:\n{log[-3000:]}"
    for task_id, meta in results.items():
        assert meta["status"] == "SUCCESS", meta
        assert len(meta["result"]["games"]) == 2
        assert log.count(f"Task worker.tasks.play_match_spec[{task_id}] succeeded") == 1


def test_without_persistence_a_restart_loses_the_queue(private_redis: Path) -> None:
    """The counter-example that makes AOF a production requirement: Redis as .ci/run starts it (no RDB, no AOF),
    matches queued, a clean restart (SIGTERM). The queue comes back empty: the matches are lost."""
    server = PrivateRedis(private_redis, "--appendonly", "no")
    server.start()
    try:
        queue_matches()
        assert server.client.llen(QUEUE) == MATCHES
        server.restart(signal.SIGTERM)
        assert server.client.llen(QUEUE) == 0
    finally:
        server.stop()
