"""Bots started in pooled sandboxes (worker/sandbox/warm.py): contained like a cold start's, and never blamed for
the pool.

A pooled sandbox was started before its bot, by the worker, running a stub that then became the bot: the bot
must find what a cold-started bot finds (nothing of the stub's), reach no other pooled sandbox, not write its
own code, and have a cold start's limits, its start budget counted from the moment it was given the sandbox.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.worker.evil.arena import cmdline, evil_bot, play
from worker.referee.launch import WARM_POOL_ENV, Launcher, close_warm_pools, launcher_for, warm_pool
from worker.sandbox import make_sandbox, procs
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.warm import Pooled, WarmPool

PRIME_S = 60.0
"""Time a loaded test machine may take to start a pool (a stub's imports, several at once)."""


@pytest.fixture
def pool_of(arena: Launcher) -> Iterator[Callable[[int], WarmPool]]:
    """Pools of the worker's own sandbox (default slots and state dir), filled and ready; closed after the test."""
    pools: list[WarmPool] = []

    def make(size: int) -> WarmPool:
        sandbox = make_sandbox("bwrap")
        assert isinstance(sandbox, BwrapSandbox)
        pool = WarmPool(sandbox, size=size)
        pools.append(pool)
        assert pool.prime(PRIME_S) == size, "the pool did not fill"
        return pool

    yield make
    for pool in pools:
        pool.close()


def stub_pid(pooled: Pooled) -> int:
    """The host pid of the stub's Python (inside, bwrap's init is pid 1 and the stub pid 2)."""
    found = [pid for pid in procs.live_pids_of_uid(pooled.handle.uid)
             if cmdline(pid).startswith("/bot/venv/bin/python -m bots_sdk.warm")]
    assert len(found) == 1, found
    return found[0]


SEEN = """
    attempt('env', lambda: sorted(os.environ))
    attempt('fds', lambda: sorted(os.listdir('/proc/self/fd')))
    attempt('stdin', lambda: [os.readlink('/proc/self/fd/0'), sys.stdin.read()])
    attempt('where', lambda: [os.getcwd(), sys.argv, __name__, sys.path[0]])
    attempt('limits', lambda: open('/proc/self/limits').read())
    attempt('ids', lambda: [os.getuid() == os.geteuid() == os.getgid(), os.getpriority(os.PRIO_PROCESS, 0)])
    attempt('mounts', lambda: sorted(line.split()[1] for line in open('/proc/self/mounts')))
"""
"""What a bot finds of its start, which must not tell a pooled one from a cold one."""


def test_a_pooled_bot_finds_what_a_cold_started_one_finds(
    arena: Launcher, pool_of: Callable[[int], WarmPool], tmp_path: Path
) -> None:
    """Attack: look for the stub: open fds (its control socket), stdin, argv, cwd, module name, sys.path,
    environment, rlimits, mounts. Must happen: the same findings as the same bot's cold start (fd 0 is
    /dev/null, nothing else open), and both play normally."""
    pool = pool_of(2)
    folder = evil_bot(tmp_path, "seen", probes=True, prelude=SEEN + "\n    report()\n")
    pooled = play(pool.launch, folder, start_s=10)
    assert pool.pooled_starts >= 1
    cold = play(arena, folder, start_s=10)
    assert pooled.normal, pooled.describe()
    assert cold.normal, cold.describe()
    assert pooled.probe() == cold.probe()
    assert pooled.probe()["stdin"] == ["/dev/null", ""]
    assert pooled.probe()["fds"] == ["0", "1", "2", "3"]  # 3: the listing's own


def test_a_pooled_bot_cannot_reach_other_pooled_sandboxes_or_write_its_code(
    pool_of: Callable[[int], WarmPool], tmp_path: Path
) -> None:
    """Attack: signal and look into every pooled sandbox's stub by host pid, list their seat dirs, overwrite
    its own code and add a file to it. Must happen: ESRCH and ENOENT for every neighbour (each is in its own
    pid namespace and mount tree), EROFS or EACCES for its code, and the neighbours that got no bot still ready after
    the match."""
    pool = pool_of(3)
    neighbours = pool.idle()
    pids = [stub_pid(pooled) for pooled in neighbours]
    seats = [str(pooled.handle.seat_dir) for pooled in neighbours]
    folder = evil_bot(tmp_path, "neighbour", probes=True, prelude=f"""
        for pid in {pids!r}:
            attempt(f'kill {{pid}}', lambda pid=pid: os.kill(pid, 9))
            attempt(f'proc {{pid}}', lambda pid=pid: open(f'/proc/{{pid}}/cmdline').read())
        for seat in {seats!r}:
            attempt(seat, lambda seat=seat: os.listdir(seat))
        attempt('pids', lambda: sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))
        attempt('overwrite', lambda: open('/bot/src/bot.py', 'a').write('# mine'))
        attempt('add', lambda: open('/bot/src/extra.py', 'w').write('x = 1'))
        report()
    """)
    played = play(pool.launch, folder, start_s=10)
    probe = played.probe()
    assert pool.pooled_starts >= 1
    for pid in pids:
        assert probe[f"kill {pid}"] == "ESRCH" and probe[f"proc {pid}"] == "ENOENT", probe
    for seat in seats:
        assert probe[seat] == "ENOENT", probe
    assert len(probe["pids"]) <= 3, probe["pids"]
    assert probe["overwrite"] in ("EROFS", "EACCES") and probe["add"] in ("EROFS", "EACCES"), probe
    assert played.normal, played.describe()
    for pooled in pool.idle():
        if pooled in neighbours:
            assert pooled.ready(), "a neighbour of the bot's pooled sandbox died"


def test_a_stub_dead_before_its_bot_is_replaced_by_a_cold_start(
    pool_of: Callable[[int], WarmPool], tmp_path: Path
) -> None:
    """The stub of the only pooled sandbox is killed just before a match starts. Must happen: its bot gets a
    cold start (no fault of the bot's, every game normal), the dead sandbox is cleaned up (the suite's check)."""
    pool = pool_of(1)
    os.kill(stub_pid(pool.idle()[0]), signal.SIGKILL)
    folder = evil_bot(tmp_path, "innocent")
    played = play(pool.launch, folder, start_s=10)
    assert played.normal, played.describe()
    assert all(launch.start_fault is None for launch in played.recorder.launches)


def test_a_pooled_bot_has_a_cold_starts_budget_to_serve(pool_of: Callable[[int], WarmPool], tmp_path: Path) -> None:
    """A bot that takes 2 s to listen, with a 0.5 s start budget, in a pooled sandbox. Must happen: its game is
    forfeited for a timeout, as at a cold start (the budget is not stretched by the time the sandbox waited)."""
    pool = pool_of(4)  # every start of the match pooled: a cold one may not serve in 0.5 s on a loaded machine
    folder = evil_bot(tmp_path, "slow", prelude="time.sleep(2)")
    played = play(pool.launch, folder, start_s=0.5)
    assert pool.pooled_starts >= 1
    assert played.evil_offended("timeout"), played.describe()


def test_a_worker_with_the_pool_on_plays_in_it_and_leaves_nothing_at_its_end(
    arena: Launcher, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DURAK_WARM_POOL=on``: the worker's launcher starts bots in the process's pool, and the process's end
    (``close_warm_pools``, which a Celery pool process runs at its shutdown) kills the rest (the suite's check)."""
    monkeypatch.setenv(WARM_POOL_ENV, "on")
    launcher = launcher_for("bwrap")
    try:
        pool = warm_pool("bwrap")
        assert pool.prime(PRIME_S) == pool.size
        played = play(launcher, evil_bot(tmp_path, "plain"), start_s=10)
        assert played.normal, played.describe()
        assert pool.pooled_starts >= 2
    finally:
        close_warm_pools()
    assert not pool.idle()
