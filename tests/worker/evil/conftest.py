"""Fixtures of the hostile-bot suite: the worker's own bwrap launcher, and "nothing left running" after each test.

Skips (never passes) where the machine cannot sandbox: not root, no bwrap, user
namespaces disabled (``launcher_for`` runs the backend's self-test).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

import pytest

from tests.worker.evil.arena import live_slot_processes, seat_dirs, slot_cgroups, wait_until
from worker.referee.launch import Launcher, launcher_for
from worker.sandbox import SandboxUnavailable


@pytest.fixture(scope="session")
def arena() -> Launcher:
    """``launcher_for("bwrap")``: the launcher a worker uses (default limits, slots, state dir)."""
    if os.geteuid() != 0:
        pytest.skip("the bwrap backend needs root (it drops each bot to a slot uid)")
    try:
        launcher = launcher_for("bwrap")
    except SandboxUnavailable as error:
        pytest.skip(f"bwrap cannot sandbox here: {error}")
    # the self-test's bot exits by itself; give the host init a moment to reap its pid 1
    wait_until(lambda: not live_slot_processes(), 5.0)
    return launcher


@pytest.fixture(autouse=True)
def nothing_left_running() -> Iterator[None]:
    """After each test: no live process of any slot uid, no seat dir, no sandbox cgroup (docs/sandbox.md
    section 10, #24 and #25).

    What already existed before the test (another session's run on the same host) is not counted.
    """
    processes, seats, groups = set(live_slot_processes()), set(seat_dirs()), set(slot_cgroups())
    yield
    left = {pid: what for pid, what in live_slot_processes().items() if pid not in processes}
    new_seats = sorted(set(seat_dirs()) - seats)
    new_groups = sorted(set(slot_cgroups()) - groups)
    for pid in left:  # clean up for the next test, then fail this one
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"processes of slot uids still running after the match: {left}"
    assert not new_seats, f"seat dirs left behind: {new_seats}"
    assert not new_groups, f"sandbox cgroups left behind: {new_groups}"
