"""A bot plays on its referee's core, wherever it was started, and cannot leave it.

Played as a worker's referee plays (worker/referee/cores.py): in a fresh process that claimed a core for its
games, alone on a host with a core to spare, so the second seat rotation's bots start ahead on the other cores
and are moved when they are seated. The bot reports where it was started and, at its first decision, where
every one of its threads runs (a thread it started at its start included); it also tries to put itself on
every core.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import tempfile
from pathlib import Path

import pytest

from tests.worker.evil.arena import evil_bot, play
from worker.referee import cores
from worker.referee.launch import Launcher
from worker.referee.match import START_AHEAD_ENV

CORES = sorted(os.sched_getaffinity(0))

PLACED = """
    import threading
    STARTED = sorted(os.sched_getaffinity(0))
    attempt('escape', lambda: os.sched_setaffinity(0, set(range(os.cpu_count()))))
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()  # a thread of its own, born where it is
    report()
"""
WATCHED = """
    def threads_cores():
        found = {}
        for task in os.listdir('/proc/self/task'):
            status = open(f'/proc/self/task/{task}/status').read()
            found[task] = status.split('Cpus_allowed_list:')[1].split()[0]
        return found
    class Placed(RandomBot):
        reported = False
        def choose_action(self, observation):
            if not self.reported:
                self.reported = True
                print('CORES ' + json.dumps({'started': STARTED, 'threads': threads_cores()}), file=sys.stderr,
                      flush=True)
            return super().choose_action(observation)
"""


def _play_as_a_worker(folder: str, directory: str) -> tuple[int | None, list[str], bool, str]:
    """In a fresh process: a referee alone on the host claims its core, then plays ``folder`` against random."""
    os.environ[cores.REFEREES_ENV] = "1"
    os.environ[START_AHEAD_ENV] = "auto"
    core = cores.claim_core(Path(directory))
    from worker.referee.launch import launcher_for

    played = play(launcher_for("bwrap"), folder, deals=1)
    return core, [launch.log() for launch in played.launches], played.normal, played.describe()


def cores_of(listing: str) -> list[int]:
    """``Cpus_allowed_list`` ("0-1,3") as a list of cores."""
    found: list[int] = []
    for part in listing.split(","):
        first, _, last = part.partition("-")
        found += range(int(first), int(last or first) + 1)
    return found


@pytest.mark.skipif(len(CORES) < 2, reason="one core: nothing to start ahead on, nowhere to escape to")
def test_a_bot_plays_on_its_referees_core_and_cannot_leave_it(arena: Launcher, tmp_path: Path) -> None:
    """Attack: at its start the bot asks for every core, and starts a thread there. Must happen: refused (EPERM);
    the first rotation's bot, started while the match waited, started on every core, and the second's, started
    ahead while the first played, off the game core; at the first decision of either, every thread of the bot
    runs on the game core only; both games end normally."""
    folder = evil_bot(tmp_path, "placed", probes=True, prelude=PLACED, body=WATCHED, bot="Placed()")
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as directory, context.Pool(1) as referee:
        core, logs, normal, described = referee.apply(_play_as_a_worker, (folder, directory))
    assert core is not None and normal, described
    assert len(logs) == 2, "one start per seat rotation"
    for rotation, log in enumerate(logs):
        assert "PROBE " + '{"escape": "EPERM"}' in log, log
        found = re.search(r"^CORES (.*)$", log, re.MULTILINE)
        assert found is not None, log
        placed = json.loads(found.group(1))
        assert placed["started"] == (CORES if rotation == 0 else [c for c in CORES if c != core]), (rotation, placed)
        assert len(placed["threads"]) >= 2, placed
        assert {task: cores_of(listing) for task, listing in placed["threads"].items()} == {
            task: [core] for task in placed["threads"]}, (rotation, placed)
