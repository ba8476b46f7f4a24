"""The core each referee process plays its games on, and where the rest of its work runs.

A match is a ping-pong: the referee asks, its bot answers, each waits for the
other, and each wakes the other through the socket. On two different cores that
wake-up crosses cores every decision; on one it is a switch on the core. Left to
the scheduler, two matches on two cores also drift apart: a bot wakes on the core
the other match is using while its referee's core idles, and the kernel does not
move a task it ran a moment ago. Measured with tests/bench/referee_throughput.py
(two workers on two cores, 16 matches each way, three rounds): the host's cores
were 1.85 busy out of 2, and two workers played 1.72 times what one plays; with
each worker on a core of its own, 1.93 busy and 1.86 times. And one referee alone
on two cores, starting the next bots ahead on the other core, spent 0.29 to 0.36 ms
of overhead per decision with its games on one core against 0.35 to 0.46 ms left to
the scheduler (docs/operations.md, settings).

So a referee process claims a core (a lock file per core under ``/run/durak/cores``,
locked for the process's life, so a pool process recycled by Celery frees its core for
the next) and plays there: ``claim_core`` pins the calling thread, whose threads and
processes inherit it, and each game puts every process of its bots on it
(worker/referee/turns.py; a bot started elsewhere, ahead or in the pool of sandboxes,
is moved when it is seated, and the sandbox does not let a bot move itself:
docs/sandbox.md section 5). Where the host has a core to spare (more cores than
``DURAK_REFEREES``), what the referee does beside its games runs on the cores no
referee plays on: the starts ahead, the pool of sandboxes and the kills call
``off_game_core`` first, and the starts a match waits for run there and on its own core.

``DURAK_PIN_CORES`` is ``on`` (the default) or ``off``. When every core is held the
process runs unpinned, and so do its bots.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import logging
import os
import struct
from pathlib import Path

from worker.sandbox.bwrap import DEFAULT_STATE_DIR

log = logging.getLogger(__name__)

REFEREES_ENV = "DURAK_REFEREES"
PIN_ENV = "DURAK_PIN_CORES"
CORES_DIR = DEFAULT_STATE_DIR / "cores"



@dataclasses.dataclass(frozen=True)
class _Claim:
    core: int
    lock: int
    """The core's lock file, open (and locked) for the process's life."""
    cores: frozenset[int]
    """The process's cores before the claim."""
    directory: Path


_claimed: _Claim | None = None


def spare_core() -> bool:
    """Whether this process has more cores than there are referees on the host (``DURAK_REFEREES``, which a Celery
    worker sets to its concurrency; default 1): its cores as they were before ``claim_core`` pinned its games."""
    cores = len(_claimed.cores) if _claimed is not None else len(os.sched_getaffinity(0))
    referees = os.environ.get(REFEREES_ENV, "1").strip()
    if not referees.isdigit() or int(referees) < 1:
        raise ValueError(f"{REFEREES_ENV}: {referees!r} is not a positive whole number")
    return cores > int(referees)


def on_idle_core(variable: str, setting: str | None = None) -> bool:
    """Whether the work ``variable`` switches, which takes a core of its own, is on.

    ``setting`` (default: the environment variable ``variable``) is ``on``, ``off`` or ``auto`` (the default):
    on where there is a ``spare_core``, since otherwise it takes its CPU from games being played, whose clocks
    are wall-clock.
    """
    value = (setting if setting is not None else os.environ.get(variable, "auto")).strip().lower()
    if value == "auto":
        return spare_core()
    if value not in ("on", "off"):
        raise ValueError(f"{variable}: {value!r} is not one of auto, on, off")
    return value == "on"


def pinning(setting: str | None = None) -> bool:
    """Whether referee processes play on a core each (``setting``, default ``DURAK_PIN_CORES``)."""
    value = (setting if setting is not None else os.environ.get(PIN_ENV, "on")).strip().lower()
    if value not in ("on", "off"):
        raise ValueError(f"{PIN_ENV}: {value!r} is not one of on, off")
    return value == "on"


def claim_core(directory: Path = CORES_DIR) -> int | None:
    """Pin this thread to the first of its cores that no other referee process holds, if ``pinning()``; the core,
    or None (off, or every core held). Call it from the thread that plays, before it starts any bot or thread (a
    thread's affinity is its own, and passes to the threads and processes it creates)."""
    global _claimed
    if _claimed is not None:
        return _claimed.core
    if not pinning():
        return None
    directory.mkdir(parents=True, exist_ok=True)
    allowed = os.sched_getaffinity(0)
    for core in sorted(allowed):
        fd = os.open(directory / f"{core}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.fcntl(fd, fcntl.F_OFD_SETLK, _whole_file(fcntl.F_WRLCK))
        except OSError as error:
            os.close(fd)
            if error.errno in (errno.EAGAIN, errno.EACCES):  # held by another referee process
                continue
            raise
        os.sched_setaffinity(0, {core})
        _claimed = _Claim(core, fd, frozenset(allowed), directory)
        log.info("referee process %d plays on core %d", os.getpid(), core)
        return core
    log.warning("every core is held by another referee process: process %d runs unpinned", os.getpid())
    return None


def game_core() -> int | None:
    """The core this process's games are played on (``claim_core``), or None."""
    return _claimed.core if _claimed is not None else None


def held_cores(directory: Path = CORES_DIR) -> set[int]:
    """The cores some referee process of the host plays on: those whose lock file another open file holds locked.

    Asked with ``F_OFD_GETLK``, which takes no lock (taking one to find out would make a claim made meanwhile
    fail). Not read from ``/proc/locks``: the kernel lists it under a write lock on every file lock of the host,
    taken only after an RCU grace period, so each read cost 5 to 12 ms, and a start a match waited for read it."""
    held = set()
    for lock in directory.glob("*.lock"):
        with contextlib.suppress(OSError, ValueError):
            core = int(lock.stem)
            fd = os.open(lock, os.O_RDONLY | os.O_CLOEXEC)
            try:
                found = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, _whole_file(fcntl.F_WRLCK))
            finally:
                os.close(fd)
            if struct.unpack(FLOCK, found)[0] != fcntl.F_UNLCK:
                held.add(core)
    return held


FLOCK = "hhqqi4x"
"""Linux's ``struct flock`` (type, whence, start, length, pid, padding) on its 64-bit platforms."""


def _whole_file(kind: int) -> bytes:
    """A ``struct flock`` for all of a file: an open file description's lock (``F_OFD_*``), which is held for as
    long as the description is open, by whichever process holds it, and conflicts with every other one's."""
    return struct.pack(FLOCK, kind, os.SEEK_SET, 0, 0, 0)


def off_game_core() -> None:
    """Run the calling thread, and what it starts, on the process's cores that no referee plays on, where there is
    a spare one (a start ahead, the pool of sandboxes, a kill); elsewhere it stays where it is."""
    if _claimed is not None and spare_core():
        free = _claimed.cores - held_cores(_claimed.directory)
        if free:
            os.sched_setaffinity(0, free)


def own_and_free_cores() -> None:
    """Run the calling thread, and what it starts, on this process's game core and the cores no referee plays on
    (a start its match waits for)."""
    if _claimed is not None:
        os.sched_setaffinity(0, (_claimed.cores - held_cores(_claimed.directory)) | {_claimed.core})
