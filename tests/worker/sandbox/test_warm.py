"""The pool of sandboxes started ahead (worker/sandbox/warm.py): what it serves, and that nothing of it outlives
its use (this directory's fixture checks that no process of a test slot uid is left after each test)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from bots_sdk.botdir import load_spec
from bots_sdk.remote import Limits
from tests.worker.sandbox.conftest import write_bot
from worker.referee.launch import WARM_POOL_ENV, on_idle_core
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.handle import LaunchedBot
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
