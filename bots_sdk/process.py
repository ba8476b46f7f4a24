"""Bots as their own processes, served on a unix socket: for ``durak play --grpc`` and ``durak check``.

This is the plain, unsandboxed launcher for an author's machine; the arena's
workers start bots through their sandbox instead (worker/sandbox/).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bots_sdk.botdir import BotSpec
from bots_sdk.remote import ARENA_LIMITS, Limits, RemoteBot
from bots_sdk.server import ADDRESS_VARIABLE
from bots_sdk.transport import environment_for


def command_of(spec: BotSpec) -> tuple[list[str], Path | None]:
    """The argv and working folder that serve ``spec``."""
    if spec.language == "reference":
        return [sys.executable, "-m", "bots_sdk.bots", spec.name], None
    if spec.language == "python":
        return [sys.executable, spec.entry[0]], spec.folder
    return list(spec.entry), spec.folder


class BotProcess:
    """One served bot: started at construction, stopped (SIGTERM, then SIGKILL) by ``stop``."""

    def __init__(self, spec: BotSpec, limits: Limits = ARENA_LIMITS, label: str = "") -> None:
        self.spec = spec
        self._dir = tempfile.TemporaryDirectory(prefix="durak-bot-")
        self.address = os.path.join(self._dir.name, "bot.sock")
        self.log_path = Path(self._dir.name) / "bot.log"
        argv, cwd = command_of(spec)
        if sys.platform == "linux" and shutil.which("setpriv"):
            # Die with the process that started it: a killed referee must not leave bots behind.
            # (The signal follows the starting thread, so start bots from a thread that outlives them.)
            argv = ["setpriv", "--pdeathsig", "KILL", "--", *argv]
        env = environment_for(spec.in_process, {**os.environ, ADDRESS_VARIABLE: self.address, "PYTHONUNBUFFERED": "1"})
        self._log = open(self.log_path, "wb")  # noqa: SIM115  (closed in stop)
        self.started = time.perf_counter()
        try:
            self.popen = subprocess.Popen(argv, cwd=cwd, env=env, stdout=self._log, stderr=subprocess.STDOUT)
        except OSError as error:
            self._log.close()
            self._dir.cleanup()
            raise OSError(f"{spec.name}: cannot start {argv[0]!r}: {error.strerror}") from None
        self.bot = RemoteBot(self.address, limits, label or spec.name)

    def wait_serving(self) -> float:
        """Seconds from process start to SERVING (raises ``BotFault`` past the start limit)."""
        self.bot.wait_serving()
        return time.perf_counter() - self.started

    def alive(self) -> bool:
        return self.popen.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        self._log.flush()
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        self.bot.close()
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._log.close()
        self._dir.cleanup()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
