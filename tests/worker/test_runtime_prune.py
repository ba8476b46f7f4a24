"""Old sandbox runtimes are removed once no process uses them, and never while one does.

Each runtime here is a folder with a ``pyvenv.cfg`` (what ``hold`` locks); the processes that use them are
real ones, holding the lock as a worker and its forked pool processes do. ``unused_for_a_day`` stands for the
day a runtime is kept after its last use began, so that only the lock keeps what a test expects to stay.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.worker.test_runtime_build import health
from worker.sandbox import runtime

ROOT = Path(__file__).resolve().parents[2]


def fake_runtime(cache: Path, name: str) -> Path:
    path = cache / f"runtime-{name}"
    (path / "lib").mkdir(parents=True)
    (path / "lib" / "module.py").write_text("x = 1\n")
    (path / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return path


def unused_for_a_day(path: Path) -> None:
    """As if no process had begun to use ``path`` for longer than a runtime is kept unused."""
    then = time.time() - runtime.KEEP_UNUSED_S - 60
    os.utime(path / "pyvenv.cfg", (then, then))


HOLDER = """
import os, sys, time
from pathlib import Path
from worker.sandbox.runtime import hold
assert hold(Path(sys.argv[1]))
if sys.argv[2] == "fork":  # as Celery's prefork pool: the child keeps it after the parent is gone
    if os.fork() == 0:
        print("held", flush=True)
        time.sleep(60)
    os._exit(0)
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def holders() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        process.kill()
        process.wait()


def start_holder(holders: list[subprocess.Popen[str]], path: Path) -> None:
    """Start a process that holds ``path`` until it is killed."""
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOLDER), str(path), "plain"], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    holders.append(process)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "held"


def test_a_runtime_in_use_stays_and_goes_once_nothing_holds_it(tmp_path: Path,
                                                              holders: list[subprocess.Popen[str]]) -> None:
    used, unused = fake_runtime(tmp_path, "used"), fake_runtime(tmp_path, "unused")
    start_holder(holders, used)
    unused_for_a_day(used)
    unused_for_a_day(unused)
    assert runtime.prune_runtimes(tmp_path) == ["runtime-unused"]
    assert used.is_dir() and not unused.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["runtime-used"], "the removal left something behind"
    holders[0].kill()
    holders[0].wait()
    assert runtime.prune_runtimes(tmp_path) == ["runtime-used"]
    assert list(tmp_path.iterdir()) == []


def test_a_forked_child_keeps_its_parents_runtime_after_the_parent_is_gone(
        tmp_path: Path, holders: list[subprocess.Popen[str]]) -> None:
    used = fake_runtime(tmp_path, "pool")
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOLDER), str(used), "fork"], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "held"
    assert process.wait(timeout=10) == 0  # the parent is gone, its child sleeps on
    unused_for_a_day(used)
    try:
        assert runtime.prune_runtimes(tmp_path) == []
        assert used.is_dir()
    finally:
        os.killpg(process.pid, 9)
    deadline = time.monotonic() + 10
    while runtime.prune_runtimes(tmp_path) == [] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not used.exists()


def test_a_runtime_used_within_a_day_stays_though_nothing_holds_it(tmp_path: Path) -> None:
    recent = fake_runtime(tmp_path, "recent")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(HOLDER).replace("time.sleep(60)", ""),
                           str(recent), "plain"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    unused_for_a_day(fake_runtime(tmp_path, "old"))
    assert runtime.prune_runtimes(tmp_path) == ["runtime-old"]
    assert recent.is_dir()


def test_this_processs_runtime_stays_and_dead_builds_and_removals_go(tmp_path: Path) -> None:
    mine = fake_runtime(tmp_path, "mine")
    assert runtime.hold(mine)
    unused_for_a_day(mine)
    old_build, new_build = tmp_path / ".building-old", tmp_path / ".building-new"
    old_removal = tmp_path / ".removing-runtime-x-old"
    for path in (old_build, new_build, old_removal):
        (path / "lib").mkdir(parents=True)
    an_hour_ago = time.time() - runtime.LEFTOVER_S - 60
    for path in (old_build, old_removal):
        os.utime(path, (an_hour_ago, an_hour_ago))
    removed = runtime.prune_runtimes(tmp_path)
    assert sorted(removed) == [".building-old", ".removing-runtime-x-old"]
    assert mine.is_dir() and new_build.is_dir(), "a build under way, or this process's runtime, was removed"


def test_a_process_that_asks_for_a_runtime_being_removed_gets_none(tmp_path: Path) -> None:
    doomed = fake_runtime(tmp_path, "doomed")
    asker = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from worker.sandbox.runtime import hold; "
         "print(hold(Path(sys.argv[1])), flush=True)", str(doomed)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert asker.stdout is not None
    # What a prune does, slowed down: it holds the lock while the asker opens and waits for it, then moves it away.
    fd = os.open(doomed / "pyvenv.cfg", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    time.sleep(0.5)
    os.replace(doomed, tmp_path / ".removing-doomed")
    os.close(fd)
    assert asker.stdout.readline().strip() == "False"
    assert asker.wait(timeout=10) == 0


def test_a_worker_start_removes_the_runtimes_nothing_uses(tmp_path: Path) -> None:
    """``python -m worker.health --prepare``, what a worker runs at start, builds its runtime and removes an
    unused one, and says so."""
    stale = fake_runtime(tmp_path, "0000000000000000")
    unused_for_a_day(stale)
    done = health("--prepare", env={**os.environ, "DURAK_RUNTIME_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "runtime-0000000000000000" in done.stderr
    assert not stale.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("runtime-")] == [
        runtime.runtime_path(tmp_path).name]
