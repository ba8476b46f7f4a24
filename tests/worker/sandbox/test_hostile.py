"""Core hostile probes (docs/sandbox.md section 10): each a tiny bot folder attacking one wall of the bwrap sandbox."""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots_sdk.bots import RandomBot
from bots_sdk.engine import Reason, Rules
from bots_sdk.faults import BotFault
from bots_sdk.local import play_game
from bots_sdk.remote import Limits, RemoteBot
from tests.worker.sandbox.conftest import make_bwrap, write_bot
from tests.worker.sandbox.test_bwrap import wait_json
from worker.sandbox import SocketSwapped, procs
from worker.sandbox.bwrap import BwrapSandbox

REPOSITORY = Path(__file__).resolve().parents[3]
"""This checkout: a bot must not read the arena's own code (a probe below tries)."""


@pytest.fixture
def host_secret() -> Iterator[Path]:
    path = Path(f"/root/secret-test-{secrets.token_hex(6)}")
    path.write_text("the referee's secret\n")
    path.chmod(0o644)  # world-readable on purpose: only the sandbox's view may hide it
    yield path
    path.unlink()


def test_isolation_probes(bwrap: BwrapSandbox, tmp_path: Path, host_secret: Path) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    other = write_bot(tmp_path / "other", "other", body="SECRET_STRATEGY = 1")
    other_handle = bwrap.start(other)
    other_src = other_handle.seat_dir / "src" / "bot.py"
    assert other_src.exists()
    probe = write_bot(tmp_path / "probe", "probe", prelude=f"""
        import errno, fcntl, socket
        results = {{}}
        def attempt(name, action):
            try:
                action()
                results[name] = 'ok'
            except OSError as error:
                results[name] = errno.errorcode.get(error.errno, str(error.errno))
        attempt('tcp', lambda: socket.create_connection(('127.0.0.1', {port}), timeout=2).close())
        attempt('read_secret', lambda: open({str(host_secret)!r}).read())
        attempt('read_other_seat', lambda: open({str(other_src)!r}).read())
        attempt('read_other_folder', lambda: open({str(tmp_path / "other" / "bot.py")!r}).read())
        attempt('read_repo', lambda: open({str(REPOSITORY / 'pyproject.toml')!r}).read())
        attempt('write_usr', lambda: open('/usr/pwned', 'w'))
        attempt('write_src', lambda: open('/bot/src/pwned', 'w'))
        attempt('write_venv', lambda: open('/bot/venv/pwned', 'w'))
        attempt('write_root', lambda: open('/pwned', 'w'))
        attempt('write_etc', lambda: open('/etc/pwned', 'w'))
        attempt('write_tmp', lambda: open('/tmp/fine', 'w').write('x'))
        attempt('read_own', lambda: open('/bot/src/bot.py').read())
        attempt('flock', lambda: fcntl.flock(open('/usr/bin/python3', 'rb'), fcntl.LOCK_EX))
        results['interfaces'] = [l.split(':')[0].strip() for l in open('/proc/net/dev').read().splitlines()[2:]]
        print('PROBE ' + json.dumps(results), flush=True)
    """)
    handle = bwrap.start(probe)
    try:
        results = wait_json(handle, "PROBE")
    finally:
        handle.kill()
        other_handle.kill()
    with pytest.raises(BlockingIOError):
        listener.accept()  # the listener saw no connection
    listener.close()
    assert results["tcp"] in ("EPERM", "ECONNREFUSED", "ENETUNREACH")  # seccomp refuses AF_INET first
    for read in ("read_secret", "read_other_seat", "read_other_folder", "read_repo"):
        assert results[read] in ("ENOENT", "EACCES"), (read, results[read])
    for write in ("write_usr", "write_src", "write_venv", "write_root", "write_etc"):
        assert results[write] in ("EROFS", "EACCES", "EPERM"), (write, results[write])
    assert results["write_tmp"] == "ok" and results["read_own"] == "ok"
    assert results["flock"] == "ENOSYS"
    assert results["interfaces"] == ["lo"]


def test_fork_bomb_stops_and_the_slot_is_usable_again(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    spec = write_bot(tmp_path / "forks", "forks", prelude="""
        import subprocess
        bomb = ("import os, time\\nn = 0\\nwhile True:\\n    try:\\n        pid = os.fork()\\n"
                "    except OSError as error:\\n        print(f'FORKS {n} {error.errno}', flush=True); break\\n"
                "    if pid == 0:\\n        time.sleep(1000); os._exit(0)\\n    n += 1\\ntime.sleep(1000)")
        subprocess.Popen([sys.executable, '-c', bomb])
        time.sleep(1000)
    """)
    handle = bwrap.start(spec, slot=5)
    try:
        deadline = time.monotonic() + 15
        while "FORKS" not in handle.log_tail() and time.monotonic() < deadline:
            time.sleep(0.02)
        line = next(line for line in handle.log_tail().splitlines() if line.startswith("FORKS"))
        assert int(line.split()[1]) < bwrap.limits.pids
    finally:
        handle.kill()
    assert procs.live_pids_of_uid(handle.uid) == [] and handle.leftovers == []
    again = bwrap.start(write_bot(tmp_path / "after", "after"), slot=5)
    try:
        RemoteBot(again.address).wait_serving()
    finally:
        again.kill()


def test_memory_bomb_child_is_killed_and_the_bot_keeps_serving(sandbox_dirs: tuple[Path, Path],
                                                             bwrap: BwrapSandbox, tmp_path: Path) -> None:
    small = make_bwrap(sandbox_dirs, memory_mb=160)
    if not small.capabilities().memory_cgroup:
        pytest.skip("no memory cgroup here")
    spec = write_bot(tmp_path / "hog", "hog", prelude="""
        import subprocess, threading
        hog = "chunks = []\\nwhile True:\\n    chunks.append(b'x' * (16 << 20))"
        child = subprocess.Popen([sys.executable, '-c', hog])
        threading.Thread(target=lambda: print(f'CHILD {child.wait()}', flush=True), daemon=True).start()
    """)
    handle = small.start(spec)
    try:
        remote = RemoteBot(handle.address)
        remote.wait_serving()
        deadline = time.monotonic() + 20
        while "CHILD" not in handle.log_tail() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "CHILD -9" in handle.log_tail(), handle.log_tail()
        assert handle.cgroup is not None and handle.cgroup.oom_kills() >= 1
        assert remote.hello().name == "random"  # the bot survived its child
        remote.close()
    finally:
        handle.kill()


SPIN_BOT = """
class Spinner(RandomBot):
    def choose_action(self, observation):
        while True:
            pass
"""


def cpu_ticks(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def test_cpu_spin_times_out_then_freeze_and_kill(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    spec = write_bot(tmp_path / "spin", "spin", body=SPIN_BOT, bot="Spinner()")
    handle = bwrap.start(spec)
    try:
        remote = RemoteBot(handle.address, Limits(move_s=0.3, bank_s=0.0))
        remote.wait_serving()
        started = time.perf_counter()
        game = play_game(Rules.preset("classic"), [remote, RandomBot(2)], seed=3)
        # the move times out at 0.3 s; play_game then tells both bots the result (EndGame, call_s=2 s: the
        # spinner still holds its lock, so that call times out too)
        assert time.perf_counter() - started < 0.3 + remote.limits.call_s + 1.0
        outcome = game.game.outcome
        assert outcome is not None and outcome.reason == Reason.TIMEOUT
        handle.freeze()
        pids = procs.live_pids_of_uid(handle.uid)
        before = cpu_ticks(pids)
        time.sleep(0.3)
        assert cpu_ticks(pids) - before <= 1, "a frozen bot kept using CPU"
        remote.close()
    finally:
        kill_s = handle.kill()
    assert kill_s < 1.0
    assert procs.live_pids_of_uid(handle.uid) == [] and handle.leftovers == []


def test_daemon_escape_is_gone_after_kill(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    marker = f"{secrets.randbelow(10**6) + 10**6}"
    spec = write_bot(tmp_path / "daemon", "daemon", prelude=f"""
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv('/bin/sleep', ['sleep', '{marker}'])
            os._exit(0)
        os.wait()
    """)
    handle = bwrap.start(spec)

    def daemons() -> list[int]:
        found = []
        for pid in procs.live_pids_of_uid(handle.uid):
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes() == f"sleep\0{marker}\0".encode():
                    found.append(pid)
            except OSError:
                pass
        return found

    try:
        RemoteBot(handle.address).wait_serving()
        assert daemons(), "the daemon did not start"
    finally:
        handle.kill()
    assert daemons() == [] and handle.leftovers == []


def test_socket_swap_is_detected(bwrap: BwrapSandbox, tmp_path: Path) -> None:
    host_socket_path = str(tmp_path / "host.sock")
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    host.bind(host_socket_path)
    host.listen(1)
    spec = write_bot(tmp_path / "swap", "swap", prelude=f"""
        os.symlink({host_socket_path!r}, '/run/bot/bot.sock')
    """, address="'/run/bot/real.sock'")
    handle = bwrap.start(spec)
    try:
        deadline = time.monotonic() + 10
        while not os.path.lexists(handle.address) and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(SocketSwapped):
            handle.check_socket()
    finally:
        handle.kill()
        host.close()
    with pytest.raises(BotFault, match=r"bot\.sock: not a socket but a symlink") as fault:
        bwrap.launch(spec, Limits(start_s=5))  # the bot's own doing: its fault, not a sandbox error
    assert fault.value.reason == Reason.PROTOCOL
