"""Attacks the sandbox contains: the bot tries, fails, reports what it saw, and plays on normally.

Each bot runs its attack when it starts (or at its first move, when the attack
needs the opponent running), prints ``PROBE {json}`` to its log, then plays as
``random``. Both games of the match must end normally: being refused is not a
fault. Research note 4.6 rows 1-12, 24, 26; the direct-sandbox versions of
some rows are in tests/worker/sandbox/test_hostile.py.
"""

from __future__ import annotations

import os
import platform
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.worker.evil.arena import evil_bot, play
from worker.referee.launch import Launcher

MIB = 1 << 20
REFUSED = ("EPERM", "EACCES", "ENOENT", "EROFS", "ENOSYS")


@pytest.fixture
def listeners() -> Iterator[dict[str, socket.socket]]:
    """Host-side TCP, UDP and abstract-unix listeners on loopback that a bot must not reach."""
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(4)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(f"\0durak-evil-{secrets.token_hex(6)}")
    abstract.listen(4)
    found = {"tcp": tcp, "udp": udp, "abstract": abstract}
    for sock in found.values():
        sock.setblocking(False)
    yield found
    for sock in found.values():
        sock.close()


def test_network_is_unreachable(arena: Launcher, tmp_path: Path, listeners: dict[str, socket.socket]) -> None:
    """Attack: reach the host over TCP (v4, v6, Redis on 6379), UDP, an abstract unix socket, a unix socket by
    path, DNS, netlink and raw packets. Must happen: every attempt refused (seccomp's EPERM for non-unix
    sockets, ECONNREFUSED for the abstract socket, which lives in the host's network namespace); the host
    listeners see nothing; the bot plays on and both games end normally."""
    host_unix = tmp_path / "host.sock"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(host_unix))
    unix.listen(1)
    unix.setblocking(False)
    tcp_port = listeners["tcp"].getsockname()[1]
    udp_port = listeners["udp"].getsockname()[1]
    abstract_name = listeners["abstract"].getsockname()
    folder = evil_bot(tmp_path, "net", probes=True, prelude=f"""
        def udp_send(address):
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.sendto(b'leak', address)
        def unix_connect(address):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(2)
                s.connect(address)
        attempt('tcp', lambda: socket.create_connection(('127.0.0.1', {tcp_port}), timeout=2).close())
        attempt('tcp6', lambda: socket.create_connection(('::1', {tcp_port}), timeout=2).close())
        attempt('redis', lambda: socket.create_connection(('127.0.0.1', 6379), timeout=2).close())
        attempt('udp', lambda: udp_send(('127.0.0.1', {udp_port})))
        attempt('udp_dns', lambda: udp_send(('8.8.8.8', 53)))
        attempt('dns', lambda: str(socket.getaddrinfo('example.com', 80)))
        attempt('resolv_conf', lambda: open('/etc/resolv.conf').read())
        attempt('abstract', lambda: unix_connect({abstract_name!r}))
        attempt('unix_path', lambda: unix_connect({str(host_unix)!r}))
        attempt('netlink', lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close())
        attempt('packet', lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0).close())
        report()
    """)
    played = play(arena, folder)
    probe = played.probe()
    for name in ("tcp", "tcp6", "redis", "udp", "udp_dns", "netlink", "packet"):
        assert probe[name] == "EPERM", (name, probe[name])
    assert probe["dns"] == "gaierror" and probe["resolv_conf"] == "ENOENT"
    assert probe["abstract"] == "ECONNREFUSED", probe["abstract"]
    assert probe["unix_path"] == "ENOENT", probe["unix_path"]
    for sock in (listeners["tcp"], listeners["abstract"], unix):
        with pytest.raises(BlockingIOError):
            sock.accept()  # nobody connected
    with pytest.raises(BlockingIOError):
        listeners["udp"].recv(16)  # nothing arrived
    unix.close()
    assert played.normal, played.describe()


def test_secrets_are_out_of_reach(arena: Launcher, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: read the referee's environment (a canary variable set in the worker), /proc/1/environ (the
    sandbox's bwrap, started by the worker), host files (/etc/shadow, /root, /home, the Docker socket, a secret
    file in the host's /tmp, the worker's state dir and repository), and the worker process itself through
    /proc. Must happen: no canary anywhere, the bot's env is the sandbox's fixed one, every host path ENOENT,
    the referee's pid is not visible (ESRCH), and the bot plays on normally."""
    canary = f"canary-{secrets.token_hex(8)}"
    monkeypatch.setenv("DURAK_EVIL_CANARY", canary)
    secret = Path(f"/tmp/durak-evil-secret-{secrets.token_hex(6)}")
    secret.write_text(canary)
    secret.chmod(0o644)  # world-readable on purpose: only the sandbox's view may hide it
    referee = os.getpid()
    try:
        folder = evil_bot(tmp_path, "secrets", probes=True, prelude=f"""
            attempt('env', lambda: dict(os.environ))
            attempt('environ1', lambda: open('/proc/1/environ', 'rb').read().decode(errors='replace'))
            attempt('environ_self', lambda: open('/proc/self/environ', 'rb').read().decode(errors='replace'))
            for path in ('/etc/shadow', '/etc/passwd', '/root', '/home', '/var/run/docker.sock', '/run/docker.sock',
                         {str(secret)!r}, '/run/durak', '/work', '/sys/fs/cgroup', '/proc/{referee}/environ'):
                attempt(path, lambda path=path: os.listdir(path) if os.path.isdir(path) else open(path).read())
            attempt('kill_referee', lambda: os.kill({referee}, 0))
            attempt('pids', lambda: sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))
            report()
        """)
        played = play(arena, folder)
    finally:
        secret.unlink()
    probe = played.probe()
    assert canary not in repr(probe), "the canary leaked into the sandbox"
    assert set(probe["env"]) <= {"PATH", "HOME", "LANG", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED",
                                 "MALLOC_ARENA_MAX", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                 "DURAK_BOT_ADDRESS", "PWD", "LC_CTYPE", "GRPC_EXPERIMENTS"}, probe["env"]
    environ1 = {entry.split("=", 1)[0] for entry in probe["environ1"].split("\0") if entry}
    assert environ1 <= {"PATH", "LANG", "PWD"}, probe["environ1"]  # the launcher's minimal env (PWD: its sh)
    for path in ("/etc/shadow", "/etc/passwd", "/root", "/home", "/var/run/docker.sock", "/run/docker.sock",
                 str(secret), "/run/durak", "/work", "/sys/fs/cgroup", f"/proc/{referee}/environ"):
        assert probe[path] in ("ENOENT", "EACCES"), (path, probe[path])
    assert probe["kill_referee"] == "ESRCH" or referee in probe["pids"]
    assert referee not in probe["pids"] or referee <= 3
    assert len(probe["pids"]) <= 3, probe["pids"]
    assert played.normal, played.describe()


def test_the_sandboxs_pid_1_cannot_be_written(arena: Launcher, tmp_path: Path) -> None:
    """Attack: open the memory of the sandbox's pid 1 (bwrap's own init, which runs as the bot's uid under the same
    seccomp filter, so ``ptrace`` is refused but ``/proc/1/mem`` was not) for writing, through ``/proc/1/mem``
    and ``/proc/1/task/1/mem``, to make it compute for the bot or stop reaping. Must happen: both refused, pid 1
    still there, and the bot plays on normally."""
    folder = evil_bot(tmp_path, "pid1", probes=True, prelude="""
        def write_one(path):
            with open(path, 'r+b', buffering=0) as memory:
                start = int(open('/proc/1/maps').read().split('-', 1)[0], 16)
                memory.seek(start)
                return memory.write(memory.read(1))
        for path in ('/proc/1/mem', '/proc/1/task/1/mem'):
            attempt(path, lambda path=path: write_one(path))
        attempt('pid1', lambda: open('/proc/1/cmdline', 'rb').read().split(b'\\0')[0].decode())
        report()
    """)
    played = play(arena, folder)
    probe = played.probe()
    assert probe["/proc/1/mem"] in REFUSED and probe["/proc/1/task/1/mem"] in REFUSED, probe
    assert probe["pid1"].endswith("bwrap"), probe
    assert played.normal, played.describe()


def test_other_bots_files_are_invisible(arena: Launcher, tmp_path: Path) -> None:
    """Attack: while the opponent (a bot folder holding ``secret.txt``) runs, read its code through the host
    paths of every seat dir, its original folder, relative ``..`` paths and /proc. Must happen: ENOENT every
    time although the victim's seat exists on the host right then; both bots play on normally."""
    token = secrets.token_hex(8)
    victim = evil_bot(tmp_path, "victim")
    Path(victim, "secret.txt").write_text(token)
    paths = [f"/run/durak/seat-{n}/src/secret.txt" for n in range(20)] + [
        f"{victim}/secret.txt", "../victim/secret.txt", "../../seat-1/src/secret.txt",
        "/bot/src/../../victim/secret.txt",
        "/proc/2/root/bot/src/secret.txt", "/proc/3/root/bot/src/secret.txt", "/proc/1/root/bot/src/secret.txt",
    ]
    spy = evil_bot(tmp_path, "spy", probes=True, body=f"""
        class Spy(RandomBot):
            done = False
            def choose_action(self, observation):
                if not self.done:  # the first move: both bots are running now
                    self.done = True
                    for path in {paths!r}:
                        attempt(path, lambda path=path: open(path).read())
                    report()
                return super().choose_action(observation)
    """, bot="Spy()")
    from tests.worker.evil.arena import Recorder
    from worker.referee.match import MatchSpec, play_spec

    recorder = Recorder(arena)
    results = play_spec(MatchSpec((spy, victim), deals=1, move_s=1.0, bank_s=0.0, start_s=3.0), recorder)
    victim_launch = recorder.of("victim")[0]
    assert victim_launch.handle is not None
    victim_seat = f"/run/durak/seat-{victim_launch.handle.slot}/src/secret.txt"
    assert victim_seat in paths
    spy_launch = recorder.of("spy")[0]
    assert spy_launch.decisions and spy_launch.decisions[0].started > victim_launch.started
    log = spy_launch.log()
    line = next((line for line in log.splitlines() if line.startswith("PROBE ")), None)
    assert line is not None, log
    assert token not in line, "the spy read the victim's secret"
    import json

    probe = json.loads(line[6:])
    for path in paths:
        assert probe[path] in ("ENOENT", "EACCES"), (path, probe[path])
    assert all(r.reason == "normal" for r in results), [(r.reason, r.detail) for r in results]


def test_writes_outside_scratch_fail_and_run_bot_is_wiped(arena: Launcher, tmp_path: Path) -> None:
    """Attack: write into /run, /var, /home, /proc/sys and /proc/sysrq-trigger, chmod the bot's own
    code, remount /bot/src read-write (the mount binary and the raw syscall), and drop files in /run/bot (the
    one host-backed writable dir). Must happen: every write refused, the remounts fail; the dropped files are
    gone with the seat dir after the match (checked by the shared fixture too); the bot plays on normally."""
    folder = evil_bot(tmp_path, "writes", probes=True, prelude="""
        import ctypes, subprocess
        def write(path):
            with open(path, 'w') as f:
                f.write('pwned')
        for path in ('/run/x', '/var/x', '/home/x', '/proc/sys/kernel/hostname',
                     '/proc/sysrq-trigger', '/bot/src/bot.py'):
            attempt(path, lambda path=path: write(path))
        attempt('chmod_src', lambda: os.chmod('/bot/src/bot.py', 0o777))
        attempt('mount_binary', lambda: subprocess.run(['/usr/bin/mount', '-o', 'remount,rw', '/bot/src'],
                                                       capture_output=True).returncode)
        libc = ctypes.CDLL(None, use_errno=True)
        def remount():
            if libc.mount(None, b'/bot/src', None, 32 | 4096, None) != 0:  # MS_REMOUNT | MS_BIND
                raise OSError(ctypes.get_errno(), 'mount')
        attempt('mount_syscall', remount)
        os.makedirs('/run/bot/dropped/deeper')
        write('/run/bot/dropped/deeper/file')
        os.symlink('/etc/shadow', '/run/bot/dropped/link')
        attempt('dropped', lambda: sorted(os.listdir('/run/bot')))
        report()
    """)
    played = play(arena, folder)
    probe = played.probe()
    for path in ("/run/x", "/var/x", "/home/x", "/proc/sys/kernel/hostname", "/proc/sysrq-trigger",
                 "/bot/src/bot.py", "chmod_src"):
        assert probe[path] in REFUSED, (path, probe[path])
    assert probe["mount_binary"] != 0 and probe["mount_syscall"] == "ENOSYS", probe
    assert "dropped" in probe["dropped"]
    seats = [launch.handle.address for launch in played.launches if launch.handle is not None]
    assert seats and not any(Path(s).parent.exists() for s in seats), "a seat's socket dir survived the match"
    assert played.normal, played.describe()


@pytest.mark.parametrize("directory", ["/tmp", "/dev/shm", "/run/bot"])
def test_scratch_fill_stops_at_the_quota(arena: Launcher, tmp_path: Path, directory: str) -> None:
    """Attack: fill a writable directory with 4 MiB files (each under RLIMIT_FSIZE, so only a size cap on the
    filesystem can stop it; the bot gives up by itself at 96 MiB). ``/tmp`` is the bot's scratch (a 64 MiB
    tmpfs); ``/dev/shm`` is on a second tmpfs, bwrap's ``--dev`` (all of /dev is writable, uncapped);
    ``/run/bot`` is the seat's socket dir, the one writable dir backed by the host. Must happen: ENOSPC or
    EDQUOT within the 64 MiB scratch budget everywhere (docs/sandbox.md sections 4 and 7:
    ``/tmp``'s size, socket dirs inside a size-limited tmpfs): a bot must fill neither the worker's disk nor its
    memory beyond its share; the bot then plays on normally."""
    folder = evil_bot(tmp_path, "fill", probes=True, prelude=f"""
        def fill(directory, limit):
            written = 0
            chunk = b'x' * (4 << 20)
            try:
                while written < limit:
                    with open(f'{{directory}}/fill-{{written}}', 'wb') as f:
                        f.write(chunk)
                    written += len(chunk)
            except OSError as error:
                return [written, errno.errorcode.get(error.errno)]
            return [written, 'no error']
        attempt('fill', lambda: fill({directory!r}, 96 << 20))
        report()
    """)
    played = play(arena, folder)
    written, error = played.probe()["fill"]
    assert played.normal, played.describe()
    assert error in ("ENOSPC", "EDQUOT") and written <= 64 * MIB, (
        f"the bot wrote {written // MIB} MiB into {directory} ({error}): no size cap there")
    if directory == "/tmp":
        assert written >= 48 * MIB, "the scratch quota is smaller than configured"


def test_file_size_bomb_gets_efbig(arena: Launcher, tmp_path: Path) -> None:
    """Attack: write one 32 MiB file in /tmp. Must happen: EFBIG at RLIMIT_FSIZE (16 MiB; Python ignores
    SIGXFSZ, so it sees the errno); the bot plays on normally."""
    folder = evil_bot(tmp_path, "fsize", probes=True, prelude="""
        def bomb():
            with open('/tmp/big', 'wb') as f:
                try:
                    for _ in range(32):
                        f.write(b'x' * (1 << 20))
                except OSError as error:
                    return [f.tell(), errno.errorcode.get(error.errno)]
            return [os.path.getsize('/tmp/big'), 'no error']
        attempt('fsize', bomb)
        report()
    """)
    played = play(arena, folder)
    assert played.probe()["fsize"] == [16 * MIB, "EFBIG"]
    assert played.normal, played.describe()


SYSCALLS_X86_64 = {
    "keyctl": (250, 0, -3), "add_key": (248, 0, 0, 0, 0, 0), "request_key": (249, 0, 0, 0, 0),
    "io_uring_setup": (425, 1, 0), "bpf": (321, 0, 0, 0), "perf_event_open": (298, 0, 0, -1, -1, 0),
    "userfaultfd": (323, 0), "unshare_newuser": (272, 0x10000000), "unshare_newns": (272, 0x00020000),
    "setns": (308, 0, 0), "clone3": (435, 0, 0), "chroot": (161, 0), "pivot_root": (155, 0, 0),
    "kcmp": (312, 1, 2, 0, 0, 0), "init_module": (175, 0, 0, 0), "reboot": (169, 0, 0, 0, 0),
    "ptrace_pid1": (101, 16, 1, 0, 0), "process_vm_readv_pid1": (310, 1, 0, 0, 0, 0, 0),
}
"""Name -> (x86_64 syscall number, args): calls worker/sandbox/seccomp.py refuses with ENOSYS."""


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the syscall numbers below are x86_64's")
def test_seccomp_refuses_dangerous_syscalls(arena: Launcher, tmp_path: Path) -> None:
    """Attack: keyrings (keyctl, add_key: not namespaced, a channel between sandboxes), io_uring, bpf,
    perf_event_open, userfaultfd, unshare/setns/clone3 (nested namespaces), chroot, pivot_root, kcmp, module
    loading, reboot, ptrace and process_vm_readv on pid 1 and on a child process, OFD file locks; plus
    nested namespaces the ordinary way (``unshare -U``, a nested bwrap, ctypes unshare in a fresh process).
    Must happen: ENOSYS from the seccomp filter for every call, the tools exit non-zero; the bot plays on."""
    folder = evil_bot(tmp_path, "syscalls", probes=True, prelude=f"""
        import ctypes, fcntl, struct, subprocess
        libc = ctypes.CDLL(None, use_errno=True)
        def syscall(number, *args):
            def call():
                if libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args]) == -1:
                    raise OSError(ctypes.get_errno(), 'syscall')
            return call
        for name, (number, *args) in {SYSCALLS_X86_64!r}.items():
            attempt(name, syscall(number, *args))
        child = subprocess.Popen(['/bin/sleep', '100'])
        attempt('ptrace_child', syscall(101, 16, child.pid, 0, 0))  # PTRACE_ATTACH
        attempt('process_vm_readv_child', syscall(310, child.pid, 0, 0, 0, 0, 0))
        child.kill(); child.wait()
        def ofd_lock():
            with open('/usr/bin/python3', 'rb') as f:
                fcntl.fcntl(f, 37, struct.pack('hhqqi4x', fcntl.F_RDLCK, 0, 0, 0, 0))  # F_OFD_SETLK
        attempt('ofd_lock', ofd_lock)
        def run(argv):
            return subprocess.run(argv, capture_output=True, timeout=10).returncode
        attempt('unshare_binary', lambda: run(['/usr/bin/unshare', '-U', '-r', '/bin/true']))
        attempt('nested_bwrap', lambda: run(['/usr/bin/bwrap', '--unshare-user', '--ro-bind', '/', '/', '/bin/true']))
        attempt('fresh_unshare', lambda: run([sys.executable, '-c',
            'import ctypes, sys; libc = ctypes.CDLL(None, use_errno=True); '
            'sys.exit(0 if libc.unshare(0x10000000) == 0 else ctypes.get_errno())']))
        report()
    """)
    played = play(arena, folder)
    probe = played.probe()
    for name in (*SYSCALLS_X86_64, "ptrace_child", "process_vm_readv_child", "ofd_lock"):
        assert probe[name] == "ENOSYS", (name, probe[name])
    assert probe["unshare_binary"] != 0 and probe["nested_bwrap"] != 0, probe
    assert probe["fresh_unshare"] == 38, probe["fresh_unshare"]  # ENOSYS
    assert played.normal, played.describe()


def test_daemon_escape_dies_with_the_match(arena: Launcher, tmp_path: Path) -> None:
    """Attack: ``setsid`` + double fork + exec a ``sleep`` with a marker argv at start, then play. Must happen:
    the daemon runs during the match (seen on the host right before the referee's kill) and is gone after it
    with everything else of the slot uid (pid-namespace teardown); the sweep had nothing to kill."""
    marker = str(secrets.randbelow(10**6) + 10**6)
    folder = evil_bot(tmp_path, "daemon", prelude=f"""
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv('/bin/sleep', ['sleep', '{marker}'])
            os._exit(0)
        os.wait()
    """)
    seen: list[bool] = []
    played = play(arena, folder)
    for launch in played.launches:
        seen.append(any(f"sleep {marker}" in cmd for cmd in launch.processes_at_kill))
        handle = launch.handle
        assert handle is not None and handle.leftovers == [], "the sweep had to kill something: a sandbox bug"
    assert seen and all(seen), "the daemon was not running before the kill"
    assert played.normal, played.describe()
