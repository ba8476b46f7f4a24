"""Waiting for a name to appear in a directory, woken by the kernel (inotify) instead of looking again and again.

A referee process plays its games on one thread and starts and kills bots on others (the starts ahead, the
pool of sandboxes: worker/referee/match.py, worker/sandbox/warm.py). All of them share one GIL. A starting
thread that woke every half millisecond to look for its bot's socket took the GIL about a hundred times per
start, and each time the game thread, woken by its bot's answer meanwhile, waited for it: a game played
beside a start ahead took a tenth longer per decision than one played alone. Here the thread sleeps in the
kernel until the directory changes or the sandbox ends, without the GIL.

Python's standard library has no inotify; its calls are glibc's, through ``ctypes``. An inotify instance is
never closed but kept for the next wait: closing one waits for the kernel (an SRCU grace period, 8 to 20 ms
here), which put that back on every start; taking a watch off is immediate.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import threading
from collections.abc import Iterable

IN_MOVED_TO = 0x80
IN_CREATE = 0x100
READ_BYTES = 64 * 1024
"""More than the kernel queues between two reads of a quiet directory; a busy one is read again next wake-up."""

_libc = ctypes.CDLL(None, use_errno=True)


def _checked(result: int, what: str) -> int:
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")
    return result


_idle: list[int] = []
"""Inotify instances with no watch, for the next ``DirWatch``."""
_idle_lock = threading.Lock()


def _forget_inherited() -> None:
    """In a forked child: the idle instances are the parent's too; the child makes its own."""
    for fd in _idle:
        os.close(fd)  # immediate: the parent still holds it
    _idle.clear()


os.register_at_fork(after_in_child=_forget_inherited)


class DirWatch:
    """Names created in (or moved into) ``directory`` from now on; ``wait`` sleeps until the next one.

    Only that something happened is kept, not what: the caller looks again after every wake-up, so a flood of
    events (a bot creating files in its socket directory) or a full queue costs a look, never a missed name.
    """

    def __init__(self, directory: str) -> None:
        with _idle_lock:
            fd = _idle.pop() if _idle else None
        self.fd = fd if fd is not None else _checked(_libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC), "inotify_init1")
        try:
            self._watch = _checked(_libc.inotify_add_watch(self.fd, os.fsencode(directory), IN_CREATE | IN_MOVED_TO),
                                   f"inotify_add_watch {directory}")
        except OSError:
            self._keep()
            raise

    def wait(self, timeout: float, also: Iterable[int] = ()) -> None:
        """Sleep until the directory changes, one of the file descriptors ``also`` is readable, or ``timeout``
        seconds pass, whichever comes first."""
        poller = select.poll()
        for fd in (self.fd, *also):
            poller.register(fd, select.POLLIN)
        if any(fd == self.fd for fd, _ in poller.poll(max(0.0, timeout) * 1000)):
            with contextlib.suppress(BlockingIOError):
                os.read(self.fd, READ_BYTES)

    def close(self) -> None:
        """Take the watch off (the directory may be gone, and its watch with it) and keep the instance."""
        _libc.inotify_rm_watch(self.fd, self._watch)
        self._keep()

    def _keep(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self.fd, READ_BYTES):  # what is left queued, the removal's own event included
                pass
        with _idle_lock:
            _idle.append(self.fd)

    def __enter__(self) -> DirWatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
