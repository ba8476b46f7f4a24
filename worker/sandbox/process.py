"""The ``process`` backend: rlimits and (as root) a separate uid per slot, and nothing else.

For development machines without user namespaces (macOS aside: WSL, locked-down
hosts) and quick local runs. It does NOT isolate: the bot can use the network,
read every world-readable file and see other processes. So it is opt-in by
name, and it prints a loud warning at every start. Kill: the same sequence as
bwrap (handle.py) minus pid 1; the uid sweep only when running as root, since
without a slot uid "every process of the uid" would include the worker.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from bots_sdk.botdir import BotSpec
from worker.sandbox.base import Capabilities, Sandbox, SandboxError, SandboxLimits, SandboxUnavailable
from worker.sandbox.bwrap import DEFAULT_RUNTIME_DIR, rlimit_args, setpriv_args
from worker.sandbox.handle import LaunchedBot
from worker.sandbox.layout import SeatDir
from worker.sandbox.runtime import RuntimeUnavailable, ensure_runtime
from worker.sandbox.slots import FIRST_UID, SLOTS, SlotPool

log = logging.getLogger(__name__)

WARNING = (
    "WARNING: process sandbox backend: the bot can use the network, read any world-readable file, "
    "and see other processes. Use only for bots you trust."
)


class ProcessSandbox(Sandbox):
    """Bots as plain processes under rlimits (and a slot uid when the worker is root)."""

    name = "process"

    def __init__(
        self, limits: SandboxLimits | None = None, *, state_dir: Path | None = None,
        runtime_dir: Path = DEFAULT_RUNTIME_DIR, first_uid: int = FIRST_UID, slots: int = SLOTS,
        start_timeout: float = 10.0,
    ) -> None:
        self.limits = limits or SandboxLimits()
        self.root = os.geteuid() == 0
        default_state = Path("/run/durak") if self.root else Path(f"/tmp/durak-{os.getuid()}")
        self.state_dir = Path(state_dir) if state_dir is not None else default_state
        self.runtime_dir = Path(runtime_dir)
        self.pool = SlotPool(self.state_dir / "slots", first_uid, slots)
        self.start_timeout = start_timeout

    @functools.cached_property
    def python(self) -> str:
        """As root the bot runs as a slot uid, which needs an interpreter it can reach: the runtime venv's."""
        if not self.root:
            return sys.executable
        return str(ensure_runtime(self.runtime_dir) / "bin" / "python")

    def command(self, spec: BotSpec, seat: SeatDir) -> tuple[list[str], str]:
        if spec.language == "reference":
            return [self.python, "-m", "bots_sdk.bots", spec.name], str(seat.run)
        if spec.language == "python":
            return [self.python, spec.entry[0]], str(seat.src)
        return list(spec.entry), str(seat.src)

    def start(self, spec: BotSpec, slot: int | None = None) -> LaunchedBot:
        print(WARNING, file=sys.stderr, flush=True)
        log.warning(WARNING)
        if spec.language != "reference" and spec.folder is None:
            raise SandboxError(f"{spec.name}: a {spec.language} bot needs its folder")
        slot = self.pool.acquire(slot)
        uid = self.pool.uid(slot) if self.root else os.getuid()
        seat = SeatDir(self.state_dir, slot, uid)
        try:
            seat.create(spec.folder if spec.language != "reference" else None)
            command, cwd = self.command(spec, seat)
            argv = [*(setpriv_args(uid) if self.root else []), *rlimit_args(self.limits), *command]
            env = {
                "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(seat.run), "PYTHONUNBUFFERED": "1",
                "PYTHONDONTWRITEBYTECODE": "1", "MALLOC_ARENA_MAX": "2", "DURAK_BOT_ADDRESS": seat.socket,
            }
            with open(seat.log, "ab") as log_file:
                started = time.perf_counter()
                popen = subprocess.Popen(
                    argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT,
                    start_new_session=True, close_fds=True,
                )
        except BaseException:
            seat.remove()
            self.pool.release(slot)
            raise
        return LaunchedBot(
            backend=self.name, slot=slot, uid=uid, pool=self.pool, seat=seat, popen=popen, pid1=popen.pid,
            cgroup=None, status_fd=None, started=started,
        )

    def capabilities(self) -> Capabilities:
        return Capabilities(
            backend=self.name, isolated=False, uid_per_slot=self.root, memory_cgroup=False, pids_cgroup=False,
            freezer=False, seccomp=False,
        )

    def self_test(self) -> None:
        if not os.access("/usr/bin/prlimit", os.X_OK):
            raise SandboxUnavailable("/usr/bin/prlimit is missing (util-linux)")
        if self.root and not os.access("/usr/bin/setpriv", os.X_OK):
            raise SandboxUnavailable("/usr/bin/setpriv is missing (util-linux)")
        with contextlib.suppress(RuntimeUnavailable):
            self.python  # noqa: B018  (builds the runtime now, not at the first match)
            return
        raise SandboxUnavailable(f"no runtime for bots: {self.runtime_dir}")
