"""Why a task failed, in two registers: in full for staff, in plain words for authors and public pages.

Every exception a task meets is sorted once, here, into the worker's own trouble (worth another attempt on
this or another worker: no sandbox, a full disk, the database or the broker away for a moment) and
everything else (the match cannot be played: it fails at once). The staff text keeps the exception and its
traceback; the public text never holds a message of the exception, since messages carry host paths, build
output and addresses that strangers must not see.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Literal

import redis.exceptions
from django.db import DatabaseError, InterfaceError
from kombu.exceptions import OperationalError as BrokerError

from arena.notices import notice
from worker.builds import BuildError
from worker.builds.install import IndexUnreachable
from worker.sandbox.base import SandboxError, SocketSwapped
from worker.sandbox.runtime import RuntimeUnavailable
from worker.sandbox.slots import SlotBusy

INFRASTRUCTURE: tuple[type[BaseException], ...] = (
    IndexUnreachable, SandboxError, RuntimeUnavailable, SlotBusy, OSError, DatabaseError, InterfaceError,
    redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, BrokerError,
)
"""The worker's trouble, not the match's: the match goes back to the queue (up to ``ARENA_TASK_ATTEMPTS``)."""

NOT_INFRASTRUCTURE: tuple[type[BaseException], ...] = (SocketSwapped,)
"""Subclasses of the above that a bot causes: playing again would only let it do the same."""


@dataclass(frozen=True)
class Failure:
    infrastructure: bool
    staff: str
    """The exception with its message and traceback."""
    public: str
    """What went wrong in words, without the exception's message: a stored ``arena.notices`` notice."""


def classify(error: BaseException, what: Literal["match", "build", "table"] = "match") -> Failure:
    """Sort ``error`` (raised while a worker played or built a ``what``) and word it for both audiences."""
    infrastructure = isinstance(error, INFRASTRUCTURE) and not isinstance(error, NOT_INFRASTRUCTURE)
    staff = "".join(traceback.format_exception(error)).strip()
    if isinstance(error, BuildError) and not infrastructure:
        public = notice("failure.bot_not_built")
    elif infrastructure:
        public = notice(f"failure.{what}_worker", kind=notice(_kind(error)))
    else:
        public = notice("failure.internal", error=type(error).__name__)
    return Failure(infrastructure=infrastructure, staff=staff, public=public.stored())


def _kind(error: BaseException) -> str:
    if isinstance(error, (DatabaseError, InterfaceError)):
        return "failure.database"
    if isinstance(error, (redis.exceptions.RedisError, BrokerError)):
        return "failure.broker"
    if isinstance(error, (SandboxError, RuntimeUnavailable, SlotBusy)):
        return "failure.sandbox"
    if isinstance(error, IndexUnreachable):
        return "failure.index"
    return "failure.host"
