"""How the referee starts a bot: a small protocol over the sandbox backends.

The referee needs little from a launched bot: its gRPC client (``RemoteBot``),
a way to kill it, and a way to start it again after a fault. Keeping that
behind a protocol lets the referee run with the sandbox of the worker, or with
the plain process launcher on an author's machine, without knowing which.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from bots_sdk.botdir import BotSpec
from bots_sdk.remote import Limits, RemoteBot
from worker.sandboxes import SANDBOXES


class LaunchedBot(Protocol):
    """A started bot: its client and its end."""

    @property
    def bot(self) -> RemoteBot: ...

    def kill(self) -> None:
        """Stop it now and leave nothing behind."""

    def log_tail(self, lines: int = 20) -> str: ...


@runtime_checkable
class Pausable(Protocol):
    """A launched bot that can be paused: the sandbox's (cgroup freezer, or SIGSTOP where there is none).

    The referee keeps every seat but the one on move frozen (worker/referee/turns.py); a launcher without
    this capability (the plain process launcher of ``--sandbox none``) simply leaves its bots running."""

    def freeze(self) -> None:
        """Stop the bot's every process from running until ``thaw``."""

    def thaw(self) -> None: ...


Launcher = Callable[[BotSpec, Limits], LaunchedBot]


class ProcessLaunched:
    """The plain process launcher of the SDK, for ``--sandbox none`` on a developer's machine."""

    def __init__(self, spec: BotSpec, limits: Limits) -> None:
        from bots_sdk.process import BotProcess

        self._process = BotProcess(spec, limits)

    @property
    def bot(self) -> RemoteBot:
        return self._process.bot

    def kill(self) -> None:
        self._process.stop()

    def log_tail(self, lines: int = 20) -> str:
        return self._process.log_tail(lines)




def launcher_for(name: str) -> Launcher:
    """The launcher of a sandbox backend, after its self-test (a worker refuses to play without one)."""
    if name == "none":
        return ProcessLaunched
    if name not in SANDBOXES:
        raise ValueError(f"sandbox: {name!r} is not one of {', '.join(SANDBOXES)}")
    from worker.sandbox import make_sandbox

    sandbox = make_sandbox(name)
    sandbox.self_test()
    return sandbox.launch
