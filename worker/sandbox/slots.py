"""The uid pool: one unprivileged host uid per running sandbox, like isolate's box uids.

Pitfalls 1 and 2 of docs/sandbox.md section 9: bwrap started as root keeps root's
power over host files, and RLIMIT_NPROC does not bind root. So every sandbox
runs as its own uid from a reserved block (default 61000-61999), which also
makes the leftover sweep exact (procs.py). A slot is held with an ``flock`` on a
file in the state dir, so several worker processes on one host never share one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from pathlib import Path

FIRST_UID = 61000
SLOTS = 1000


class SlotBusy(RuntimeError):
    """The requested slot is held by another sandbox."""


class SlotPool:
    """Slots ``0..count-1`` mapping to uids ``first_uid + slot``; locks live in ``lock_dir``."""

    def __init__(self, lock_dir: Path, first_uid: int = FIRST_UID, count: int = SLOTS) -> None:
        self.lock_dir = lock_dir
        self.first_uid = first_uid
        self.count = count
        self._held: dict[int, int] = {}
        self._mutex = threading.Lock()

    def uid(self, slot: int) -> int:
        return self.first_uid + slot

    def acquire(self, slot: int | None = None) -> int:
        """Hold ``slot`` (or the first free one) until ``release``; raises ``SlotBusy``."""
        self.lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        candidates = range(self.count) if slot is None else [slot]
        if slot is not None and not 0 <= slot < self.count:
            raise ValueError(f"slot {slot} is outside the pool 0..{self.count - 1}")
        with self._mutex:
            for candidate in candidates:
                if candidate in self._held:
                    continue
                fd = os.open(self.lock_dir / f"slot-{candidate}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                self._held[candidate] = fd
                return candidate
        raise SlotBusy(f"slot {slot} is in use" if slot is not None else "every sandbox slot is in use")

    def release(self, slot: int) -> None:
        with self._mutex:
            fd = self._held.pop(slot, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
