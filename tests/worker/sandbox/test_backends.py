"""Unit tests of what the backends build (no sandbox started), and the process backend for real."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bots_sdk.botdir import load_spec
from bots_sdk.remote import RemoteBot
from tests.worker.sandbox.conftest import TEST_FIRST_UID, TEST_SLOTS, write_bot
from worker.sandbox import SandboxLimits, SandboxUnavailable, make_sandbox, procs, seccomp
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.layout import SeatDir
from worker.sandbox.process import WARNING, ProcessSandbox


def test_factory_splits_limits_from_options(tmp_path: Path) -> None:
    sandbox = make_sandbox("bwrap", memory_mb=256, pids=32, state_dir=tmp_path)
    assert isinstance(sandbox, BwrapSandbox)
    assert sandbox.limits == SandboxLimits(memory_mb=256, pids=32)
    assert sandbox.state_dir == tmp_path
    with pytest.raises(ValueError, match="unknown sandbox backend"):
        make_sandbox("chroot")


def test_bwrap_argv_follows_the_documented_chain(tmp_path: Path) -> None:
    sandbox = BwrapSandbox(SandboxLimits(cpu_s=30), state_dir=tmp_path)
    spec = write_bot(tmp_path / "b", "b")
    seat = SeatDir(tmp_path, 3, 61003)
    launcher = sandbox.launcher_args(61003, None)
    assert launcher[launcher.index("/usr/bin/setpriv"):][:6] == [
        "/usr/bin/setpriv", "--reuid=61003", "--regid=61003", "--clear-groups", "--inh-caps=-all", "--"]
    assert "--cpu=30:31" in launcher and "--core=0" in launcher and f"--nproc={sandbox.limits.pids}" in launcher
    args = sandbox.bwrap_args(spec, Path("/rt"), seat, 5, 6)
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--assert-userns-disabled",
                 "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in args
    assert args[args.index("--cap-drop") + 1] == "ALL"
    assert args[args.index("--json-status-fd") + 1] == "5" and args[args.index("--seccomp") + 1] == "6"
    separator = args.index("--")
    assert args[separator - 2:separator] == ["--remount-ro", "/"]
    assert args[separator + 1:] == ["/bot/venv/bin/python", "bot.py"]
    env = {args[i + 1]: args[i + 2] for i, a in enumerate(args) if a == "--setenv"}
    assert env["DURAK_BOT_ADDRESS"] == "/run/bot/bot.sock" and env["MALLOC_ARENA_MAX"] == "2"
    assert env["HOME"] == "/tmp"
    assert ["--ro-bind", str(seat.src), "/bot/src"] == args[args.index(str(seat.src)) - 1:args.index(str(seat.src)) + 2]
    assert ["--bind", str(seat.run), "/run/bot"] == args[args.index(str(seat.run)) - 1:args.index(str(seat.run)) + 2]
    reference = sandbox.bwrap_args(load_spec("random"), Path("/rt"), seat, 5, None)
    assert reference[-4:] == ["/bot/venv/bin/python", "-m", "bots_sdk.bots", "random"]
    assert "/bot/src" not in reference and "--seccomp" not in reference


def test_seccomp_filter_compiles() -> None:
    try:
        bpf = seccomp.deny_list_bpf()
    except seccomp.SeccompUnavailable as error:
        pytest.skip(str(error))
    assert len(bpf) % 8 == 0 and 50 < len(bpf) // 8 < 400


def test_self_test_refuses_a_missing_bwrap(tmp_path: Path) -> None:
    sandbox = BwrapSandbox(state_dir=tmp_path, bwrap="/nonexistent/bwrap")
    with pytest.raises(SandboxUnavailable, match=r"missing|root"):
        sandbox.self_test()


@pytest.mark.skipif(os.geteuid() != 0, reason="the process backend switches uid only as root")
def test_process_backend_warns_serves_and_sweeps(sandbox_dirs: tuple[Path, Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    sandbox = ProcessSandbox(state_dir=sandbox_dirs[0] / "process", runtime_dir=sandbox_dirs[1],
                             first_uid=TEST_FIRST_UID + TEST_SLOTS - 5, slots=5)
    handle = sandbox.start(load_spec("random"))
    assert WARNING in capsys.readouterr().err
    try:
        remote = RemoteBot(handle.address)
        remote.wait_serving()
        assert remote.hello().name == "random"
        remote.close()
        assert procs.live_pids_of_uid(handle.uid)
    finally:
        handle.kill()
    assert procs.live_pids_of_uid(handle.uid) == []
    assert not sandbox.capabilities().isolated
