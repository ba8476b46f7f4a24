"""Sandboxes for untrusted bots: ``make_sandbox("bwrap")`` and the ``Sandbox`` / ``SandboxedBot`` interface.

Backends (docs/sandbox.md section 2):

* ``bwrap`` (default, Linux, worker runs as root): namespaces, a uid per slot,
  rlimits, cgroups, seccomp. See bwrap.py for what a bot sees.
* ``process``: rlimits and a separate uid only, for machines without user
  namespaces; opt-in, warns loudly at every start.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from worker.sandbox.base import (
    Capabilities,
    Sandbox,
    SandboxedBot,
    SandboxError,
    SandboxLimits,
    SandboxUnavailable,
    SocketSwapped,
    check_socket_path,
)
from worker.sandboxes import BACKENDS


def make_sandbox(name: str = "bwrap", **options: Any) -> Sandbox:
    """The backend ``name``; ``SandboxLimits`` fields among ``options`` (``memory_mb=256``) set its limits,
    the rest go to the backend's constructor (``state_dir=...``)."""
    fields = {f.name for f in dataclasses.fields(SandboxLimits)}
    limits = SandboxLimits(**{k: v for k, v in options.items() if k in fields})
    rest = {k: v for k, v in options.items() if k not in fields}
    if name == "bwrap":
        from worker.sandbox.bwrap import BwrapSandbox

        return BwrapSandbox(limits, **rest)
    if name == "process":
        from worker.sandbox.process import ProcessSandbox

        return ProcessSandbox(limits, **rest)
    raise ValueError(f"unknown sandbox backend {name!r} (one of {', '.join(BACKENDS)})")


__all__ = [
    "BACKENDS",
    "Capabilities",
    "Sandbox",
    "SandboxError",
    "SandboxLimits",
    "SandboxUnavailable",
    "SandboxedBot",
    "SocketSwapped",
    "check_socket_path",
    "make_sandbox",
]
