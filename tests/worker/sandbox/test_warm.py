"""The pool of sandboxes started ahead (worker/sandbox/warm.py): what it serves, and that nothing of it outlives
its use (this directory's fixture checks that no process of a test slot uid is left after each test)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots_sdk.botdir import load_spec
from bots_sdk.remote import Limits
from tests.worker.sandbox.conftest import write_bot
from worker.referee.cores import on_idle_core
from worker.referee.launch import WARM_POOL_ENV
from worker.sandbox import procs
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.handle import LaunchedBot
from worker.sandbox.layout import SeatDir
from worker.sandbox.warm import WarmPool, poolable

PRIME_S = 60.0
LIMITS = Limits(start_s=10.0)


def gone(pool: WarmPool, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while pool.idle():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_pooled_starts_serve_reference_and_python_bots(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    pool = WarmPool(bwrap, size=2)
    try:
        assert pool.prime(PRIME_S) == 2
        python = write_bot(tmp_path / "mine", "mine", body="print(open('/bot/src/bot.toml').read(), file=sys.stderr)")
        for spec in (load_spec("random"), python):
            served = pool.launch(spec, LIMITS)
            assert isinstance(served.handle, LaunchedBot)
            seat = served.handle.seat_dir
            try:
                served.bot.wait_serving()  # its socket is there, but it may not listen yet (every caller waits)
                assert served.bot.hello().name == "random"  # the written bot serves a RandomBot too
                assert seat.exists()
            finally:
                served.kill()
            assert not seat.exists(), "a pooled sandbox's seat outlived its bot"
        assert pool.pooled_starts == 2
        assert 'name = "mine"' in served.log_tail(), served.log_tail()
    finally:
        pool.close()
    assert not pool.idle()


def test_an_unused_pool_is_killed_after_its_idle_time_and_not_refilled(bwrap: BwrapSandbox) -> None:
    pool = WarmPool(bwrap, size=2, idle_s=1.0)
    try:
        assert pool.prime(PRIME_S) == 2
        seats = [pooled.handle.seat_dir for pooled in pool.idle()]
        assert gone(pool, 10.0), "pooled sandboxes outlived their idle time"
        time.sleep(1.5)  # the pool's thread had its chance to refill: it must not, no bot started
        assert not pool.idle()
        assert not any(seat.exists() for seat in seats)
    finally:
        pool.close()


def test_close_kills_every_pooled_sandbox_and_a_closed_pool_starts_cold(bwrap: BwrapSandbox) -> None:
    pool = WarmPool(bwrap, size=2)
    assert pool.prime(PRIME_S) == 2
    seats = [pooled.handle.seat_dir for pooled in pool.idle()]
    pool.close()
    assert not pool.idle() and not any(seat.exists() for seat in seats)
    served = pool.launch(load_spec("random"), LIMITS)
    served.kill()
    assert pool.pooled_starts == 0 and not pool.idle()


def test_what_is_pooled(tmp_path: Path) -> None:
    """Bots a cold start runs on the shared runtime's Python: reference bots and Python bots without a venv."""
    python = write_bot(tmp_path / "p", "p")
    assert poolable(load_spec("random")) and poolable(python)
    assert not poolable(dataclasses.replace(python, venv=tmp_path))
    assert not poolable(dataclasses.replace(python, language="command"))


def test_warm_pool_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """``DURAK_WARM_POOL``: on, off, or auto (on where there is a core no referee uses, as starts ahead)."""
    monkeypatch.setenv(WARM_POOL_ENV, "off")
    assert not on_idle_core(WARM_POOL_ENV)
    monkeypatch.setenv(WARM_POOL_ENV, "auto")
    monkeypatch.setenv("DURAK_REFEREES", "100000")
    assert not on_idle_core(WARM_POOL_ENV)
    with pytest.raises(ValueError, match="DURAK_WARM_POOL"):
        on_idle_core(WARM_POOL_ENV, "always")


KILLED_REFEREE = """
import sys, time
from pathlib import Path
from tests.worker.sandbox.conftest import make_bwrap
from worker.sandbox.warm import WarmPool
pool = WarmPool(make_bwrap((Path(sys.argv[1]), Path(sys.argv[2]))), size=2)
assert pool.prime(60) == 2
print(" ".join(str(pooled.handle.uid) for pooled in pool.idle()), flush=True)
time.sleep(600)
"""


def test_a_killed_referee_leaves_no_pooled_sandbox_running(
    bwrap: BwrapSandbox, sandbox_dirs: tuple[Path, Path]
) -> None:
    """A referee process with a full pool is SIGKILLed (no exit handler runs): its pooled sandboxes die with it
    (the pool's thread spawned them, ``--die-with-parent``); their seats and cgroups are what a later start on
    the slot cleans, as after any crashed worker."""
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_REFEREE, str(sandbox_dirs[0]), str(sandbox_dirs[1])],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[3],
    )
    try:
        uids = [int(uid) for uid in (child.stdout.readline() if child.stdout else "").split()]
        assert len(uids) == 2, "the referee's pool did not fill"
        assert all(procs.live_pids_of_uid(uid) for uid in uids)
    finally:
        child.kill()
        child.wait()
    deadline = time.monotonic() + 5
    while any(procs.live_pids_of_uid(uid) for uid in uids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(procs.live_pids_of_uid(uid) for uid in uids)
    for uid in uids:  # what the slot's next start would clean
        SeatDir(sandbox_dirs[0], uid - bwrap.pool.first_uid, uid).remove()
        if bwrap.cgroups is not None and (group := bwrap.cgroups.create(f"uid-{uid}", 1 << 20, 1)) is not None:
            group.remove()


def test_a_pooled_sandbox_is_a_bots_sandbox_with_the_stub_for_entry(tmp_path: Path) -> None:
    """The stub's bwrap is a reference bot's (same flags, limits, runtime, /tmp) with /bot/src bound read-only."""
    sandbox = BwrapSandbox(state_dir=tmp_path)
    seat = SeatDir(tmp_path, 3, 61003)
    stub = sandbox.bwrap_args(None, Path("/rt"), seat, 5, 6)
    reference = sandbox.bwrap_args(load_spec("random"), Path("/rt"), seat, 5, 6)
    end = stub.index("--")
    assert stub[end + 1:] == ["/bot/venv/bin/python", "-m", "bots_sdk.warm"]
    at = stub.index(str(seat.src)) - 1
    assert stub[at:at + 3] == ["--ro-bind", str(seat.src), "/bot/src"]
    assert stub[:at] + stub[at + 3:end] == reference[:reference.index("--")]
