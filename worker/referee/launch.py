"""How the referee starts a bot: a small protocol over the sandbox backends.

The referee needs little from a launched bot: its gRPC client (``RemoteBot``),
a way to kill it, and a way to start it again after a fault. Keeping that
behind a protocol lets the referee run with the sandbox of the worker, or with
the plain process launcher on an author's machine, without knowing which.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bots_sdk.botdir import BotSpec
from bots_sdk.remote import Limits, RemoteBot
from worker.referee.cores import off_game_core, on_idle_core
from worker.sandboxes import SANDBOXES

if TYPE_CHECKING:
    from worker.sandbox.warm import WarmPool

WARM_POOL_ENV = "DURAK_WARM_POOL"


class LaunchedBot(Protocol):
    """A started bot: its client and its end."""

    @property
    def bot(self) -> RemoteBot: ...

    def kill(self) -> None:
        """Stop it now and leave nothing behind."""

    def log_tail(self, lines: int = 20) -> str: ...


@runtime_checkable
class Placeable(Protocol):
    """A launched bot whose every process the referee can put on given cores (a sandbox's: its bots cannot move
    themselves, docs/sandbox.md section 5); the referee's games run on its core (worker/referee/cores.py)."""

    def run_on(self, cores: set[int]) -> None: ...


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


_warm_pools: dict[str, WarmPool] = {}
_warm_pools_lock = threading.Lock()


def warm_pool(name: str) -> WarmPool:
    """The process's pool of sandboxes started ahead for backend ``name`` (one per process: every match of a
    worker process shares it; it starts filling at its first bot start, so a process that only self-tests
    starts none), tended off the core the games are played on."""
    from worker.sandbox import make_sandbox
    from worker.sandbox.bwrap import BwrapSandbox
    from worker.sandbox.warm import WarmPool

    with _warm_pools_lock:
        if name not in _warm_pools:
            sandbox = make_sandbox(name)
            assert isinstance(sandbox, BwrapSandbox)
            _warm_pools[name] = WarmPool(sandbox, on_thread=off_game_core)
        return _warm_pools[name]


def close_warm_pools() -> None:
    """Kill every pooled sandbox of this process (a worker process that ends)."""
    with _warm_pools_lock:
        pools = list(_warm_pools.values())
        _warm_pools.clear()
    for pool in pools:
        pool.close()


def launcher_for(name: str) -> Launcher:
    """The launcher of a sandbox backend, after its self-test (a worker refuses to play without one); for
    ``bwrap`` with ``DURAK_WARM_POOL`` on (``on_idle_core``), starts in the process's ``warm_pool``."""
    if name == "none":
        return ProcessLaunched
    if name not in SANDBOXES:
        raise ValueError(f"sandbox: {name!r} is not one of {', '.join(SANDBOXES)}")
    from worker.sandbox import make_sandbox

    sandbox = make_sandbox(name)
    sandbox.self_test()
    if name == "bwrap" and on_idle_core(WARM_POOL_ENV):
        return warm_pool(name).launch
    return sandbox.launch
