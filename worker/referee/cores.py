"""A core of its own for each referee process, where a host has no core to spare.

A match is a ping-pong: the referee asks, its bot answers, each waits for the
other. Two such pairs on two cores, left to the scheduler, drift apart: a bot
wakes on the core the other match is using while its referee's core idles, and
the kernel does not move a task it ran a moment ago. Measured with
tests/bench/referee_throughput.py (two workers on two cores, 16 matches each way,
three rounds): the host's cores were 1.85 busy out of 2, and two workers played
1.72 times what one plays; with each worker on a core of its own, 1.93 busy and
1.86 times. A bot inherits its referee's core (affinity passes through fork and
exec, so through the whole launch chain), so a match also stays clear of the
other matches' caches.

``DURAK_PIN_CORES`` is ``auto`` (the default), ``on`` or ``off``. ``auto`` pins
where the host has no more cores than referees (``DURAK_REFEREES``, which a
Celery worker sets to its concurrency): with a core to spare the referee's
starts ahead and pooled sandboxes use it (worker/referee/launch.py), and a pin
would keep them off it. A process claims the first core no other referee of the
host holds, by a lock file per core under ``/run/durak/cores``; the lock goes
with the process, so a pool process recycled by Celery frees its core for the
next. When every core is held the process runs unpinned.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

from worker.referee.launch import on_idle_core
from worker.sandbox.bwrap import DEFAULT_STATE_DIR

log = logging.getLogger(__name__)

PIN_ENV = "DURAK_PIN_CORES"
CORES_DIR = DEFAULT_STATE_DIR / "cores"

_claimed: tuple[int, int] | None = None
"""This process's core and its lock file, open for the process's life."""


def pinning(setting: str | None = None) -> bool:
    """Whether referee processes take a core each (``setting``, default ``DURAK_PIN_CORES``; module docstring):
    ``auto`` is the opposite of the starts ahead's ``auto``, read the same way."""
    value = (setting if setting is not None else os.environ.get(PIN_ENV, "auto")).strip().lower()
    return not on_idle_core(PIN_ENV, "auto") if value == "auto" else on_idle_core(PIN_ENV, value)


def claim_core(directory: Path = CORES_DIR) -> int | None:
    """Pin this process to the first of its cores that no other referee process holds, if ``pinning()``; the core,
    or None (off, or every core held). Call it from the thread that will start bots before it starts any (a
    thread's affinity is its own, and passes to the threads and processes it creates)."""
    global _claimed
    if _claimed is not None:
        return _claimed[0]
    if not pinning():
        return None
    directory.mkdir(parents=True, exist_ok=True)
    for core in sorted(os.sched_getaffinity(0)):
        fd = os.open(directory / f"{core}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        os.sched_setaffinity(0, {core})
        _claimed = core, fd
        log.info("referee process %d runs on core %d", os.getpid(), core)
        return core
    log.warning("every core is held by another referee process: process %d runs unpinned", os.getpid())
    return None
