"""Resource exhaustion: the bot may lose its games, but the limits hold and the referee (the worker) is unharmed.

After each attack the same launcher plays a clean match, and the referee
process holds no more file descriptors than before (docs/sandbox.md section 10, rows 13-17).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.worker.evil.arena import EVIL, Played, evil_bot, open_fds, play
from worker.referee.launch import Launcher

MIB = 1 << 20
LOG_CAP = 16 * MIB
"""RLIMIT_FSIZE of the default limits: the bot's log file cannot grow past it."""


@pytest.fixture
def referee_unharmed(arena: Launcher, tmp_path: Path) -> Iterator[None]:
    """After the attack: the referee's fd count is back where it was, and a clean match still plays normally."""
    before = open_fds()
    yield
    after = play(arena, evil_bot(tmp_path, "clean-after"))
    assert after.normal, after.describe()
    assert open_fds() <= before + 4, f"the referee leaked file descriptors: {before} -> {open_fds()}"


def only_evil_faults(played: Played) -> None:
    """Every game ended normally or with the evil bot at fault: never the opponent, never an exception."""
    assert played.results
    for result in played.results:
        assert result.offender is None or result.seats[result.offender] == EVIL, played.describe()


@pytest.mark.usefixtures("referee_unharmed")
def test_log_flood_is_capped_and_never_stalls(arena: Launcher, tmp_path: Path) -> None:
    """Attack: write 64 MiB to stdout on every one of the first moves (stdout is the log file the worker opened).
    Must happen: the writes fail with EFBIG at RLIMIT_FSIZE, the log file is at most 16 MiB, the referee keeps
    only a bounded tail in memory, the match completes normally and quickly (the worker never stalls on it)."""
    folder = evil_bot(tmp_path, "flood", body="""
        class Flood(RandomBot):
            moves = 0
            def choose_action(self, observation):
                self.moves += 1
                if self.moves <= 3:
                    chunk = b'spam ' * (200 << 10) + b'\\n'
                    try:
                        for _ in range(64):
                            sys.stdout.buffer.write(chunk)
                    except OSError:
                        pass
                return super().choose_action(observation)
    """, bot="Flood()")
    played = play(arena, folder, move_s=1.0)
    assert played.normal, played.describe()
    assert played.seconds < 10, f"the match took {played.seconds:.1f} s"
    for launch in played.launches:
        assert launch.log_bytes_at_kill is not None and 15 * MIB <= launch.log_bytes_at_kill <= LOG_CAP, (
            launch.log_bytes_at_kill)
        assert len(launch.log(10**6).encode()) <= 64 * 1024 + 1024, "the kept log tail is not bounded"


@pytest.mark.usefixtures("referee_unharmed")
def test_fd_exhaustion_hits_emfile(arena: Launcher, tmp_path: Path) -> None:
    """Attack: on its first move, open /dev/null until refused and keep every descriptor. Must happen: EMFILE
    below RLIMIT_NOFILE (256); the bot plays on (its connection is already open) or forfeits; never the
    opponent; the referee is unharmed."""
    folder = evil_bot(tmp_path, "fds", probes=True, body="""
        class Fds(RandomBot):
            held = []
            def choose_action(self, observation):
                if not self.held:
                    def exhaust():
                        while True:
                            self.held.append(open('/dev/null'))
                    attempt('open', exhaust)
                    RESULTS['count'] = len(self.held)
                    report()
                return super().choose_action(observation)
    """, bot="Fds()")
    played = play(arena, folder)
    probe = played.probe()
    assert probe["open"] == "EMFILE" and probe["count"] < 256, probe
    only_evil_faults(played)


FORK_BOMB = """
import subprocess
bomb = ("import os, time\\nn = 0\\nwhile True:\\n    try:\\n        pid = os.fork()\\n"
        "    except OSError as error:\\n        print('FORKS', n, error.errno, flush=True); break\\n"
        "    if pid == 0:\\n        time.sleep(1000); os._exit(0)\\n    n += 1\\ntime.sleep(1000)")
subprocess.Popen([sys.executable, '-c', bomb])
time.sleep(0.5)
"""

THREAD_BOMB = """
import threading
threads = 0
try:
    while True:
        threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()
        threads += 1
except RuntimeError as error:
    print('THREADS', threads, flush=True)
"""


@pytest.mark.usefixtures("referee_unharmed")
@pytest.mark.parametrize("attack", ["fork_bomb", "thread_bomb"])
def test_fork_and_thread_bombs_are_contained(arena: Launcher, tmp_path: Path, attack: str) -> None:
    """Attack: on its first move, a fork bomb in a helper process (its children sleep forever), or a thread
    bomb in the bot's own process (the gRPC server's). Must happen: creation fails below the 64-task cap (pids
    cgroup and RLIMIT_NPROC of the slot uid); the match completes (normally, or with the bot forfeiting: a
    bomb before serving leaves the bot unable to start its server, a start timeout); every child is gone
    afterwards; the referee is unharmed."""
    code, marker = (FORK_BOMB, "FORKS") if attack == "fork_bomb" else (THREAD_BOMB, "THREADS")
    folder = evil_bot(tmp_path, attack, body=f"""
        class Bomb(RandomBot):
            armed = True
            def choose_action(self, observation):
                if self.armed:
                    self.armed = False
                    exec({code!r})
                return super().choose_action(observation)
    """, bot="Bomb()")
    played = play(arena, folder, move_s=1.5)
    only_evil_faults(played)
    lines = [line for line in played.log().splitlines() if line.startswith(marker + " ")]
    assert lines, played.describe()
    assert all(int(line.split()[1]) < 64 for line in lines), lines


@pytest.mark.usefixtures("referee_unharmed")
def test_memory_bomb_in_process_is_a_crash(arena: Launcher, tmp_path: Path) -> None:
    """Attack: allocate (and touch) 32 MiB chunks forever inside ``choose_action``. Must happen: the bot dies
    by the memory cgroup's OOM killer (512 MiB) or gets MemoryError (RLIMIT_AS): a crash forfeit in both
    games, decided within the move deadline; the referee is unharmed."""
    folder = evil_bot(tmp_path, "hog", body="""
        class Hog(RandomBot):
            def choose_action(self, observation):
                chunks = []
                while True:
                    chunks.append(b'x' * (32 << 20))
    """, bot="Hog()")
    played = play(arena, folder, move_s=3.0)
    assert played.evil_offended("crash"), played.describe()
    for launch in played.launches:
        died = launch.oom_kills_at_kill >= 1 or "MemoryError" in launch.log()
        assert died, f"neither an OOM kill nor a MemoryError: {launch.log()[-500:]}"
        assert launch.decisions[-1].elapsed < 3.0
