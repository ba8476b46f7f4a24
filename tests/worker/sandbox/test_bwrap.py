"""The bwrap backend for real: a reference bot and a bot folder serve, play a game, and leave nothing on kill."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from bots_sdk.botdir import load_spec
from bots_sdk.bots import RandomBot
from bots_sdk.engine import Reason, Rules
from bots_sdk.faults import BotFault
from bots_sdk.local import play_game
from bots_sdk.remote import Limits, RemoteBot
from tests.sdk.helpers import GRPC_TRACE, grpc_endpoints
from tests.worker.sandbox.conftest import write_bot
from worker.sandbox import procs
from worker.sandbox.base import ServedBot, wait_for_socket
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.handle import LaunchedBot


def assert_gone(handle: LaunchedBot, before: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Nothing of the slot uid is left, not even a zombie, except zombies that were there before the start.

    (When a bot exits by itself, bwrap's outer process exits without reaping pid 1, which the host init then
    reaps within 1-2 s; the kill sequence kills pid 1 first, so after a kill there is no zombie.)"""
    assert set(procs.pids_of_uid(handle.uid)) <= set(before), "a process (even a zombie) of the slot uid is left"
    assert handle.leftovers == [], "the sweep had to kill something: a sandbox bug"
    assert not handle.seat_dir.exists(), "the seat dir was not removed"
    if handle.cgroup is not None:
        assert all(not d.exists() for d in handle.cgroup.dirs.values()), "the cgroups were not removed"


def test_reference_bot_serves_plays_and_leaves_nothing(bwrap: BwrapSandbox) -> None:
    starts, kills = [], []
    for _ in range(3):
        before = {pid for uid in range(bwrap.pool.uid(0), bwrap.pool.uid(3)) for pid in procs.pids_of_uid(uid)}
        handle = bwrap.start(load_spec("random"))
        assert handle.pid1 is not None and handle.pid1 != handle.popen.pid
        remote = RemoteBot(handle.address, Limits(start_s=10))
        remote.wait_serving()
        starts.append(time.perf_counter() - handle.started)
        handle.check_socket()
        assert remote.hello().name == "random"
        game = play_game(Rules.preset("classic"), [remote, RandomBot(1)], seed=7)
        assert game.game.is_over() and game.game.outcome is not None
        assert game.game.outcome.reason.value == "normal"
        assert set(procs.live_pids_of_uid(handle.uid)) <= (handle.cgroup.procs() if handle.cgroup else set())
        remote.close()
        kills.append(handle.kill())
        assert_gone(handle, before)
    print(f"\nstart-to-SERVING ms: {[round(s * 1000) for s in starts]}; kill ms: {[round(k * 1000, 1) for k in kills]}")
    assert min(starts) < 5.0
    assert max(kills) < 1.0


def test_a_stream_bot_and_a_unary_bot_play_sandboxed(bwrap: BwrapSandbox) -> None:
    """The Play stream works across the sandbox's socket, beside a bot of the unary calls only."""
    unary_only = Path(__file__).resolve().parents[2] / "sdk" / "bots" / "unary_only"
    served = []
    try:
        for name in ("random", str(unary_only)):
            handle = bwrap.start(load_spec(name))
            try:
                wait_for_socket(handle, 10.0)
            except BotFault:
                handle.kill()
                raise AssertionError(f"{name} did not start: {handle.log_tail()}") from None
            served.append(ServedBot(handle, RemoteBot(handle.connect_address(), Limits(move_s=0.5, bank_s=2))))
        for item in served:
            item.bot.wait_serving()
            item.bot.hello()
        assert [item.bot.play for item in served] == [True, False]
        for seed in (1, 2):
            outcome = play_game(Rules.preset("classic"), [item.bot for item in served], seed=seed).game.outcome
            assert outcome is not None and outcome.reason.value == "normal", outcome
    finally:
        for item in served:
            item.kill()
    for item in served:
        assert isinstance(item.handle, LaunchedBot)
        assert_gone(item.handle)


def test_a_start_sleeps_until_its_bot_listens_or_its_sandbox_ends(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    """The thread waiting for a bot's socket is woken by the kernel when the bot listens or its sandbox ends, and
    takes no CPU meanwhile: a referee's starts share the GIL with the game it plays (worker/sandbox/dirwatch.py).
    Looking for the socket every half millisecond took 36 ms of CPU in a wait of 563."""
    slow = write_bot(tmp_path / "slow", "slow", prelude="import time\ntime.sleep(0.5)")
    dies = write_bot(tmp_path / "dies", "dies", prelude="import os, time\ntime.sleep(0.5)\nos._exit(3)")
    for spec, fault in ((slow, None), (dies, Reason.CRASH)):
        handle = bwrap.start(spec)
        try:
            cpu, began = time.thread_time(), time.monotonic()
            try:
                wait_for_socket(handle, 10.0)
                found = None
            except BotFault as error:
                found = error.reason
            waited, busy = time.monotonic() - began, time.thread_time() - cpu
        finally:
            handle.kill()
        assert found == fault, handle.log_tail()
        assert 0.4 < waited < 5.0, f"{spec.name}: waited {waited:.2f} s for a bot that listens or ends after 0.5 s"
        assert busy < waited / 50, f"{spec.name}: {busy * 1000:.1f} ms of CPU in {waited * 1000:.0f} ms of waiting"
        # The bot that exited by itself left its pid 1 a zombie for the host's init (assert_gone): the next test
        # gets the slot back once it is reaped.
        gone_by = time.monotonic() + 5
        while procs.pids_of_uid(handle.uid) and time.monotonic() < gone_by:
            time.sleep(0.05)


def test_bot_folder_serves_with_its_own_modules(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    spec = write_bot(tmp_path / "folder", "folder", body="import helper\nprint('HELPER', helper.VALUE)")
    (tmp_path / "folder" / "helper.py").write_text("VALUE = 42\n")
    served = bwrap.launch(spec, Limits())
    try:
        served.bot.wait_serving()
        assert served.bot.hello().name == "random"
        assert "HELPER 42" in served.log_tail()
    finally:
        served.kill()
    assert isinstance(served.handle, LaunchedBot)
    assert_gone(served.handle)


REPORTS_GRPC = """
class Reporting(RandomBot):
    @property
    def name(self):
        return "grpc modules: " + " ".join(name for name in sys.modules if name.split(".")[0] == "grpc")
"""


def test_a_sandboxed_python_bot_serves_on_the_sdks_own_server(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    """The runtime has what ``serve()``'s HTTP/2 server needs (hpack, bots_sdk/http2_server.py), the served bot
    never imported grpc (its Hello names the grpc modules it holds, tests/sdk/test_lean_start.py), and no
    grpc-core endpoint carries the bot's socket (the bot traces grpc-core, tests/sdk/test_transport.py)."""
    spec = write_bot(tmp_path / "traced", "traced", prelude=f"os.environ.update({GRPC_TRACE!r})", body=REPORTS_GRPC,
                     bot="Reporting(1)")
    served = bwrap.launch(spec, Limits())
    try:
        served.bot.wait_serving()
        hello = served.bot.hello()
        assert hello.play
        assert hello.name == "grpc modules: ", hello.name
        outcome = play_game(Rules.preset("classic"), [served.bot, RandomBot(1)], seed=7).game.outcome
        assert outcome is not None and outcome.reason.value == "normal"
        log = served.log_tail(100_000)
    finally:
        served.kill()
    assert grpc_endpoints(log) == set(), log[-2000:]


def test_kill_of_a_crashed_bot_is_clean(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    spec = write_bot(tmp_path / "crash", "crash", prelude="print('bye'); sys.exit(3)")
    handle = bwrap.start(spec)
    deadline = time.monotonic() + 10
    while handle.alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not handle.alive()
    handle.kill()
    assert handle.exit_code == 3
    assert "bye" in handle.log_tail()
    assert procs.live_pids_of_uid(handle.uid) == []


def test_env_and_identity(bwrap: BwrapSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DURAK_TEST_CANARY", "canary-7f3a")
    spec = write_bot(tmp_path / "ident", "ident", prelude="""
        status = open('/proc/self/status').read()
        fields = dict(line.split(':', 1) for line in status.splitlines())
        try:
            environ1 = open('/proc/1/environ', 'rb').read().decode()
        except OSError as error:
            environ1 = str(error)
        print('IDENT ' + json.dumps({
            'uid': os.getuid(), 'caps': fields['CapEff'].strip(), 'bnd': fields['CapBnd'].strip(),
            'nnp': fields['NoNewPrivs'].strip(), 'env': dict(os.environ), 'environ1': environ1,
            'pids': sorted(int(p) for p in os.listdir('/proc') if p.isdigit()),
        }), flush=True)
    """)
    handle = bwrap.start(spec)
    try:
        ident = wait_json(handle, "IDENT")
    finally:
        handle.kill()
    assert ident["uid"] == handle.uid and ident["uid"] != 0
    assert int(ident["caps"], 16) == 0 and int(ident["bnd"], 16) == 0 and ident["nnp"] == "1"
    assert "canary-7f3a" not in repr(ident["env"]) and "canary-7f3a" not in ident["environ1"]
    assert ident["env"]["DURAK_BOT_ADDRESS"] == "/run/bot/bot.sock"
    assert len(ident["pids"]) <= 3


def wait_json(handle: LaunchedBot, marker: str, timeout: float = 10.0) -> dict[str, Any]:
    """The JSON object a probe bot printed after ``marker`` in its log."""
    import json

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in handle.log_tail(200).splitlines():
            if line.startswith(marker + " "):
                value: dict[str, Any] = json.loads(line[len(marker) + 1:])
                return value
        time.sleep(0.01)
    raise AssertionError(f"no {marker} line; log:\n{handle.log_tail(50)}")


def test_state_dir_is_not_listable(bwrap: BwrapSandbox) -> None:
    assert oct(os.stat(bwrap.state_dir).st_mode & 0o777) == oct(0o711)


def test_a_worker_probes_its_sandbox_once_per_process(bwrap: BwrapSandbox) -> None:
    """The worker asks for a self-tested sandbox before every match: the probe (a bot start's cost) runs the first
    time only, and a chain that changed (here: another bwrap) is probed afresh."""
    runs = bwrap.state_dir.parent / "bwrap-runs"
    runs.touch()
    runs.chmod(0o666)
    wrapper = bwrap.state_dir.parent / "bwrap-counting"
    wrapper.write_text(f'#!/bin/sh\necho run >> {runs}\nexec /usr/bin/bwrap "$@"\n')
    wrapper.chmod(0o755)
    for _ in range(3):
        BwrapSandbox(state_dir=bwrap.state_dir, runtime_dir=bwrap.runtime_dir, first_uid=bwrap.pool.first_uid,
                     slots=bwrap.pool.count, bwrap=str(wrapper)).self_test()
    assert runs.read_text().split() == ["run"]


def test_the_outer_bwrap_is_spared_the_freezer_and_everything_in_the_sandbox_is_not(bwrap: BwrapSandbox) -> None:
    """The outer bwrap (outside the sandbox's pid namespace, only waiting for pid 1) leaves the freezer group at
    the first freeze, so freezing and thawing the bot no longer wake it; it keeps its other groups, and every
    process the sandbox holds (its pid 1, which the bot can write into, and the bot's) stays frozen."""
    before = {pid for uid in range(bwrap.pool.uid(0), bwrap.pool.uid(3)) for pid in procs.pids_of_uid(uid)}
    handle = bwrap.start(load_spec("random"))
    try:
        RemoteBot(handle.address, Limits(start_s=10)).wait_serving()
        cgroup = handle.cgroup
        if cgroup is None or cgroup.version != 1 or "freezer" not in cgroup.dirs:
            pytest.skip("the outer bwrap is spared on the cgroup v1 freezer only")
        frozen_group = cgroup.dirs["freezer"] / "cgroup.procs"
        assert handle.popen.pid in {int(pid) for pid in frozen_group.read_text().split()}, "joined before exec"
        handle.freeze()
        in_freezer = {int(pid) for pid in frozen_group.read_text().split()}
        everything = cgroup.procs()
        assert handle.popen.pid not in in_freezer
        assert handle.popen.pid in everything, "it keeps its memory, pids and cpu groups"
        assert handle.pid1 in in_freezer
        assert in_freezer == everything - {handle.popen.pid}, "every process of the sandbox is frozen"
        deadline = time.monotonic() + 2.0
        while not cgroup.is_frozen() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert cgroup.is_frozen()
        handle.thaw()
        handle.freeze()
        assert {int(pid) for pid in frozen_group.read_text().split()} == in_freezer
    finally:
        handle.kill()
    assert_gone(handle, before)
