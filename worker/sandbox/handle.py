"""The running sandbox of a launcher-based backend (bwrap, process) and its kill sequence.

Kill sequence (docs/sandbox.md section 8), every step because each covers a case the
others miss:

1. SIGKILL the sandbox's pid 1 (``--json-status-fd``): the kernel then kills the
   whole pid namespace, and the outer bwrap reaps it at once (killing only the
   outer bwrap leaves pid 1 an orphan zombie until the host init reaps it).
2. Thaw a frozen sandbox (a v1-frozen task cannot die, a frozen bwrap cannot
   reap), and give the outer bwrap a moment to reap pid 1 and exit.
3. ``killpg`` the launcher's process group (bwrap's ``--new-session`` puts the
   bot in another session, so this reaches the launcher only), then ``wait``.
4. Sweep by slot uid: any live process of the slot uid is a sandbox bug: it is
   logged and killed (``procs.py``).
5. The cgroups must be empty; they are removed.
6. The seat dir (socket dir included) is removed, and the slot released.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import signal
import subprocess
import time
from pathlib import Path

from worker.sandbox import procs
from worker.sandbox.base import SandboxedBot, SandboxError
from worker.sandbox.cgroups import SandboxCgroup
from worker.sandbox.layout import SeatDir
from worker.sandbox.slots import SlotPool

log = logging.getLogger(__name__)
LOG_KEEP_BYTES = 64 * 1024
LAUNCHER_EXIT_S = 0.5
"""How long the outer bwrap gets to reap pid 1 and exit before it is killed too."""
SIGSTOP_WARNING = (
    "WARNING: no cgroup freezer: idle bots are paused with SIGSTOP, which a bot can notice (SIGCHLD, "
    "/proc) and which costs a scan of /proc per turn; give the worker a cgroup freezer (v1 or v2)"
)
_warned_sigstop = False


class LaunchedBot(SandboxedBot):
    """A bot started through a launcher process; see the module docstring for ``kill``."""

    def __init__(
        self, *, backend: str, slot: int, uid: int, pool: SlotPool, seat: SeatDir, popen: subprocess.Popen[bytes],
        pid1: int | None, cgroup: SandboxCgroup | None, status_fd: int | None, started: float,
    ) -> None:
        self.backend = backend
        self.slot = slot
        self.uid = uid
        self.address = seat.socket
        self.pid1 = pid1
        self.popen = popen
        self.cgroup = cgroup
        self.started = started
        """``time.perf_counter()`` just before the launcher was spawned (pooled: when it was given its bot)."""
        self._pool = pool
        self._seat = seat
        self._status_fd = status_fd
        self._stopped_by_signal = False
        self._monitor_spared = False
        """Whether the first freeze took the outer bwrap out of the freezer (``SandboxCgroup.spare_from_freezing``)."""
        self._log_kept: bytes | None = None
        self.killed = False
        self._placed: frozenset[int] | None = None
        """The cores ``run_on`` last put it on."""
        self.leftovers: list[int] = []
        """Pids the sweep had to kill (should stay empty; anything here is a sandbox bug)."""
        self.exit_code: int | None = None
        """The bot's exit status as bwrap reported it (128+N for signal N), when known."""

    @property
    def own_uid(self) -> bool:
        """True when the bot runs as the worker's own uid (the process backend without root): no uid sweep."""
        return self.uid == os.getuid()

    # ------------------------------------------------------------ state

    def alive(self) -> bool:
        return not self.killed and self.popen.poll() is None

    def end_fd(self) -> int | None:
        """A pidfd of the launcher (bwrap outside the sandbox), which exits when the sandbox ends."""
        if not self.alive():  # not reaped yet, so its pid is still its own
            return None
        try:
            return os.pidfd_open(self.popen.pid)
        except ProcessLookupError:
            return None

    def log_tail(self, lines: int = 20) -> str:
        if self._log_kept is not None:
            data = self._log_kept
        else:
            try:
                with open(self._seat.log, "rb") as file:
                    file.seek(max(0, os.fstat(file.fileno()).st_size - LOG_KEEP_BYTES))
                    data = file.read()
            except FileNotFoundError:
                data = b""
        return "\n".join(data.decode(errors="replace").splitlines()[-lines:])

    # ------------------------------------------------------------ pausing

    def freeze(self) -> None:
        if self.cgroup is not None and self.cgroup.has_freezer:
            if not self._monitor_spared:
                self._monitor_spared = True
                if self.pid1 is not None and self.pid1 != self.popen.pid:  # the launcher became bwrap's monitor
                    self.cgroup.spare_from_freezing(self.popen.pid)
            self.cgroup.freeze()
            return
        global _warned_sigstop
        if not _warned_sigstop:
            log.warning(SIGSTOP_WARNING)
            _warned_sigstop = True
        self._signal_all(signal.SIGSTOP)
        self._stopped_by_signal = True

    def thaw(self) -> None:
        if self.cgroup is not None and self.cgroup.frozen:
            self.cgroup.thaw()
            return
        if self._stopped_by_signal:
            self._signal_all(signal.SIGCONT)
            self._stopped_by_signal = False

    def run_on(self, cores: set[int]) -> None:
        """Every thread of the sandbox: its cgroups' tasks, or (without cgroups) the threads of its uid's processes;
        one that exits meanwhile is skipped, one that starts later inherits its parent's cores. Done once per set
        of cores: a bot cannot move itself (the seccomp filter), so the next game finds it where it was put, and a
        host without cgroups would scan ``/proc`` for every game."""
        placed = frozenset(cores)
        if self._placed == placed:
            return
        self._placed = placed
        if self.cgroup is not None:
            tasks = self.cgroup.tasks()
        else:
            tasks = procs.threads(self.popen.pid) if self.own_uid else {
                task for pid in procs.pids_of_uid(self.uid) for task in procs.threads(pid)}
        for task in tasks:
            with contextlib.suppress(ProcessLookupError):
                os.sched_setaffinity(task, cores)

    def _signal_all(self, signum: int) -> None:
        """Signal every process of the sandbox, repeating until no new pid shows up (a fork may race the scan)."""
        if self.own_uid:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signum)
            return
        seen: set[int] = set()
        for _ in range(20):
            pids = set(procs.signal_uid(self.uid, signum))
            if pids <= seen:
                return
            seen |= pids

    @property
    def seat(self) -> SeatDir:
        """The seat's host directory (code copy, socket mount, log); gone after ``kill``."""
        return self._seat

    @property
    def seat_dir(self) -> Path:
        """``seat.path``."""
        return self._seat.path

    @property
    def referee_address(self) -> str:
        return self._seat.referee_socket

    def connect_address(self) -> str:
        """A hard link to the checked socket in the root-owned seat dir (see ``SeatDir.referee_socket``)."""
        return self._seat.link_socket(self.check_socket())

    # ------------------------------------------------------------ the end

    def kill(self) -> float:
        if self.killed:
            return 0.0
        started = time.perf_counter()
        self.killed = True
        try:
            if self.pid1 is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid1, signal.SIGKILL)
            self.thaw()  # a frozen outer bwrap could not reap pid 1; a frozen (v1) task cannot even die
            # the outer bwrap exits once it reaped pid 1
            wait_exit(self.popen, LAUNCHER_EXIT_S if self.pid1 is not None else 0)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            if not wait_exit(self.popen, 5):
                log.error("sandbox bug: %s slot %d: the launcher %d did not exit", self.backend, self.slot,
                          self.popen.pid)
            if not self.own_uid:
                self.leftovers = procs.sweep_uid(self.uid, f"{self.backend} slot {self.slot}")
            if self.cgroup is not None:
                left = self.cgroup.remove()
                if left:
                    log.error("sandbox bug: %s slot %d: cgroup not empty after the kill: %s",
                              self.backend, self.slot, sorted(left))
                    self.leftovers.extend(sorted(left))
        finally:
            self._read_exit_code()
            self._keep_log()
            self._seat.remove()
            self._pool.release(self.slot)
        return time.perf_counter() - started

    def _read_exit_code(self) -> None:
        if self._status_fd is None:
            return
        with contextlib.suppress(OSError):
            os.set_blocking(self._status_fd, False)
            data = os.read(self._status_fd, 65536)
            for line in data.splitlines():
                with contextlib.suppress(ValueError):
                    message = json.loads(line)
                    if "exit-code" in message:
                        self.exit_code = int(message["exit-code"])
        with contextlib.suppress(OSError):
            os.close(self._status_fd)
        self._status_fd = None

    def _keep_log(self) -> None:
        try:
            with open(self._seat.log, "rb") as file:
                file.seek(max(0, os.fstat(file.fileno()).st_size - LOG_KEEP_BYTES))
                self._log_kept = file.read()
        except FileNotFoundError:
            self._log_kept = b""

    def __del__(self) -> None:
        if not getattr(self, "killed", True):
            with contextlib.suppress(Exception):
                self.kill()


def wait_exit(popen: subprocess.Popen[bytes], timeout: float) -> bool:
    """Reap ``popen`` if it exits within ``timeout`` seconds; whether it did.

    Woken by the exit itself (a pidfd), not by ``Popen.wait``'s polling, whose sleeps double from half a
    millisecond: a kill waited up to twice as long as the exit took, and a referee on a core of its own
    (worker/referee/cores.py) left the core idle meanwhile."""
    if popen.poll() is not None:
        return True
    try:
        pidfd = os.pidfd_open(popen.pid)
    except ProcessLookupError:  # reaped by someone else between the poll and here
        return popen.poll() is not None
    try:
        select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)
    return popen.poll() is not None


def read_child_pid(fd: int, timeout: float) -> int:
    """The ``child-pid`` bwrap writes to ``--json-status-fd`` once the sandbox is set up."""
    deadline = time.monotonic() + timeout
    buffer = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SandboxError(f"bwrap reported no child pid within {timeout:.1f} s")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            raise SandboxError("bwrap exited before starting the bot")
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                if "child-pid" in message:
                    return int(message["child-pid"])
