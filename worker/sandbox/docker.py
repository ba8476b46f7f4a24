"""The ``docker`` backend for deployers: the same profile as bwrap, as a ``docker run`` (or ``podman run``).

Untested against an engine here (none runs on the CI host); the argv is unit-
tested. The container gets the same view as a bwrap sandbox: the runtime venv
(runtime.py) at ``/bot/venv`` and the bot's snapshot at ``/bot/src``, read-only,
the seat's socket dir at ``/run/bot``, a size-capped ``/tmp``, no network, no
capabilities, the slot uid, and the cgroup limits as docker flags
(``--pids-limit`` rather than ``--ulimit nproc``, which does not bind root:
moby/moby#12898). The image must provide the interpreter the runtime's
``bin/python`` points at (the worker's python minor version under ``/usr``).
Access to the Docker daemon is root-equivalent: never mount its socket into a bot.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import time
from pathlib import Path

from bots_sdk.botdir import BotSpec
from worker.sandbox.base import (
    MIB,
    Capabilities,
    Sandbox,
    SandboxedBot,
    SandboxError,
    SandboxLimits,
    SandboxUnavailable,
)
from worker.sandbox.bwrap import BOT_ENV, DEFAULT_RUNTIME_DIR, DEFAULT_STATE_DIR, IN_SANDBOX_RUN, bot_command
from worker.sandbox.layout import SeatDir
from worker.sandbox.runtime import IN_SANDBOX, ensure_runtime
from worker.sandbox.slots import FIRST_UID, SLOTS, SlotPool

DEFAULT_IMAGE = "durak-bot-runtime:py3.11"


class DockerBot(SandboxedBot):
    """A bot container, named so it can be killed (and swept by label) from outside."""

    def __init__(self, sandbox: DockerSandbox, slot: int, seat: SeatDir, container: str,
                 popen: subprocess.Popen[bytes]) -> None:
        self.slot = slot
        self.address = seat.socket
        self.pid1 = None
        self.container = container
        self._sandbox = sandbox
        self._seat = seat
        self._popen = popen
        self._log = ""
        self.killed = False

    def _docker(self, *args: str) -> None:
        subprocess.run([self._sandbox.docker, *args], capture_output=True, timeout=30, check=False)

    def kill(self) -> float:
        if self.killed:
            return 0.0
        started = time.perf_counter()
        self.killed = True
        try:
            self._docker("kill", self.container)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._popen.wait(timeout=10)
            self._docker("rm", "-f", self.container)
        finally:
            self._log = self.log_tail(1000)
            self._seat.remove()
            self._sandbox.pool.release(self.slot)
        return time.perf_counter() - started

    def freeze(self) -> None:
        self._docker("pause", self.container)

    def thaw(self) -> None:
        self._docker("unpause", self.container)

    def alive(self) -> bool:
        return not self.killed and self._popen.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        if self.killed:
            return "\n".join(self._log.splitlines()[-lines:])
        with contextlib.suppress(FileNotFoundError):
            return "\n".join(self._seat.log.read_text(errors="replace").splitlines()[-lines:])
        return ""


class DockerSandbox(Sandbox):
    name = "docker"

    def __init__(
        self, limits: SandboxLimits | None = None, *, image: str = DEFAULT_IMAGE, docker: str = "docker",
        state_dir: Path = DEFAULT_STATE_DIR, runtime_dir: Path = DEFAULT_RUNTIME_DIR, first_uid: int = FIRST_UID,
        slots: int = SLOTS, seccomp_profile: Path | None = None, runtime: str | None = None,
    ) -> None:
        self.limits = limits or SandboxLimits()
        self.image = image
        self.docker = docker
        self.state_dir = Path(state_dir)
        self.runtime_dir = Path(runtime_dir)
        self.pool = SlotPool(self.state_dir / "slots", first_uid, slots)
        self.seccomp_profile = seccomp_profile
        self.oci_runtime = runtime
        """e.g. ``runsc`` for gVisor."""

    @functools.cached_property
    def runtime(self) -> Path:
        return ensure_runtime(self.runtime_dir)

    def docker_args(self, spec: BotSpec, slot: int, seat: SeatDir, runtime: Path, container: str) -> list[str]:
        """The ``docker run`` argv for ``spec`` in ``slot``."""
        uid = self.pool.uid(slot)
        limits = self.limits
        command, cwd = bot_command(spec)
        args = [
            self.docker, "run", "--rm", "--name", container, "--label", "durak.sandbox=1",
            "--label", f"durak.slot={slot}", "--network", "none", "--read-only",
            "--tmpfs", f"/tmp:rw,nosuid,nodev,size={limits.tmp_mb}m,mode=1777",
            "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
            "--user", f"{uid}:{uid}", "--pids-limit", str(limits.pids),
            "--memory", f"{limits.memory_mb}m", "--memory-swap", f"{limits.memory_mb}m", "--cpus", "1",
            "--ulimit", f"nofile={limits.nofile}:{limits.nofile}",
            "--ulimit", f"fsize={limits.fsize_mb * MIB}:{limits.fsize_mb * MIB}",
            "--ulimit", f"cpu={limits.cpu_s}:{limits.cpu_s + 1}", "--ulimit", "core=0:0",
            "--hostname", "durakbot", "--init", "--workdir", cwd,
            "-v", f"{runtime}:{IN_SANDBOX}:ro", "-v", f"{seat.run}:{IN_SANDBOX_RUN}:rw",
        ]
        if spec.language != "reference":
            args += ["-v", f"{seat.src}:/bot/src:ro"]
        if self.seccomp_profile is not None:
            args += ["--security-opt", f"seccomp={self.seccomp_profile}"]
        if self.oci_runtime:
            args += ["--runtime", self.oci_runtime]
        for key, value in BOT_ENV.items():
            args += ["--env", f"{key}={value}"]
        return [*args, self.image, *command]

    def start(self, spec: BotSpec, slot: int | None = None) -> DockerBot:
        if spec.language != "reference" and spec.folder is None:
            raise SandboxError(f"{spec.name}: a {spec.language} bot needs its folder")
        runtime = self.runtime
        slot = self.pool.acquire(slot)
        seat = SeatDir(self.state_dir, slot, self.pool.uid(slot))
        container = f"durak-{os.getpid()}-slot-{slot}"
        try:
            seat.create(spec.folder if spec.language != "reference" else None)
            with open(seat.log, "ab") as log_file:
                popen = subprocess.Popen(
                    self.docker_args(spec, slot, seat, runtime, container), stdin=subprocess.DEVNULL,
                    stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True,
                )
        except BaseException:
            seat.remove()
            self.pool.release(slot)
            raise
        return DockerBot(self, slot, seat, container, popen)

    def capabilities(self) -> Capabilities:
        return Capabilities(
            backend=self.name, isolated=True, uid_per_slot=True, memory_cgroup=True, pids_cgroup=True,
            freezer=True, seccomp=True,
        )

    def self_test(self) -> None:
        if shutil.which(self.docker) is None:
            raise SandboxUnavailable(f"{self.docker} is not installed")
        result = subprocess.run([self.docker, "image", "inspect", self.image], capture_output=True, timeout=30,
                                check=False)
        if result.returncode != 0:
            raise SandboxUnavailable(
                f"docker cannot use the image {self.image}: {result.stderr.decode(errors='replace').strip()}"
            )
