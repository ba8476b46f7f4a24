"""Referee processes take a core each where the host has none to spare, and their bots run on it."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from worker.referee import cores
from worker.referee.launch import REFEREES_ENV

CORES = len(os.sched_getaffinity(0))


def _claim(directory: str, referees: int, ready: Any, results: Any) -> None:
    """A pool process as Celery starts it: ``DURAK_REFEREES`` inherited, then ``claim_core``; it reports its core,
    its affinity and a child's, and holds the core until every process has claimed."""
    os.environ[REFEREES_ENV] = str(referees)
    os.environ.pop(cores.PIN_ENV, None)
    core = cores.claim_core(Path(directory))
    child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                           capture_output=True, text=True, check=True).stdout.strip()
    results.put((core, sorted(os.sched_getaffinity(0)), child))
    ready.wait(timeout=60)


def claims(directory: Path, referees: int, processes: int) -> list[tuple[int | None, list[int], str]]:
    context = multiprocessing.get_context("spawn")
    ready, results = context.Barrier(processes), context.Queue()
    started = [context.Process(target=_claim, args=(str(directory), referees, ready, results))
               for _ in range(processes)]
    for process in started:
        process.start()
    found = [results.get(timeout=60) for _ in started]
    for process in started:
        process.join(timeout=60)
        assert process.exitcode == 0
    return found


def test_as_many_referees_as_cores_take_one_core_each_and_their_children_run_there(tmp_path: Path) -> None:
    found = claims(tmp_path, referees=CORES, processes=CORES)
    assert sorted(core for core, _, _ in found if core is not None) == sorted(os.sched_getaffinity(0))
    for core, affinity, child in found:
        assert affinity == [core]
        assert child == str([core]), "a process the referee starts (a bot's launch chain) runs on its core"


def test_a_referee_past_the_cores_runs_unpinned(tmp_path: Path) -> None:
    found = claims(tmp_path, referees=CORES, processes=CORES + 1)
    unpinned = [affinity for core, affinity, _ in found if core is None]
    assert unpinned == [sorted(os.sched_getaffinity(0))]


@pytest.mark.skipif(CORES < 2, reason="a host with one core has no core to spare")
def test_with_a_core_to_spare_nothing_is_pinned(tmp_path: Path) -> None:
    """One referee on a host with more cores: its starts ahead and pooled sandboxes use the others."""
    found = claims(tmp_path, referees=CORES - 1, processes=1)
    assert found == [(None, sorted(os.sched_getaffinity(0)), str(sorted(os.sched_getaffinity(0))))]


def test_the_setting_wins_over_auto_and_a_wrong_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REFEREES_ENV, "1")
    assert cores.pinning("on") and not cores.pinning("off")
    assert cores.pinning("auto") == (CORES <= 1)
    with pytest.raises(ValueError, match="DURAK_PIN_CORES: 'always' is not one of auto, on, off"):
        cores.pinning("always")
    monkeypatch.setenv(REFEREES_ENV, "two")
    with pytest.raises(ValueError, match="DURAK_REFEREES: 'two' is not a positive whole number"):
        cores.pinning("auto")
