"""One build step run in the bwrap sandbox: a slot uid, cgroups, rlimits, no network, a time limit, its output logged.

Shared by the two kinds of build step (worker/build.py): the pip install of a Python bot's requirements
(worker/builds/install.py) and the compile or install step of a bot in another language
(worker/builds/languages.py). The caller says what is bound where and what runs; this module owns the slot,
the launch chain and the clean-up, so every step is isolated the same way.

The cgroups are a bot run's (worker/sandbox/cgroups.py): the memory of the step's whole process tree
(``BuildLimits.memory_mb``; RLIMIT_AS alone is per process, so a step that forks could take the host's memory),
its tasks and one CPU. A step the memory cgroup stopped says so (``StepEnd.out_of_memory``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from worker.builds import BuildLimits
from worker.sandbox import procs, seccomp
from worker.sandbox.base import MIB, SandboxLimits
from worker.sandbox.bwrap import LAUNCHER_ENV, BwrapSandbox, join_args, rlimit_args, setpriv_args
from worker.sandbox.cgroups import SandboxCgroup

log = logging.getLogger("worker.build")

STEP_PIDS = 256
"""Tasks of a build step's uid: compilers and package managers start threads and helper processes."""


def step_limits(limits: BuildLimits, pids: int = 64) -> SandboxLimits:
    """The limits of a build step: the cgroups' memory and tasks, and the rlimit backstops (the tools are
    trusted code, but they read untrusted input)."""
    return SandboxLimits(
        memory_mb=limits.memory_mb, pids=pids, cpu_s=int(limits.install_s) + 5, fsize_mb=limits.install_file_mb,
        nofile=1024, tmp_mb=limits.install_tmp_mb, as_mb=limits.install_memory_mb,
    )


@dataclasses.dataclass(frozen=True)
class StepEnd:
    """How a build step ended."""

    code: int | None
    """Its exit code; None when it ran past its time limit."""
    out_of_memory: bool
    """The memory cgroup's OOM killer ended one of its processes (the step hit ``SandboxLimits.memory_mb``)."""

    @property
    def stopped_by_memory(self) -> bool:
        """The step failed, and the memory limit is why: it killed a process of the step."""
        return self.out_of_memory and self.code != 0


def run_step(
    sandbox: BwrapSandbox, prepare: Callable[[int], None], bwrap: Callable[[int | None], list[str]],
    sandbox_limits: SandboxLimits, timeout_s: float, log_path: Path,
) -> StepEnd:
    """Run one step as a slot uid of ``sandbox``'s pool, in cgroups of ``sandbox_limits`` where the host has them.

    ``prepare(uid)`` hands the step's writable folders to the uid; ``bwrap(seccomp_fd)`` is the bwrap argv
    (from ``bwrap.base_args``) that runs the step. Its stdout and stderr go to ``log_path``. The slot is
    swept before and after and the cgroups emptied and removed, so a step's stray process never outlives it."""
    slot = sandbox.pool.acquire()
    uid = sandbox.pool.uid(slot)
    seccomp_fd: int | None = None
    cgroup: SandboxCgroup | None = None
    try:
        procs.sweep_uid(uid, f"build slot {slot} before start", timeout=0)
        prepare(uid)
        if sandbox.cgroups is not None:  # named as a bot's: the slot's uid is the step's for now
            cgroup = sandbox.cgroups.create(f"uid-{uid}", sandbox_limits.memory_mb * MIB, sandbox_limits.pids)
        seccomp_fd = seccomp.bpf_fd() if sandbox.use_seccomp else None
        argv = [*join_args(cgroup), *setpriv_args(uid), *rlimit_args(sandbox_limits), *bwrap(seccomp_fd)]
        with open(log_path, "ab") as log_file:
            popen = subprocess.Popen(
                argv, env=LAUNCHER_ENV, stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT,
                start_new_session=True, close_fds=True, cwd="/",
                pass_fds=[seccomp_fd] if seccomp_fd is not None else [],
            )
            code: int | None
            try:
                code = popen.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(popen.pid, signal.SIGKILL)
                popen.wait()
                code = None
        return StepEnd(code, cgroup is not None and cgroup.oom_kills() > 0)
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)
        procs.sweep_uid(uid, f"build slot {slot}", timeout=1.0)
        if cgroup is not None and (left := cgroup.remove()):
            log.error("sandbox bug: build slot %d: cgroup not empty after the step: %s", slot, sorted(left))
        sandbox.pool.release(slot)


def read_tail(path: Path, size: int = 16 * 1024) -> str:
    """The last ``size`` bytes of a step's log, as text."""
    with open(path, "rb") as file:
        file.seek(max(0, path.stat().st_size - size))
        return file.read().decode(errors="replace")


def tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])
