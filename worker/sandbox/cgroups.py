"""Memory, pids and freezer cgroups for one sandbox, on cgroup v1 (this CI host) or v2 (modern distros).

The cgroup is the real memory limit for the bot's whole process tree (pitfall 7:
RLIMIT_AS is a poor one for gRPC/Python), a hard cap on tasks, a clean pause
between turns (freezer) and a final "is anything left" check.

Groups are created as children of the worker's own cgroup (``<own>/durak-arena/
slot-N``), so limits set on the worker itself still hold for its bots. The
launcher joins the group before it execs bwrap (see bwrap.py), so every process
of the sandbox is inside from its first instruction.

On v2 a cgroup that holds processes cannot hand controllers to its children
("no internal processes"), so unless the worker's own cgroup is delegated and
empty of processes (a systemd ``Delegate=yes`` unit with the worker moved into a
leaf, or ``cgroup_parent`` pointing at such a subtree), enabling fails and the
backend runs without cgroups, which ``capabilities()`` reports.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "freezer", "cpuacct")
GROUP_PARENT = "durak-arena"


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

    @property
    def procs_files(self) -> list[str]:
        """The ``cgroup.procs`` files a launcher writes its pid to before exec."""
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    @property
    def has_memory(self) -> bool:
        return "memory" in self.dirs or (self.version == 2 and (self.dirs[""] / "memory.max").exists())

    @property
    def has_pids(self) -> bool:
        return "pids" in self.dirs or (self.version == 2 and (self.dirs[""] / "pids.max").exists())

    @property
    def has_freezer(self) -> bool:
        return "freezer" in self.dirs or self.version == 2

    def procs(self) -> set[int]:
        """Every pid in any of the groups."""
        pids: set[int] = set()
        for directory in self.dirs.values():
            with contextlib.suppress(FileNotFoundError):
                pids.update(int(p) for p in (directory / "cgroup.procs").read_text().split())
        return pids

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

    def freeze(self, timeout: float = 1.0) -> None:
        if self.version == 1:
            state = self.dirs["freezer"] / "freezer.state"
            _write(state, "FROZEN")
            self._wait(lambda: state.read_text().strip() == "FROZEN", timeout)
        else:
            _write(self.dirs[""] / "cgroup.freeze", "1")
            events = self.dirs[""] / "cgroup.events"
            self._wait(lambda: "frozen 1" in events.read_text(), timeout)
        self.frozen = True

    def thaw(self) -> None:
        if self.version == 1:
            _write(self.dirs["freezer"] / "freezer.state", "THAWED")
        else:
            _write(self.dirs[""] / "cgroup.freeze", "0")
        self.frozen = False

    @staticmethod
    def _wait(done: object, timeout: float) -> None:
        assert callable(done)
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError("the cgroup did not freeze in time")
            time.sleep(0.0005)

    def kill_all(self) -> None:
        """SIGKILL everything in the groups (v2: ``cgroup.kill``), thawing a frozen group so the kill lands."""
        if self.version == 2 and (self.dirs[""] / "cgroup.kill").exists():
            _write(self.dirs[""] / "cgroup.kill", "1")
        else:
            for pid in self.procs():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        if self.frozen:
            self.thaw()

    def remove(self, timeout: float = 1.0) -> set[int]:
        """Remove the groups once empty; returns pids still inside after ``timeout`` (a sandbox bug)."""
        deadline = time.monotonic() + timeout
        while self.procs() and time.monotonic() < deadline:
            self.kill_all()
            time.sleep(0.005)
        left = self.procs()
        for directory in self.dirs.values():
            with contextlib.suppress(OSError):
                directory.rmdir()
        return left


class CgroupManager:
    """Creates one ``SandboxCgroup`` per slot under the worker's own cgroup (or ``parent``)."""

    def __init__(self, parent: Path | None = None) -> None:
        self.version = version()
        self.problem = ""
        self._parents: dict[str, Path] = {}
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

    def controllers(self) -> set[str]:
        """The v1 controllers in use ({"memory", "pids", "freezer"} on v2 when enabling worked)."""
        if self.version == 2:
            return {"memory", "pids", "freezer"} if self.available else set()
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
            group = SandboxCgroup(self.version, dirs)
            self._limit(group, memory_bytes, pids)
            return group
        except OSError as error:
            self.problem = f"cannot create cgroups under {list(self._parents.values())}: {error}"
            return None

    def _enable_v2(self, parent: Path) -> None:
        for directory in (parent.parent, parent):
            if directory.exists() or directory is parent:
                directory.mkdir(exist_ok=True)
                _write(directory / "cgroup.subtree_control", "+memory +pids")

    def _limit(self, group: SandboxCgroup, memory_bytes: int, pids: int) -> None:
        if group.version == 1:
            if "memory" in group.dirs:
                _write(group.dirs["memory"] / "memory.limit_in_bytes", str(memory_bytes))
                swap = group.dirs["memory"] / "memory.memsw.limit_in_bytes"
                if swap.exists():
                    _write(swap, str(memory_bytes))
            if "pids" in group.dirs:
                _write(group.dirs["pids"] / "pids.max", str(pids))
        else:
            directory = group.dirs[""]
            _write(directory / "memory.max", str(memory_bytes))
            if (directory / "memory.swap.max").exists():
                _write(directory / "memory.swap.max", "0")
            _write(directory / "pids.max", str(pids))
