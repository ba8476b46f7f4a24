"""Fixtures for the sandbox tests: a bwrap backend in a throwaway state dir, bot folders written on the fly.

Tests that need the real sandbox skip (never pass) when the machine cannot run
it: not root, no bwrap, or user namespaces disabled (the backend's self-test).
After every test no process of a test slot uid may be left (docs/sandbox.md section 10, #25).
"""

from __future__ import annotations

import shutil
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots_sdk.botdir import BotSpec, load_spec
from worker.sandbox import SandboxUnavailable, procs
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.slots import FIRST_UID

TEST_FIRST_UID = FIRST_UID + 900
TEST_SLOTS = 50


@pytest.fixture(scope="session")
def sandbox_dirs() -> Iterator[tuple[Path, Path]]:
    """(state dir, runtime cache) under /tmp, which slot uids can traverse (pytest's tmp_path is 0700)."""
    base = Path(tempfile.mkdtemp(prefix="durak-sbx-test-", dir="/tmp"))
    base.chmod(0o711)
    yield base / "state", base / "runtime"
    shutil.rmtree(base, ignore_errors=True)


def make_bwrap(dirs: tuple[Path, Path], **limits: int) -> BwrapSandbox:
    from worker.sandbox import SandboxLimits

    return BwrapSandbox(
        SandboxLimits(**limits), state_dir=dirs[0], runtime_dir=dirs[1], first_uid=TEST_FIRST_UID, slots=TEST_SLOTS,
    )


@pytest.fixture(scope="session")
def bwrap(sandbox_dirs: tuple[Path, Path]) -> BwrapSandbox:
    sandbox = make_bwrap(sandbox_dirs)
    try:
        sandbox.self_test()
    except SandboxUnavailable as error:
        pytest.skip(f"bwrap cannot sandbox here: {error}")
    # the self-test's bot exits by itself, so its pid 1 is an orphan zombie until the host init reaps it
    deadline = time.monotonic() + 5
    while any(procs.pids_of_uid(uid) for uid in range(TEST_FIRST_UID, TEST_FIRST_UID + TEST_SLOTS)):
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
    return sandbox


@pytest.fixture(autouse=True)
def nothing_left_behind() -> Iterator[None]:
    yield
    left = {uid: procs.live_pids_of_uid(uid) for uid in range(TEST_FIRST_UID, TEST_FIRST_UID + TEST_SLOTS)}
    left = {uid: pids for uid, pids in left.items() if pids}
    for uid in left:
        procs.sweep_uid(uid, "test cleanup", timeout=0)
    assert not left, f"processes of slot uids left after the test: {left}"


BOT_TEMPLATE = '''\
import json, os, sys, time
{prelude}
from bots_sdk import Bot, serve
from bots_sdk.bots import RandomBot
{body}
serve({bot}, {address})
'''


def write_bot(folder: Path, name: str, *, prelude: str = "", body: str = "", bot: str = "RandomBot()",
              address: str = "None") -> BotSpec:
    """A python bot folder that runs ``prelude`` before importing the SDK, ``body`` after, then serves ``bot``."""
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(f'name = "{name}"\nlanguage = "python"\nentry = "bot.py"\n')
    (folder / "bot.py").write_text(BOT_TEMPLATE.format(
        prelude=textwrap.dedent(prelude), body=textwrap.dedent(body), bot=bot, address=address,
    ))
    return load_spec(str(folder))
