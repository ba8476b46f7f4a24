"""Pooled sandboxes: a Python bot starts in a sandbox made, and a Python whose imports were paid, before it.

A cold start pays the launch chain, the interpreter and the SDK's imports (protobuf, hpack,
the engine: most of it) while a match waits. A ``WarmPool`` keeps up to ``size`` sandboxes
started ahead, each a full bwrap sandbox exactly as a cold start's (its own slot uid,
rlimits, cgroups, seccomp, no network) running the stub of ``bots_sdk/warm.py`` on the
shared runtime, with an empty ``/bot/src`` bound read-only. Assigning one to a bot:
the bot's folder is copied into that ``src`` on the host (the bot cannot write it), the
stub is sent the bot's ``python`` arguments and directory (``bot_command``), it
acknowledges and becomes the bot. From the acknowledgement on everything is a cold
start's: the start budget to SERVING (``Sandbox.serve``), the fault of a bot that does
not serve, the kill. A sandbox serves one bot and dies with it.

Only bots a cold start would run on the shared runtime are pooled: reference bots and
Python bots without their own venv. Anything else, an empty pool, or a stub that is gone
or does not acknowledge (then it is killed, not blamed on the bot) gets a cold start.

Nothing outlives its use: a pooled sandbox unused for ``idle_s`` is killed (and replaced
only while bots keep starting), ``close`` (also at interpreter exit) kills every one, and
the sandboxes are spawned by the pool's own thread, so bwrap's ``--die-with-parent``
kills them when the process dies however it dies. Whether a process pools at all is the
referee's choice (``DURAK_WARM_POOL``, worker/referee/launch.py): a refill takes a core.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import select
import socket
import threading
import time
from collections.abc import Callable

from bots_sdk.botdir import BotSpec
from bots_sdk.remote import Limits
from worker.sandbox.base import ServedBot
from worker.sandbox.bwrap import BwrapSandbox, bot_command
from worker.sandbox.handle import LaunchedBot

log = logging.getLogger(__name__)

POOL_SIZE = 4
"""Sandboxes kept ready: both rotations of a two-seat match, or a four-seat rotation (each holds a slot and an
idle Python's memory, about 16 MB of its own; referee_throughput.py's fresh-vs-kept games per second rose
by a third from a pool of two)."""
IDLE_S = 60.0
"""An unused pooled sandbox is killed after this long; so is the refilling, while no bot starts."""
REFILL_NICE = 19
"""A stub imports at the lowest CPU priority, so a refill takes only what starts and games leave; ``go`` gives
its bot the normal priority back before the bot runs (a niceness would otherwise stay for its whole life)."""
ACK_S = 2.0
"""How long a stub may take to acknowledge its bot before it counts as broken (it answers in microseconds)."""


def poolable(spec: BotSpec) -> bool:
    """Whether a cold start of ``spec`` runs the shared runtime's Python, which the stub has imported ahead."""
    return spec.language in ("reference", "python") and spec.venv is None


class Pooled:
    """One pooled sandbox: its handle and the host end of its stub's control socket."""

    def __init__(self, handle: LaunchedBot, control: socket.socket) -> None:
        self.handle = handle
        self.control = control
        self.made = time.monotonic()
        self._ready = False

    def ready(self) -> bool | None:
        """True once the stub has imported, None while it imports, False when it is gone."""
        if not self.handle.alive():
            return False
        if self._ready:
            return True
        try:
            said = self.control.recv(16, socket.MSG_DONTWAIT | socket.MSG_PEEK)
        except BlockingIOError:
            return None
        except OSError:
            return False
        if not said:
            return False
        if said.startswith(b"ready\n"):
            self.control.recv(len(b"ready\n"))
            self._ready = True
            return True
        return None if b"ready\n".startswith(said) else False

    def go(self, spec: BotSpec) -> bool:
        """Give the sandbox to ``spec``'s bot; True once the stub acknowledged (it is the bot's from here on)."""
        if spec.language == "python":
            assert spec.folder is not None
            self.handle.seat.fill(spec.folder)
        argv, cwd = bot_command(spec)
        try:
            os.setpriority(os.PRIO_USER, self.handle.uid, 0)  # a bot's own priority, as a cold start's
            self.control.sendall(json.dumps({"argv": argv[1:], "cwd": cwd}).encode() + b"\n")
            answer = b""
            deadline = time.monotonic() + ACK_S
            while not answer.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.control], [], [], left)[0]:
                    return False
                chunk = self.control.recv(16)
                if not chunk:
                    return False
                answer += chunk
            return answer == b"go\n"
        except OSError:
            return False
        finally:
            self.control.close()

    def discard(self) -> None:
        self.control.close()
        self.handle.kill()


class WarmPool:
    """Sandboxes of ``sandbox`` started ahead for the bots ``launch`` starts; see the module docstring."""

    def __init__(
        self, sandbox: BwrapSandbox, size: int = POOL_SIZE, idle_s: float = IDLE_S,
        on_thread: Callable[[], None] | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.on_thread = on_thread
        """Run first by the pool's thread, whose sandboxes inherit where it runs (the referee's ``off_game_core``)."""
        self.size = size
        self.idle_s = idle_s
        self._idle: list[Pooled] = []
        self._changed = threading.Condition()
        self._demand = time.monotonic()
        self._closed = False
        self._thread: threading.Thread | None = None
        self.pooled_starts = 0
        """Bots started in a pooled sandbox so far (the rest had cold starts)."""

    def launch(self, spec: BotSpec, limits: Limits) -> ServedBot:
        """A ``Launcher``: ``spec`` in a pooled sandbox when one is ready, else a cold start (``Sandbox.launch``)."""
        pooled = self._take() if poolable(spec) else None
        if pooled is not None:
            try:
                acknowledged = pooled.go(spec)
            except BaseException:
                pooled.discard()
                raise
            if acknowledged:
                pooled.handle.started = time.perf_counter()
                with self._changed:
                    self.pooled_starts += 1
                return self.sandbox.serve(pooled.handle, spec, limits)
            log.warning("a pooled sandbox did not take its bot (log: %s); starting %s cold",
                        pooled.handle.log_tail(5), spec.name)
            pooled.discard()
        return self.sandbox.launch(spec, limits)

    def prime(self, timeout: float) -> int:
        """Fill the pool now, as a bot start would, and wait up to ``timeout`` for it to be full and ready (a
        benchmark's or a test's, off their clock); returns how many are ready."""
        deadline = time.monotonic() + timeout
        with self._changed:
            self._wanted()
        while True:
            with self._changed:
                ready = sum(1 for pooled in self._idle if pooled.ready())
            if ready >= self.size or time.monotonic() > deadline:
                return ready
            time.sleep(0.01)

    def _wanted(self) -> None:
        """A bot starts (or will): keep the pool full for ``idle_s`` from now. Under ``_changed``."""
        self._demand = time.monotonic()
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._keep, name="warm-pool", daemon=True)
            self._thread.start()
            atexit.register(self.close)
        self._changed.notify_all()

    def _take(self) -> Pooled | None:
        """A ready pooled sandbox, or None; either way the pool refills (this is a bot starting)."""
        with self._changed:
            if self._closed:
                return None
            self._wanted()
            for pooled in self._idle:
                if pooled.ready():
                    self._idle.remove(pooled)
                    return pooled
        return None

    def idle(self) -> list[Pooled]:
        """The pooled sandboxes not yet given to a bot (a copy)."""
        with self._changed:
            return list(self._idle)

    def _keep(self) -> None:
        """The pool's thread: kills what is gone or unused, refills while bots start. The sandboxes are its
        children, so they die with it (``--die-with-parent`` follows the spawning thread), those given to bots
        too: it must not end before the pool is closed, whatever fails."""
        if self.on_thread is not None:
            try:
                self.on_thread()
            except Exception:
                log.exception("the pool's thread could not be placed; it runs where it was started")
        while True:
            try:
                if not self._tend():
                    return
            except Exception:
                log.exception("the pool of sandboxes failed to tend itself; trying again")
                time.sleep(1.0)

    def _tend(self) -> bool:
        """One round of ``_keep``; False once the pool is closed and empty."""
        with self._changed:
            now = time.monotonic()
            stale = [p for p in self._idle if p.ready() is False or now - p.made > self.idle_s]
            self._idle = [p for p in self._idle if p not in stale]
            wanted = 0 if self._closed or now - self._demand > self.idle_s else self.size
            refill = not stale and len(self._idle) < wanted
            if not stale and not refill:
                if self._closed:
                    return False
                self._changed.wait(timeout=1.0)
                return True
        for pooled in stale:
            pooled.discard()
        if refill:
            self._refill()
        return True

    def _refill(self) -> None:
        host, stub = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            handle = self.sandbox.start_warm(stub.fileno())
        except Exception:
            log.warning("a pooled sandbox could not start; bots start cold", exc_info=True)
            host.close()
            with self._changed:
                self._changed.wait(timeout=self.idle_s)  # not again at once: what failed will fail again
            return
        finally:
            stub.close()
        with contextlib.suppress(OSError):  # every task of the slot uid: the stub's, and bwrap's
            os.setpriority(os.PRIO_USER, handle.uid, REFILL_NICE)
        with self._changed:
            self._idle.append(Pooled(handle, host))

    def close(self) -> None:
        """Kill every pooled sandbox not given to a bot and stop refilling (idempotent; also at exit). The bots
        started in the pool die with it (see ``_keep``): close it once its matches are over."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)
        with self._changed:
            left, self._idle = self._idle, []
        for pooled in left:
            with contextlib.suppress(Exception):
                pooled.discard()
