"""The one sandbox interface the referee talks to, whatever isolates the bot underneath.

A backend turns a ``BotSpec`` into a running, served bot (``start``) and hands
back a ``SandboxedBot``: the socket address to connect to, and the controls the
referee needs around a match (freeze between turns, kill with a leftover sweep,
the bot's log). Backends differ in how strongly they isolate; ``capabilities``
says what a backend enforces on this machine so tests and the worker can tell
"skipped" from "passed", and ``self_test`` lets the worker refuse to run matches
on a machine where the chosen backend cannot sandbox (docs/sandbox.md section 2: never
fall back silently).
"""

from __future__ import annotations

import abc
import dataclasses
import os
import stat
import time

from bots_sdk.botdir import BotSpec
from bots_sdk.engine import Reason
from bots_sdk.faults import BotFault
from bots_sdk.remote import Limits, RemoteBot
from worker.sandbox.dirwatch import DirWatch


class SandboxError(RuntimeError):
    """A sandbox that could not be started, or that misbehaved (a bug of ours, not the bot's fault)."""


class SandboxUnavailable(SandboxError):
    """The backend cannot isolate bots on this machine (raised by ``self_test``)."""


class SocketSwapped(SandboxError):
    """The bot's socket path is not a plain socket (pitfall 6: a symlink to a host socket, a file...).

    The bot's doing, not ours: ``Sandbox.launch`` turns it into the bot's ``BotFault``."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"{path}: {why}: refusing to connect")
        self.why = why
        """What was found, without the host path (for the bot's author)."""


MIB = 1024 * 1024


@dataclasses.dataclass(frozen=True)
class SandboxLimits:
    """Per-bot resource limits; defaults in docs/sandbox.md section 4, configurable per tournament."""

    memory_mb: int = 512
    """The real memory limit: the cgroup of the whole sandbox (the bot and every child)."""
    pids: int = 64
    """Tasks (processes and threads): pids cgroup and RLIMIT_NPROC of the slot uid."""
    cpu_s: int = 300
    """RLIMIT_CPU backstop per process: the match's CPU budget plus slack."""
    fsize_mb: int = 16
    """RLIMIT_FSIZE: the largest file the bot can write, its log included."""
    nofile: int = 256
    tmp_mb: int = 64
    """Size of the private /tmp tmpfs."""
    as_mb: int = 1024
    """RLIMIT_AS backstop (pitfall 7: only meaningful with MALLOC_ARENA_MAX=2; the cgroup is the real limit)."""


@dataclasses.dataclass(frozen=True)
class Capabilities:
    """What a backend enforces on this machine."""

    backend: str
    isolated: bool
    """Namespaces: no network, private filesystem view, private pids."""
    uid_per_slot: bool
    memory_cgroup: bool
    pids_cgroup: bool
    freezer: bool
    """True when freeze() uses a cgroup freezer; False when it falls back to SIGSTOP."""
    seccomp: bool
    cgroup_version: int | None = None
    cpu_quota: bool = False
    """Each sandbox is held to one CPU (cgroup cpu quota)."""


def check_socket_path(path: str) -> os.stat_result:
    """Raise ``SocketSwapped`` unless ``path`` is a unix socket itself (``lstat``: a symlink does not count);
    returns what was checked, so the caller can make sure it is what it links (``SeatDir.link_socket``)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise SocketSwapped(path, "no socket") from None
    if not stat.S_ISSOCK(info.st_mode):
        kind = "a symlink" if stat.S_ISLNK(info.st_mode) else f"mode {stat.filemode(info.st_mode)}"
        raise SocketSwapped(path, f"not a socket but {kind}")
    return info


class SandboxedBot(abc.ABC):
    """A bot running in a sandbox; the referee connects to ``address`` and must call ``kill`` at the end."""

    address: str
    """The unix socket path on the host that the referee connects to."""
    pid1: int | None
    """Host pid of the sandbox's pid 1 (bwrap's reaper), or of the bot process where there is no pid namespace."""
    slot: int

    @abc.abstractmethod
    def kill(self) -> float:
        """End everything the bot started and clean up; returns the seconds it took. Idempotent."""

    @abc.abstractmethod
    def freeze(self) -> None:
        """Stop the bot using CPU (between turns, or after a timed-out move)."""

    @abc.abstractmethod
    def thaw(self) -> None:
        """Undo ``freeze``."""

    @abc.abstractmethod
    def run_on(self, cores: set[int]) -> None:
        """Put every task of the sandbox on ``cores`` (the referee's core for a game: worker/referee/cores.py)."""

    @abc.abstractmethod
    def alive(self) -> bool:
        """Whether the sandbox is still running."""

    @abc.abstractmethod
    def end_fd(self) -> int | None:
        """A new file descriptor (the caller closes it) that turns readable when the sandbox ends; None if it has
        ended already."""

    @abc.abstractmethod
    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the bot's stdout and stderr (kept after ``kill``)."""

    def check_socket(self) -> os.stat_result:
        """Raise ``SocketSwapped`` unless ``address`` is a real socket: call it before connecting."""
        return check_socket_path(self.address)

    @property
    def referee_address(self) -> str:
        """Where the referee will connect once ``connect_address`` has checked (and pinned) the socket: known
        before the bot listens, so the referee's client is made while the bot starts."""
        return self.address

    def connect_address(self) -> str:
        """``referee_address``, after checking the socket (backends pin it where the bot cannot swap it)."""
        self.check_socket()
        return self.address

    def __enter__(self) -> SandboxedBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


class ServedBot:
    """A sandboxed bot with its gRPC client: what the referee's launcher protocol (worker/referee/launch.py) needs."""

    def __init__(self, handle: SandboxedBot, bot: RemoteBot) -> None:
        self.handle = handle
        self.bot = bot

    def kill(self) -> None:
        self.bot.close()
        self.handle.kill()

    def freeze(self) -> None:
        self.handle.freeze()

    def thaw(self) -> None:
        self.handle.thaw()

    def run_on(self, cores: set[int]) -> None:
        self.handle.run_on(cores)

    def log_tail(self, lines: int = 20) -> str:
        return self.handle.log_tail(lines)


def wait_for_socket(handle: SandboxedBot, timeout: float) -> None:
    """Sleep until the bot's socket exists, then ``check_socket`` it; ``BotFault`` past ``timeout`` or if the
    sandbox ends first.

    Woken by the kernel when the socket's directory changes or the sandbox ends (``DirWatch``, a pidfd), not by
    looking every half millisecond: that took the referee's GIL from the game it plays meanwhile
    (worker/sandbox/dirwatch.py)."""
    deadline = time.monotonic() + timeout
    ended = handle.end_fd()
    try:
        with DirWatch(os.path.dirname(handle.address)) as watch:
            while not os.path.lexists(handle.address):
                if not handle.alive():
                    raise BotFault(Reason.CRASH, "the bot exited")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BotFault(Reason.TIMEOUT, f"the bot did not listen within {timeout:.1f} s")
                watch.wait(left, () if ended is None else (ended,))
    finally:
        if ended is not None:
            os.close(ended)
    handle.check_socket()


class Sandbox(abc.ABC):
    """A backend: starts bots in sandboxes."""

    name: str
    limits: SandboxLimits

    @abc.abstractmethod
    def start(self, spec: BotSpec, slot: int | None = None) -> SandboxedBot:
        """Start ``spec`` serving on a fresh socket; ``slot`` picks the uid slot (default: a free one)."""

    def launch(self, spec: BotSpec, limits: Limits) -> ServedBot:
        """Start ``spec``, wait for its socket and check it (pitfall 6), then hand back a client for it. The socket
        exists from the bot's ``bind``, which may come a moment before its ``listen``: wait for SERVING
        (``RemoteBot.wait_serving``, which tries again) before the first call.

        The referee connects through ``connect_address`` (a hard link to the
        checked socket, where the bot cannot write), so a later swap of the
        bot's socket path never redirects a reconnect.

        A socket that is not the bot's own (a symlink, a file, swapped between the check and the link) is
        the bot's fault (``Reason.PROTOCOL``), like any other way of not serving.
        """
        return self.serve(self.start(spec), spec, limits)

    def serve(self, handle: SandboxedBot, spec: BotSpec, limits: Limits) -> ServedBot:
        """``launch``'s part after the start: the bot of ``handle``, running now, gets ``limits.start_s`` to listen
        (a cold start's and a pooled one's alike, worker/sandbox/warm.py); killed unless served."""
        remote: RemoteBot | None = None
        try:
            # The client first, while the bot starts (half a millisecond less to SERVING): gRPC connects at the
            # first call, which comes after the socket is checked and pinned at this address.
            remote = RemoteBot(handle.referee_address, limits, spec.name)
            try:
                wait_for_socket(handle, limits.start_s)
                handle.connect_address()
            except SocketSwapped as error:
                raise BotFault(Reason.PROTOCOL, f"{os.path.basename(handle.address)}: {error.why}: refusing to connect"
                               ) from None
            return ServedBot(handle, remote)
        except BaseException:
            if remote is not None:
                remote.close()
            handle.kill()
            raise

    @abc.abstractmethod
    def capabilities(self) -> Capabilities:
        """What this backend enforces on this machine."""

    @abc.abstractmethod
    def self_test(self) -> None:
        """Raise ``SandboxUnavailable`` with the reason if this backend cannot sandbox here."""
