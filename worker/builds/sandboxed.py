"""One build step run in the bwrap sandbox: a slot uid, rlimits, no network, a time limit, its output logged.

Shared by the two kinds of build step (worker/build.py): the pip install of a Python bot's requirements
(worker/builds/install.py) and the compile or install step of a bot in another language
(worker/builds/languages.py). The caller says what is bound where and what runs; this module owns the slot,
the launch chain and the clean-up, so every step is isolated the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from worker.builds import BuildLimits
from worker.sandbox import procs, seccomp
from worker.sandbox.base import SandboxLimits
from worker.sandbox.bwrap import LAUNCHER_ENV, BwrapSandbox, rlimit_args, setpriv_args

STEP_PIDS = 256
"""Tasks of a build step's uid: compilers and package managers start threads and helper processes."""


def step_limits(limits: BuildLimits, pids: int = 64) -> SandboxLimits:
    """The rlimit backstops of a build step (the tools are trusted code, but they read untrusted input)."""
    return SandboxLimits(
        pids=pids, cpu_s=int(limits.install_s) + 5, fsize_mb=limits.install_file_mb, nofile=1024,
        tmp_mb=limits.install_tmp_mb, as_mb=limits.install_memory_mb,
    )


def run_step(
    sandbox: BwrapSandbox, prepare: Callable[[int], None], bwrap: Callable[[int | None], list[str]],
    sandbox_limits: SandboxLimits, timeout_s: float, log_path: Path,
) -> int | None:
    """Run one step as a slot uid of ``sandbox``'s pool; its exit code, or None when it ran past ``timeout_s``.

    ``prepare(uid)`` hands the step's writable folders to the uid; ``bwrap(seccomp_fd)`` is the bwrap argv
    (from ``bwrap.base_args``) that runs the step. Its stdout and stderr go to ``log_path``. The slot is
    swept before and after, so a step's stray process never outlives it."""
    slot = sandbox.pool.acquire()
    uid = sandbox.pool.uid(slot)
    seccomp_fd: int | None = None
    try:
        procs.sweep_uid(uid, f"build slot {slot} before start", timeout=0)
        prepare(uid)
        seccomp_fd = seccomp.bpf_fd() if sandbox.use_seccomp else None
        argv = [*setpriv_args(uid), *rlimit_args(sandbox_limits), *bwrap(seccomp_fd)]
        with open(log_path, "ab") as log_file:
            popen = subprocess.Popen(
                argv, env=LAUNCHER_ENV, stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT,
                start_new_session=True, close_fds=True, cwd="/",
                pass_fds=[seccomp_fd] if seccomp_fd is not None else [],
            )
            try:
                return popen.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(popen.pid, signal.SIGKILL)
                popen.wait()
                return None
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)
        procs.sweep_uid(uid, f"build slot {slot}", timeout=1.0)
        sandbox.pool.release(slot)


def read_tail(path: Path, size: int = 16 * 1024) -> str:
    """The last ``size`` bytes of a step's log, as text."""
    with open(path, "rb") as file:
        file.seek(max(0, path.stat().st_size - size))
        return file.read().decode(errors="replace")


def tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])
