"""Memory, pids, cpu and freezer cgroups for one sandbox, on cgroup v1 (this CI host) or v2 (modern distros).

The cgroup is the real memory limit for the bot's whole process tree (pitfall 7:
RLIMIT_AS is a poor one for gRPC/Python), a hard cap on tasks, one CPU at most
(a bot with many threads cannot take a second core from the others), a clean
pause between turns (freezer) and a final "is anything left" check.

Freezing is on the referee's path for every decision, so it is kept cheap:

* the state files stay open (one ``pwrite``/``pread`` each, no open/close);
* on v1 an empty group, ``frozen-anchor``, stays frozen for good: the kernel
  switches its freezer code on (a static key, patched into the running kernel
  text) while any group is freezing, and off again when none is. With no
  other frozen group every freeze and thaw of a bot flips it, which measured
  0.4 to 1 ms per freeze+thaw here, against a few microseconds with the anchor;
* the referee does not wait for the frozen state. The write itself stops the
  bot's code: a task asleep (a bot idle in ``epoll``, the usual case) is frozen
  on the spot; a running one is interrupted and parks itself before it returns
  to user mode; a runnable or cpu-throttled one parks as soon as it is next
  scheduled, before running any of its own code. "FREEZING" only means some
  task was not scheduled yet, never that it still computes; waiting for
  "FROZEN" cost a busy bot's opponent up to milliseconds per decision.

Groups are created as children of the worker's own cgroup (``<own>/durak-arena/
uid-N``, N the slot uid), so limits set on the worker itself still hold for its
bots. The launcher joins the group before it execs bwrap (see bwrap.py), so every
process of the sandbox is inside from its first instruction.

On v2 a cgroup that holds processes cannot hand controllers to its children
("no internal processes"), so unless the worker's own cgroup is delegated and
empty of processes (a systemd ``Delegate=yes`` unit with the worker moved into a
leaf, or ``cgroup_parent`` pointing at such a subtree), enabling fails and the
backend runs without cgroups, which ``capabilities()`` reports.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import time
from pathlib import Path

log = logging.getLogger(__name__)

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "freezer", "cpuacct", "cpu")
GROUP_PARENT = "durak-arena"
FROZEN_ANCHOR = "frozen-anchor"
"""The empty v1 freezer group kept frozen under ``GROUP_PARENT`` (see the module docstring); shared by every
worker with the same parent, never removed."""
CPU_PERIOD_US = 10_000
"""The cpu quota's period: one CPU is ``CPU_PERIOD_US`` of CPU time per ``CPU_PERIOD_US``. A short period keeps a
many-threaded bot that burnt its quota early from being held back for long."""


FEATURES = Path("/sys/kernel/cgroup/features")
FAVOR_DYNMODS_ENV = "DURAK_FAVORDYNMODS"
_favoring: str | None = None
"""What ``favor_dynamic_changes`` found or did, once per process."""


def favor_dynamic_changes(mountinfo: Path = Path("/proc/self/mountinfo"), features: Path = FEATURES) -> str:
    """Turn on the kernel's ``favordynmods`` (Linux 6.0+) on the cgroup2 hierarchy unless ``DURAK_FAVORDYNMODS``
    is ``off``; returns what it found or did, for the worker's log.

    Every bot start moves its launcher into fresh groups (bwrap.py). Without the option each such move takes
    the kernel's global ``cgroup_threadgroup_rwsem`` the slow way, and the namespaces bwrap creates next wait
    for an RCU grace period: measured here, 10 ms more from launch to the bot's first line of Python, with the
    same CPU (docs/sandbox.md section 9, pitfall 8). The option trades this for slightly dearer forks and exits; the
    lock is global, so one cgroup2 mount carries it for the v1 controllers of a hybrid host too. Remounting
    needs root on the host's cgroup2 (a privileged container); where that fails the worker runs as before."""
    global _favoring
    if _favoring is not None:
        return _favoring
    setting = os.environ.get(FAVOR_DYNMODS_ENV, "on").strip().lower()
    if setting not in ("on", "off"):
        raise ValueError(f"{FAVOR_DYNMODS_ENV}: {setting!r} is not one of on, off")
    _favoring = _favor(setting, mountinfo, features)
    log.info("cgroup favordynmods: %s", _favoring)
    return _favoring


def _favor(setting: str, mountinfo: Path, features: Path) -> str:
    mount = next((line.split() for line in mountinfo.read_text().splitlines() if " - cgroup2 " in line), None)
    if mount is None:
        return "no cgroup2 hierarchy is mounted"
    target, super_options = mount[4], mount[-1].split(",")
    if "favordynmods" in super_options:
        return f"on ({target})"
    if setting == "off":
        return f"off ({FAVOR_DYNMODS_ENV}=off)"
    if not features.exists() or "favordynmods" not in features.read_text().split():
        return "unsupported by this kernel (before Linux 6.0)"
    # Every option the mount has now goes back in (a read-only one stays so): a remount drops what it is not
    # given, nsdelegate above all.
    kept = [option for option in mount[5].split(",") + super_options if option != "rw"]
    result = subprocess.run(["mount", "-o", ",".join(["remount", *dict.fromkeys(kept), "favordynmods"]), target],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return f"off: remounting {target} failed: {(result.stderr or result.stdout).strip()}"
    return f"turned on ({target})"


def version() -> int | None:
    """2 on a pure v2 host, 1 when v1 controllers are mounted, None without usable cgroups."""
    if (ROOT / "cgroup.controllers").exists():
        return 2
    if (ROOT / "memory" / "cgroup.procs").exists() or (ROOT / "pids" / "cgroup.procs").exists():
        return 1
    return None


def own_paths() -> dict[str, str]:
    """This process's cgroup path per v1 controller (key ``""`` for v2), from /proc/self/cgroup."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def _write(path: Path, value: str) -> None:
    with open(path, "w") as file:
        file.write(value)


class SandboxCgroup:
    """The cgroups of one sandbox; ``dirs`` maps a controller (``""`` on v2) to its directory."""

    def __init__(self, cgroup_version: int, dirs: dict[str, Path]) -> None:
        self.version = cgroup_version
        self.dirs = dirs
        self.frozen = False
        self._control: int | None = None
        """The open freeze control file: v1 ``freezer.state``, v2 ``cgroup.freeze``."""
        self._state: int | None = None
        """The open file that says whether the group is frozen: v1 ``freezer.state``, v2 ``cgroup.events``."""

    @property
    def procs_files(self) -> list[str]:
        """The ``cgroup.procs`` files a launcher writes its pid to before exec."""
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    @property
    def has_freezer(self) -> bool:
        return "freezer" in self.dirs or self.version == 2

    @property
    def has_cpu(self) -> bool:
        return "cpu" in self.dirs or (self.version == 2 and (self.dirs[""] / "cpu.max").exists())

    def cpu_ns(self) -> int:
        """CPU time used by every task of the group so far, in nanoseconds (0 where the host cannot tell)."""
        with contextlib.suppress(FileNotFoundError, KeyError):
            if self.version == 1:
                return int((self.dirs["cpuacct"] / "cpuacct.usage").read_text())
            for line in (self.dirs[""] / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) * 1000
        return 0

    def procs(self) -> set[int]:
        """Every pid in any of the groups."""
        pids: set[int] = set()
        for directory in self.dirs.values():
            with contextlib.suppress(FileNotFoundError):
                pids.update(int(p) for p in (directory / "cgroup.procs").read_text().split())
        return pids

    def tasks(self) -> set[int]:
        """Every thread of the group (v1 ``tasks``, v2 ``cgroup.threads``): one group's list, as the launcher joins
        all of them before the bot runs, and what runs inherits them; not the freezer's, which the outer bwrap
        leaves (``spare_from_freezing``)."""
        directory = next((d for controller, d in self.dirs.items() if controller != "freezer"), None)
        if directory is None:
            directory = next(iter(self.dirs.values()))
        listing = directory / ("tasks" if self.version == 1 else "cgroup.threads")
        try:
            return {int(task) for task in listing.read_text().split()}
        except FileNotFoundError:
            return set()

    def oom_kills(self) -> int:
        """How many processes the OOM killer ended in this group (0 where unknown)."""
        path = self.dirs.get("memory", self.dirs.get("", Path("/nonexistent")))
        for name in ("memory.oom_control", "memory.events"):
            with contextlib.suppress(FileNotFoundError):
                for line in (path / name).read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        return 0

    def freeze(self) -> None:
        """Freeze every task of the group (see the module docstring: no wait for the frozen state)."""
        if self._control is None:
            self._open()
        assert self._control is not None
        os.pwrite(self._control, b"FROZEN" if self.version == 1 else b"1", 0)
        self.frozen = True

    def spare_from_freezing(self, pid: int) -> None:
        """Move process ``pid`` out of the v1 freezer group, to the group above it; it keeps every other group
        and limit. On v2 it stays: there a group's freeze is its children's too, so sparing one process would
        take moving the bot into a group of its own.

        For the outer bwrap, which only waits for the sandbox's pid 1: its sleep is not one the freezer can
        take as it is, so every freeze and every thaw of its bot woke it, two context switches a decision on
        the game's core. It runs outside the sandbox's pid namespace, as nothing the bot can see or signal.
        The sandbox's pid 1 stays frozen with the bot: a bot can write its memory (``/proc/1/mem``)."""
        if self.version != 1 or "freezer" not in self.dirs:
            return
        with contextlib.suppress(ProcessLookupError):
            _write(self.dirs["freezer"].parent / "cgroup.procs", str(pid))

    def is_frozen(self) -> bool:
        """Whether every task has parked (``freeze`` does not wait for it)."""
        if self._state is None:
            self._open()
        assert self._state is not None
        return (b"FROZEN\n" if self.version == 1 else b"frozen 1") in os.pread(self._state, 256, 0)

    def thaw(self) -> None:
        if self._control is None:
            self._open()
        assert self._control is not None
        os.pwrite(self._control, b"THAWED" if self.version == 1 else b"0", 0)
        self.frozen = False

    def _open(self) -> None:
        if self.version == 1:
            self._control = self._state = os.open(self.dirs["freezer"] / "freezer.state", os.O_RDWR | os.O_CLOEXEC)
        else:
            self._control = os.open(self.dirs[""] / "cgroup.freeze", os.O_WRONLY | os.O_CLOEXEC)
            self._state = os.open(self.dirs[""] / "cgroup.events", os.O_RDONLY | os.O_CLOEXEC)

    def _close(self) -> None:
        for fd in {fd for fd in (self._control, self._state) if fd is not None}:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._control = self._state = None

    def kill_all(self) -> None:
        """SIGKILL everything in the groups (v2: ``cgroup.kill``), thawing a frozen group so the kill lands."""
        if self.version == 2 and (self.dirs[""] / "cgroup.kill").exists():
            _write(self.dirs[""] / "cgroup.kill", "1")
        else:
            for pid in self.procs():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        if self.has_freezer:
            # Whoever froze it (this worker, or one that died with the group frozen), a frozen (v1) task holds
            # its SIGKILL until it is thawed: always thaw, or a leftover group would block its slot for good.
            with contextlib.suppress(OSError):
                self.thaw()

    def remove(self, timeout: float = 1.0) -> set[int]:
        """Remove the groups once empty; returns pids still inside after ``timeout`` (a sandbox bug)."""
        deadline = time.monotonic() + timeout
        while self.procs() and time.monotonic() < deadline:
            self.kill_all()
            time.sleep(0.005)
        left = self.procs()
        self._close()
        for directory in self.dirs.values():
            with contextlib.suppress(OSError):
                directory.rmdir()
        return left


class CgroupManager:
    """Creates one ``SandboxCgroup`` per slot under the worker's own cgroup (or ``parent``)."""

    def __init__(self, parent: Path | None = None) -> None:
        self.version = version()
        if self.version is not None and os.geteuid() == 0:
            favor_dynamic_changes()
        self.problem = ""
        self._parents: dict[str, Path] = {}
        self._v2_cpu = False
        if self.version == 1:
            own = own_paths()
            for controller in V1_CONTROLLERS:
                mount = ROOT / controller
                if controller in own and (mount / "cgroup.procs").exists():
                    base = mount / own[controller].lstrip("/") if parent is None else mount / parent
                    self._parents[controller] = base / GROUP_PARENT
        elif self.version == 2:
            base = ROOT / own_paths().get("", "/").lstrip("/") if parent is None else ROOT / parent
            self._parents[""] = base / GROUP_PARENT
        else:
            self.problem = "no cgroup hierarchy is mounted"

    @property
    def available(self) -> bool:
        return bool(self._parents) and not self.problem

    def cpu_ns(self) -> int:
        """CPU time of every sandbox created under this manager's parent so far, removed ones included (the
        accounting is hierarchical), in nanoseconds; 0 where the host cannot tell."""
        if not self.available or self.version is None:
            return 0
        return SandboxCgroup(self.version, dict(self._parents)).cpu_ns()

    def controllers(self) -> set[str]:
        """The v1 controllers in use ({"memory", "pids", "freezer"}, and "cpu" where enabled, on v2)."""
        if self.version == 2:
            return ({"memory", "pids", "freezer"} | ({"cpu"} if self._v2_cpu else set())) if self.available else set()
        return set(self._parents)

    def create(self, name: str, memory_bytes: int, pids: int) -> SandboxCgroup | None:
        """A fresh, limited group set called ``name``; None (and ``problem`` set) when cgroups are unusable."""
        if not self.available or self.version is None:
            return None
        try:
            dirs: dict[str, Path] = {}
            for controller, parent in self._parents.items():
                if self.version == 2:
                    self._enable_v2(parent)
                parent.mkdir(exist_ok=True)
                directory = parent / name
                if directory.exists():  # left over by a crashed worker: empty it and start afresh
                    SandboxCgroup(self.version, {controller: directory}).remove()
                directory.mkdir(exist_ok=True)
                dirs[controller] = directory
            if self.version == 1 and "freezer" in self._parents:
                self._keep_anchor_frozen(self._parents["freezer"])
            group = SandboxCgroup(self.version, dirs)
            self._limit(group, memory_bytes, pids)
            return group
        except OSError as error:
            self.problem = f"cannot create cgroups under {list(self._parents.values())}: {error}"
            return None

    @staticmethod
    def _keep_anchor_frozen(parent: Path) -> None:
        anchor = parent / FROZEN_ANCHOR
        anchor.mkdir(exist_ok=True)
        if (anchor / "freezer.state").read_text().strip() != "FROZEN":
            _write(anchor / "freezer.state", "FROZEN")

    def _enable_v2(self, parent: Path) -> None:
        for directory in (parent.parent, parent):
            if directory.exists() or directory is parent:
                directory.mkdir(exist_ok=True)
                _write(directory / "cgroup.subtree_control", "+memory +pids")
                try:  # the cpu controller may be missing or not delegated: bots then run without a quota
                    _write(directory / "cgroup.subtree_control", "+cpu")
                    self._v2_cpu = True
                except OSError:
                    self._v2_cpu = False

    def _limit(self, group: SandboxCgroup, memory_bytes: int, pids: int) -> None:
        if group.version == 1:
            if "memory" in group.dirs:
                _write(group.dirs["memory"] / "memory.limit_in_bytes", str(memory_bytes))
                swap = group.dirs["memory"] / "memory.memsw.limit_in_bytes"
                if swap.exists():
                    _write(swap, str(memory_bytes))
            if "pids" in group.dirs:
                _write(group.dirs["pids"] / "pids.max", str(pids))
            if "cpu" in group.dirs:
                _write(group.dirs["cpu"] / "cpu.cfs_period_us", str(CPU_PERIOD_US))
                _write(group.dirs["cpu"] / "cpu.cfs_quota_us", str(CPU_PERIOD_US))
        else:
            directory = group.dirs[""]
            _write(directory / "memory.max", str(memory_bytes))
            if (directory / "memory.swap.max").exists():
                _write(directory / "memory.swap.max", "0")
            _write(directory / "pids.max", str(pids))
            if (directory / "cpu.max").exists():
                _write(directory / "cpu.max", f"{CPU_PERIOD_US} {CPU_PERIOD_US}")
