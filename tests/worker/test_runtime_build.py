"""The bots' runtime: built from the SDK's Python files only, by the worker before it takes work, never in a task.

The bug this guards against: ``npm ci`` in a starter kit (``bots_sdk/examples/``) changed the runtime's
fingerprint, a Celery pool process rebuilt it, ``compileall`` failed ("daemonic processes are not allowed to
have children"), and every match failed from then on.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from celery import Celery

import bots_sdk
from tests.worker.test_celery_task import BROKER, referee_env, start_worker, stop
from worker.referee.match import MatchSpec
from worker.sandbox import runtime

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def celery_env() -> Iterator[dict[str, str]]:
    client = redis.Redis.from_url(BROKER)
    client.flushdb()
    yield referee_env(BROKER)
    client.flushdb()


@pytest.fixture
def sdk_copy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The installed SDK copied aside, and the runtime pointed at the copy (so the test may write into it)."""
    copy = tmp_path / "bots_sdk"
    shutil.copytree(bots_sdk.__path__[0], copy, ignore=shutil.ignore_patterns("node_modules"))
    monkeypatch.setattr(runtime, "_sdk_dir", lambda: copy)
    return copy


def test_the_fingerprint_ignores_examples_node_modules_templates_and_caches(sdk_copy: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    before = runtime.runtime_path(cache)
    node = sdk_copy / "examples" / "javascript"
    (node / "node_modules" / "@grpc" / "grpc-js").mkdir(parents=True)
    (node / "node_modules" / "@grpc" / "grpc-js" / "index.js").write_text("module.exports = {}\n")
    (node / "node_modules" / "gyp.py").write_text("print('a python file an npm package ships')\n")
    (node / "package-lock.json").write_text("{}\n")
    (sdk_copy / "__pycache__").mkdir(exist_ok=True)
    (sdk_copy / "__pycache__" / "stale.cpython-311.pyc").write_bytes(b"\0" * 16)
    (sdk_copy / "templates" / "newbot" / "extra.py").write_text("x = 1\n")
    assert runtime.runtime_path(cache) == before
    (sdk_copy / "remote.py").write_text((sdk_copy / "remote.py").read_text() + "\n# an SDK change\n")
    assert runtime.runtime_path(cache) != before, "an edit of an SDK module must make a new runtime"


def test_the_runtime_holds_the_sdk_modules_and_nothing_of_the_examples(sdk_copy: Path, tmp_path: Path) -> None:
    (sdk_copy / "examples" / "javascript" / "node_modules").mkdir(parents=True)
    (sdk_copy / "examples" / "javascript" / "node_modules" / "big.bin").write_bytes(b"x" * 1000)
    built = runtime.build_runtime(tmp_path / "cache")
    site = next(built.glob("lib/python*/site-packages"))
    assert (site / "bots_sdk" / "server.py").is_file() and (site / "bots_sdk" / "bots" / "gentle.py").is_file()
    assert not (site / "bots_sdk" / "examples").exists() and not (site / "bots_sdk" / "templates").exists()
    assert subprocess.run([str(built / "bin" / "python"), "-c", "import grpc, bots_sdk.server"],
                          capture_output=True, timeout=60).returncode == 0


def health(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "worker.health", "--sandbox", "bwrap", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def runtime_dir() -> Iterator[Path]:
    """A runtime cache of its own, under /tmp (slot uids must traverse it)."""
    where = Path(tempfile.mkdtemp(prefix="durak-runtime-test-"))
    where.chmod(0o755)
    yield where
    shutil.rmtree(where, ignore_errors=True)


def test_the_worker_builds_the_runtime_at_start_and_a_task_never_does(
    celery_env: dict[str, str], runtime_dir: Path, tmp_path: Path
) -> None:
    env = {**celery_env, "DURAK_RUNTIME_DIR": str(runtime_dir), "ARENA_SANDBOX": "bwrap"}
    assert health(env=env).stdout.startswith("not ok: the sandbox runtime")  # nothing built yet
    log = tmp_path / "worker.log"
    worker = start_worker(env, log)
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "ready." in log.read_text(), log.read_text()
        checked = health(env=env)
        assert checked.returncode == 0 and checked.stdout.startswith("ok: sandbox bwrap, runtime"), checked.stdout
        built = [path.name for path in runtime_dir.glob("runtime-*")]
        assert len(built) == 1
        shutil.rmtree(runtime_dir / built[0])  # stale now, as after an SDK upgrade under a running worker
        spec = MatchSpec(("random", "gentle"), deals=1, seed="stale")
        client = Celery("sender", broker=BROKER)
        client.send_task("worker.tasks.play_match_spec", args=[spec.to_dict(), "bwrap"], queue="referee")
        deadline = time.monotonic() + 30
        while "Retry in" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        text = log.read_text()
        assert "Retry in" in text and "missing or stale" in text, text[-3000:]
        assert "daemonic" not in text
        assert not list(runtime_dir.glob("runtime-*")), "a task rebuilt the runtime"
        stale = health(env=env)
        assert stale.returncode == 1 and "missing or stale" in stale.stdout
    finally:
        stop(worker)
    prepared = health("--prepare", env=env)
    assert prepared.returncode == 0, prepared.stdout


def test_a_worker_that_cannot_build_the_runtime_refuses_work(celery_env: dict[str, str], tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    env = {**celery_env, "DURAK_RUNTIME_DIR": str(blocked / "runtime")}
    result = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "worker.celery", "worker", "-Q", "referee", "--concurrency", "1",
         "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 78, result.stderr[-2000:]
    assert "refusing matches: cannot build the sandbox runtime" in result.stderr
    assert os.path.exists(blocked) and not blocked.is_dir()
