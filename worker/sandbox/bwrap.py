"""The default backend: bubblewrap behind a per-slot uid, rlimits, cgroups and a seccomp deny-list.

The launch chain is docs/sandbox.md section 3, measured on this kind of host:

    /bin/sh -c 'join the cgroups; exec "$@"'          (root: writes its own pid to cgroup.procs)
    setpriv --reuid=U --regid=U --clear-groups --inh-caps=-all   (pitfalls 1, 2: never bwrap as root)
    prlimit --as --cpu --nproc --fsize --nofile --core         (backstops; NPROC binds because U is not root)
    bwrap --unshare-all --unshare-user --disable-userns --assert-userns-disabled --die-with-parent
          --new-session --cap-drop ALL --clearenv ... --remount-ro / -- BOT

spawned with a minimal environment (pitfall 3: bwrap's own pid 1 keeps the
launcher's env in /proc/1/environ), stdin=/dev/null, stdout+stderr to the seat's
log file, in a new session.

What the bot sees (and nothing else): ``/usr`` and its merged-usr symlinks,
read-only (with the Debian JDK's configuration, ``/etc/java-*-openjdk``);
``/bot/venv``, the runtime (runtime.py: the host's python of the worker's minor
version plus a read-only copy of grpcio, protobuf, hpack and bots_sdk); ``/bot/src``, a
root-owned snapshot of its own folder (layout.py), read-only; ``/run/bot``, its
socket dir (the only host-backed writable path, pitfall 6: the referee
``lstat``s the socket); a 64 MiB private ``/tmp``; fresh ``/proc`` and
``/dev``; an empty network namespace (only ``lo``), so the unix socket is its
one way out. Other bots' seats, the repository, ``/root``, ``/home`` and the rest
of ``/etc`` are not in its tree at all, and on the host its seat dir is 0750
root:slot-gid.

Entry: python bots run ``/bot/venv/bin/python ENTRY`` in ``/bot/src``;
reference bots ``/bot/venv/bin/python -m bots_sdk.bots NAME`` in ``/tmp``;
command bots their argv in ``/bot/src``; a pooled sandbox (warm.py) the stub
``/bot/venv/bin/python -m bots_sdk.warm`` in ``/tmp``, which becomes one of the first two.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import subprocess
import time
from pathlib import Path

from bots_sdk.botdir import BotSpec
from bots_sdk.transport import EXPERIMENTS_VARIABLE, environment_for
from worker.sandbox import procs, seccomp
from worker.sandbox.base import MIB, Capabilities, Sandbox, SandboxError, SandboxLimits, SandboxUnavailable
from worker.sandbox.cgroups import CgroupManager, SandboxCgroup
from worker.sandbox.handle import LaunchedBot, read_child_pid
from worker.sandbox.layout import SOCKET_NAME, SeatDir
from worker.sandbox.runtime import IN_SANDBOX, RuntimeUnavailable, ensure_runtime
from worker.sandbox.slots import FIRST_UID, SLOTS, SlotPool

log = logging.getLogger(__name__)

LAUNCHER_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
"""The whole environment of the launcher chain (pitfall 3)."""
IN_SANDBOX_RUN = "/run/bot"
BOT_ENV = {
    "PATH": f"{IN_SANDBOX}/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONUNBUFFERED": "1",
    "MALLOC_ARENA_MAX": "2",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "DURAK_BOT_ADDRESS": f"{IN_SANDBOX_RUN}/{SOCKET_NAME}",
}
JOIN_CGROUPS = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"'
"""The launcher's first step, as root: move itself into the sandbox's cgroups, then exec the chain.

A shell rather than ``preexec_fn``, which is unsafe in a process with threads (gRPC's)."""
DEFAULT_STATE_DIR = Path("/run/durak")
DEFAULT_RUNTIME_DIR = Path(os.environ.get("DURAK_RUNTIME_DIR", "/var/cache/durak"))
"""Where the bots' runtime is built (``DURAK_RUNTIME_DIR``): world-traversable, since slot uids read it."""


PYTHON = f"{IN_SANDBOX}/bin/python"
WARM_COMMAND = ([PYTHON, "-m", "bots_sdk.warm"], "/tmp")
"""A pooled sandbox's stub (bots_sdk/warm.py, worker/sandbox/warm.py), started where a reference bot starts."""


def bot_env(spec: BotSpec | None) -> dict[str, str]:
    """The bot's whole environment: ``BOT_ENV``, plus grpc-core's settings for a Python bot (bots_sdk/transport.py).

    Given from the start rather than left to the SDK's import, so a bot in a pooled sandbox (whose stub has
    imported the SDK) and one started cold find the same environment."""
    python = spec is None or spec.language in ("python", "reference")
    return environment_for(python, {**BOT_ENV, EXPERIMENTS_VARIABLE: os.environ.get(EXPERIMENTS_VARIABLE, "")})


def bot_command(spec: BotSpec) -> tuple[list[str], str]:
    """The argv inside the sandbox and its working directory."""
    if spec.language == "reference":
        return [PYTHON, "-m", "bots_sdk.bots", spec.name], "/tmp"
    if spec.language == "python":
        return [PYTHON, spec.entry[0]], "/bot/src"
    return list(spec.entry), "/bot/src"


def rlimit_args(limits: SandboxLimits) -> list[str]:
    return [
        "/usr/bin/prlimit", f"--as={limits.as_mb * MIB}", f"--cpu={limits.cpu_s}:{limits.cpu_s + 1}",
        f"--nproc={limits.pids}", f"--fsize={limits.fsize_mb * MIB}", f"--nofile={limits.nofile}", "--core=0", "--",
    ]


def join_args(cgroup: SandboxCgroup | None) -> list[str]:
    """A launch chain's first step (``JOIN_CGROUPS``, as root): into ``cgroup``'s groups (none when None)."""
    files = cgroup.procs_files if cgroup is not None else []
    return ["/bin/sh", "-c", JOIN_CGROUPS, "sh", str(len(files)), *files]


def setpriv_args(uid: int) -> list[str]:
    return ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all", "--"]


JDK_CONFIG = tuple(str(path) for path in sorted(Path("/etc").glob("java-*-openjdk")))
"""Debian's JDKs keep their configuration in /etc (``lib/jvm.cfg`` and ``conf/`` in /usr/lib/jvm link there):
without it no ``java`` starts, so Java bots (and their builds) see it, read-only."""
SHM_BYTES = 16 * 1024 * 1024
"""/dev/shm inside the sandbox: POSIX shared memory for libraries that want it, capped."""


PID_1_MEMORY = ("--ro-bind", "/dev/null", "/proc/1/mem", "--ro-bind", "/dev/null", "/proc/1/task/1/mem")
"""The sandbox's pid 1 is bwrap's own init, which runs as the bot's uid under the same seccomp filter: ``ptrace``
is refused, but the bot could open its memory through ``/proc`` and write to it. Read-only ``/dev/null`` over
both paths makes that ``EACCES`` (tests/worker/evil/test_contained.py)."""


def base_args(bwrap: str, hostname: str, env: dict[str, str], tmp_bytes: int) -> list[str]:
    """The part every bwrap of ours shares (play and install): all namespaces, no capabilities, a clean
    environment, read-only /usr, a fresh /proc and /dev, capped /dev/shm and /tmp."""
    args = [
        bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--assert-userns-disabled",
        "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", hostname, "--clearenv",
    ]
    for key, value in env.items():
        args += ["--setenv", key, value]
    args += ["--ro-bind", "/usr", "/usr"]
    for link in ("bin", "lib", "lib64", "sbin"):
        if Path(f"/usr/{link}").exists():
            args += ["--symlink", f"usr/{link}", f"/{link}"]
    for etc in ("/etc/ld.so.cache", "/etc/localtime", *JDK_CONFIG):
        args += ["--ro-bind-try", etc, etc]
    return [
        *args, "--proc", "/proc", *PID_1_MEMORY, "--dev", "/dev",
        "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm",  # --dev's own /dev/shm has no size cap
        "--size", str(tmp_bytes), "--tmpfs", "/tmp",
    ]


_PROBED: set[tuple[str, ...]] = set()
"""The launch chains (bwrap, runtime, limits, seccomp, slots) whose probe passed in this process."""


class BwrapSandbox(Sandbox):
    """bubblewrap sandboxes; must run as root (to switch to slot uids and manage cgroups)."""

    name = "bwrap"

    def __init__(
        self, limits: SandboxLimits | None = None, *, state_dir: Path = DEFAULT_STATE_DIR,
        runtime_dir: Path = DEFAULT_RUNTIME_DIR, first_uid: int = FIRST_UID, slots: int = SLOTS,
        use_seccomp: bool = True, use_cgroups: bool = True, cgroup_parent: Path | None = None,
        bwrap: str | None = None, start_timeout: float = 10.0,
    ) -> None:
        self.limits = limits or SandboxLimits()
        self.state_dir = Path(state_dir)
        self.runtime_dir = Path(runtime_dir)
        self.pool = SlotPool(self.state_dir / "slots", first_uid, slots)
        self.use_seccomp = use_seccomp
        self.cgroups = CgroupManager(cgroup_parent) if use_cgroups else None
        # DURAK_BWRAP: a host whose bubblewrap lives elsewhere (or a test of a host without a working one).
        self.bwrap = bwrap or os.environ.get("DURAK_BWRAP", "/usr/bin/bwrap")
        self.start_timeout = start_timeout

    # ------------------------------------------------------------ the command

    def bwrap_args(
        self, spec: BotSpec | None, runtime: Path, seat: SeatDir, status_fd: int, seccomp_fd: int | None
    ) -> list[str]:
        """bwrap and its flags, in the order of docs/sandbox.md section 3 (``--remount-ro /`` last); ``spec``
        None for a pooled sandbox's stub, whose /bot/src is bound before its bot's code is copied in."""
        command, cwd = bot_command(spec) if spec is not None else WARM_COMMAND
        args = base_args(self.bwrap, "durakbot", bot_env(spec), self.limits.tmp_mb * MIB)
        args += [
            "--ro-bind", str(runtime), IN_SANDBOX,
        ]
        if spec is None or spec.language != "reference":
            args += ["--ro-bind", str(seat.src), "/bot/src"]
        args += ["--bind", str(seat.run), IN_SANDBOX_RUN, "--chdir", cwd, "--json-status-fd", str(status_fd)]
        if seccomp_fd is not None:
            args += ["--seccomp", str(seccomp_fd)]
        return [*args, "--remount-ro", "/", "--", *command]

    def launcher_args(self, uid: int, cgroup: SandboxCgroup | None) -> list[str]:
        """Everything before bwrap: the cgroup join, the uid switch and the rlimits."""
        return [*join_args(cgroup), *setpriv_args(uid), *rlimit_args(self.limits)]

    # ------------------------------------------------------------ starting

    @functools.cached_property
    def runtime(self) -> Path:
        return ensure_runtime(self.runtime_dir)

    def _chain(
        self, spec: BotSpec | None, runtime: Path, seat: SeatDir, uid: int, cgroup: SandboxCgroup | None, fds: list[int]
    ) -> tuple[list[str], list[int]]:
        """The whole launch chain and the fds it inherits: the status pipe (its read end is ``fds[0]``, for the
        caller) and the seccomp filter. Every fd opened is appended to ``fds``, for the caller to close."""
        status_read, status_write = os.pipe2(os.O_CLOEXEC)
        fds += [status_read, status_write]
        seccomp_fd = seccomp.bpf_fd() if self.use_seccomp else None
        if seccomp_fd is not None:
            fds.append(seccomp_fd)
        argv = self.launcher_args(uid, cgroup) + self.bwrap_args(spec, runtime, seat, status_write, seccomp_fd)
        return argv, [fd for fd in (status_write, seccomp_fd) if fd is not None]

    def start(self, spec: BotSpec, slot: int | None = None) -> LaunchedBot:
        if spec.language != "reference" and spec.folder is None:
            raise SandboxError(f"{spec.name}: a {spec.language} bot needs its folder")
        return self._spawn(spec, slot, subprocess.DEVNULL)

    def start_warm(self, control: int) -> LaunchedBot:
        """A pooled sandbox (worker/sandbox/warm.py): the stub of bots_sdk/warm.py on the shared runtime, its
        stdin the ``control`` socket, an empty /bot/src bound read-only for its bot's code to be copied into."""
        return self._spawn(None, None, control)

    def _spawn(self, spec: BotSpec | None, slot: int | None, stdin: int) -> LaunchedBot:
        if os.geteuid() != 0:
            raise SandboxUnavailable("the bwrap backend must run as root (to drop each bot to its slot uid)")
        runtime = spec.venv if spec is not None and spec.venv is not None else self.runtime
        name = spec.name if spec is not None else "warm stub"
        slot = self.pool.acquire(slot)
        uid = self.pool.uid(slot)
        seat = SeatDir(self.state_dir, slot, uid)
        cgroup: SandboxCgroup | None = None
        fds: list[int] = []
        try:
            if procs.sweep_uid(uid, f"bwrap slot {slot} before start", timeout=0):
                log.error("slot %d had live processes before start (killed)", slot)
            seat.create(spec.folder if spec is not None and spec.language != "reference" else None)
            if spec is None:
                seat.src.mkdir(mode=0o755)
            if self.cgroups is not None:
                # named by uid, not slot: two slot pools (a test suite's, a worker's) share the cgroup parent
                cgroup = self.cgroups.create(f"uid-{uid}", self.limits.memory_mb * MIB, self.limits.pids)
            argv, pass_fds = self._chain(spec, runtime, seat, uid, cgroup, fds)
            status_read = fds[0]
            with open(seat.log, "ab") as log_file:
                started = time.perf_counter()
                popen = subprocess.Popen(
                    argv, env=LAUNCHER_ENV, stdin=stdin, stdout=log_file, stderr=subprocess.STDOUT,
                    start_new_session=True, close_fds=True, cwd="/", pass_fds=pass_fds,
                )
        except BaseException:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            if cgroup is not None:
                cgroup.remove()
            seat.remove()
            self.pool.release(slot)
            raise
        for fd in fds[1:]:
            os.close(fd)
        handle = LaunchedBot(
            backend=self.name, slot=slot, uid=uid, pool=self.pool, seat=seat, popen=popen, pid1=None,
            cgroup=cgroup, status_fd=status_read, started=started,
        )
        try:
            handle.pid1 = read_child_pid(status_read, self.start_timeout)
        except SandboxError as error:
            handle.kill()
            raise SandboxError(f"{name}: {error}; log:\n{handle.log_tail()}") from None
        return handle

    # ------------------------------------------------------------ probing

    def capabilities(self) -> Capabilities:
        controllers = self.cgroups.controllers() if self.cgroups is not None and self.cgroups.available else set()
        return Capabilities(
            backend=self.name, isolated=True, uid_per_slot=True,
            memory_cgroup="memory" in controllers, pids_cgroup="pids" in controllers,
            freezer="freezer" in controllers, seccomp=self.use_seccomp,
            cgroup_version=self.cgroups.version if self.cgroups is not None else None,
            cpu_quota="cpu" in controllers,
        )

    def self_test(self) -> None:
        """Run the runtime's python through the full chain as a slot uid; raise ``SandboxUnavailable`` saying why
        not. The probe runs once per process and chain: it costs what a bot start costs (150 to 250 ms of CPU
        here), and a worker asks before every match; the tools and the runtime (``RuntimeStale``) are checked
        every time."""
        if os.geteuid() != 0:
            raise SandboxUnavailable("the bwrap backend must run as root (it drops each bot to a slot uid)")
        for tool in (self.bwrap, "/usr/bin/setpriv", "/usr/bin/prlimit", "/bin/sh"):
            if not os.access(tool, os.X_OK):
                hint = " (apt-get install -y bubblewrap)" if tool == self.bwrap else ""
                raise SandboxUnavailable(f"{tool} is missing{hint}")
        try:
            runtime = self.runtime
            bpf = seccomp.deny_list_bpf() if self.use_seccomp else b""
        except (RuntimeUnavailable, seccomp.SeccompUnavailable) as error:
            raise SandboxUnavailable(str(error)) from None
        del bpf
        chain = (self.bwrap, str(runtime), repr(self.limits), str(self.use_seccomp), str(self.state_dir),
                 str(self.pool.first_uid))
        if chain in _PROBED:
            return
        probe = BotSpec("selftest", "1", "command", ("/bot/venv/bin/python", "-c", "import grpc, bots_sdk.server"),
                        Path("/nonexistent"))
        slot = self.pool.acquire()
        uid = self.pool.uid(slot)
        seat = SeatDir(self.state_dir, slot, uid).create(None)
        seat.src.mkdir(mode=0o755)
        fds: list[int] = []
        try:
            argv, pass_fds = self._chain(probe, runtime, seat, uid, None, fds)
            result = subprocess.run(
                argv, env=LAUNCHER_ENV, stdin=subprocess.DEVNULL, capture_output=True, timeout=30, check=False,
                pass_fds=pass_fds, start_new_session=True,
            )
            if result.returncode != 0:
                output = (result.stdout + result.stderr).decode(errors="replace").strip()
                raise SandboxUnavailable(
                    f"bwrap cannot sandbox on this machine (exit {result.returncode}): {output}\n"
                    "unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, "
                    "user.max_user_namespaces > 0, or Ubuntu's kernel.apparmor_restrict_unprivileged_userns=0)"
                )
            _PROBED.add(chain)
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            procs.sweep_uid(uid, "bwrap self-test", timeout=1.0)
            seat.remove()
            self.pool.release(slot)
