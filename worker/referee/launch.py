"""How the referee starts a bot: a small protocol over the sandbox backends.

The referee needs little from a launched bot: its gRPC client (``RemoteBot``),
a way to kill it, and a way to start it again after a fault. Keeping that
behind a protocol lets the referee run with the sandbox of the worker, or with
the plain process launcher on an author's machine, without knowing which.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bots_sdk.botdir import BotSpec
from bots_sdk.remote import Limits, RemoteBot
from worker.sandboxes import SANDBOXES

if TYPE_CHECKING:
    from worker.sandbox.warm import WarmPool

REFEREES_ENV = "DURAK_REFEREES"
WARM_POOL_ENV = "DURAK_WARM_POOL"


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




def on_idle_core(variable: str, setting: str | None = None) -> bool:
    """Whether the work ``variable`` switches, which takes a core of its own, is on.

    ``setting`` (default: the environment variable ``variable``) is ``on``, ``off`` or ``auto`` (the default):
    on when this process may run on more cores than there are referees on the host (``DURAK_REFEREES``,
    which a Celery worker sets to its concurrency; default 1), since otherwise it takes its CPU from games
    being played, whose clocks are wall-clock.
    """
    value = (setting if setting is not None else os.environ.get(variable, "auto")).strip().lower()
    if value == "auto":
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        referees = os.environ.get(REFEREES_ENV, "1").strip()
        if not referees.isdigit() or int(referees) < 1:
            raise ValueError(f"{REFEREES_ENV}: {referees!r} is not a positive whole number")
        return cores > int(referees)
    if value not in ("on", "off"):
        raise ValueError(f"{variable}: {value!r} is not one of auto, on, off")
    return value == "on"


_warm_pools: dict[str, WarmPool] = {}
_warm_pools_lock = threading.Lock()


def warm_pool(name: str) -> WarmPool:
    """The process's pool of sandboxes started ahead for backend ``name`` (one per process: every match of a
    worker process shares it; it starts filling at its first bot start, so a process that only self-tests
    starts none)."""
    from worker.sandbox import make_sandbox
    from worker.sandbox.bwrap import BwrapSandbox
    from worker.sandbox.warm import WarmPool

    with _warm_pools_lock:
        if name not in _warm_pools:
            sandbox = make_sandbox(name)
            assert isinstance(sandbox, BwrapSandbox)
            _warm_pools[name] = WarmPool(sandbox)
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
