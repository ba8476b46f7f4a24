"""Referee processes play on a core each, what they start runs there, and their other work on the spare cores."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from worker.referee import cores
from worker.referee.cores import REFEREES_ENV

CORES = len(os.sched_getaffinity(0))
ALL = sorted(os.sched_getaffinity(0))
Claim = tuple[int | None, list[int], str, dict[str, list[int]]]
"""What a claiming process reports: its core, its affinity, a child's, and its threads' beside the games."""


def _claim(directory: str, referees: int, claimed: Any, results: Any) -> None:
    """A pool process as Celery starts it: ``DURAK_REFEREES`` inherited, then ``claim_core``; once every process
    has claimed, it reports its core, its affinity and a child's, and where a thread runs after ``off_game_core``
    (the starts ahead, the pool, the kills) and after ``own_and_free_cores`` (the starts a match waits for), then
    holds its core until every process has reported."""
    os.environ[REFEREES_ENV] = str(referees)
    os.environ.pop(cores.PIN_ENV, None)
    core = cores.claim_core(Path(directory))
    claimed.wait(timeout=60)
    child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                           capture_output=True, text=True, check=True).stdout.strip()
    placed: dict[str, list[int]] = {}

    def beside() -> None:
        cores.off_game_core()
        placed["off"] = sorted(os.sched_getaffinity(0))
        cores.own_and_free_cores()
        placed["waited"] = sorted(os.sched_getaffinity(0))

    thread = threading.Thread(target=beside)
    thread.start()
    thread.join()
    results.put((core, sorted(os.sched_getaffinity(0)), child, placed))
    claimed.wait(timeout=60)


def claims(directory: Path, referees: int, processes: int) -> list[Claim]:
    context = multiprocessing.get_context("spawn")
    claimed, results = context.Barrier(processes), context.Queue()
    started = [context.Process(target=_claim, args=(str(directory), referees, claimed, results))
               for _ in range(processes)]
    for process in started:
        process.start()
    found = [results.get(timeout=60) for _ in started]
    for process in started:
        process.join(timeout=60)
        assert process.exitcode == 0
    return found


def test_as_many_referees_as_cores_take_one_core_each_and_all_their_work_runs_there(tmp_path: Path) -> None:
    found = claims(tmp_path, referees=CORES, processes=CORES)
    assert sorted(core for core, _, _, _ in found if core is not None) == ALL
    for core, affinity, child, placed in found:
        assert affinity == [core]
        assert child == str([core]), "a process the referee starts (a bot's launch chain) runs on its core"
        assert placed == {"off": [core], "waited": [core]}, "no core to spare: everything stays on its core"


def test_a_referee_past_the_cores_runs_unpinned(tmp_path: Path) -> None:
    found = claims(tmp_path, referees=CORES, processes=CORES + 1)
    unpinned = [(affinity, placed) for core, affinity, _, placed in found if core is None]
    assert unpinned == [(ALL, {"off": ALL, "waited": ALL})]


@pytest.mark.skipif(CORES < 2, reason="a host with one core has no core to spare")
def test_with_a_core_to_spare_the_games_take_one_and_the_rest_runs_on_the_others(tmp_path: Path) -> None:
    """One referee on a host with more cores: its games on one (its starts in the foreground too), its starts
    ahead, pooled sandboxes and kills on the others, and the starts the match waits for on all."""
    [(core, affinity, child, placed)] = claims(tmp_path, referees=CORES - 1, processes=1)
    assert core is not None and affinity == [core] and child == str([core])
    assert placed == {"off": [c for c in ALL if c != core], "waited": ALL}


@pytest.mark.skipif(CORES < 2, reason="a host with one core has one referee at most")
def test_work_beside_the_games_never_lands_on_another_referees_core(tmp_path: Path) -> None:
    """More referees than ``DURAK_REFEREES`` says (a second worker on the host that nobody counted): every core is
    played on, so what a referee does beside its games stays on its own core rather than on another's."""
    found = claims(tmp_path, referees=1, processes=CORES)
    assert sorted(core for core, _, _, _ in found if core is not None) == ALL
    for core, _, _, placed in found:
        assert placed == {"off": [core], "waited": [core]}, (core, placed)


def test_the_setting_and_a_wrong_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert cores.pinning() and cores.pinning("on") and not cores.pinning("off")
    with pytest.raises(ValueError, match="DURAK_PIN_CORES: 'auto' is not one of on, off"):
        cores.pinning("auto")
    monkeypatch.setenv(cores.PIN_ENV, "off")
    assert cores.claim_core(tmp_path) is None and cores.game_core() is None
    monkeypatch.setenv(REFEREES_ENV, "two")
    with pytest.raises(ValueError, match="DURAK_REFEREES: 'two' is not a positive whole number"):
        cores.spare_core()
