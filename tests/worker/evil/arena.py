"""Helpers of the hostile-bot suite: write an evil bot folder, play it through the real referee, watch what happens.

Every test plays ``play_spec(MatchSpec((folder, "random"), ...), launcher)`` with the
worker's own launcher (``launcher_for("bwrap")``), wrapped in a ``Recorder`` that
only watches: how long each launch and each decision took, when each bot was
killed, how big its log was and how many OOM kills its cgroup saw just before
the kill, and its log afterwards (the bots print their probe results to stderr,
which the sandbox captures).
"""

from __future__ import annotations

import dataclasses
import json
import os
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bots_sdk.botdir import BotSpec
from bots_sdk.engine import Action, Observation
from bots_sdk.faults import BotFault
from bots_sdk.remote import Limits, RemoteBot
from tests.worker.sandbox.conftest import write_bot
from worker.referee.launch import LaunchedBot, Launcher
from worker.referee.match import GameResult, MatchSpec, play_spec
from worker.sandbox import procs
from worker.sandbox.base import ServedBot
from worker.sandbox.handle import LaunchedBot as SandboxHandle

EVIL = 0
"""The evil bot's index in the spec (the opponent, ``random``, is 1)."""
WATCHED_SLOTS = range(100)
"""The slots of the default pool (worker/sandbox/slots.py: uid 61000 + slot) checked after each test.

``launcher_for("bwrap")`` takes the lowest free slot, so this suite uses the first few; higher slots are left
alone because other users of this host run sandboxes there (tests/worker/sandbox uses 61900-61949, install
builds others)."""
SLOT_UIDS = range(61000, 61000 + len(WATCHED_SLOTS))
STATE_DIR = Path("/run/durak")
CGROUP_ROOT = Path("/sys/fs/cgroup")


def evil_bot(
    tmp_path: Path, name: str, *, prelude: str = "", body: str = "", bot: str = "RandomBot()", probes: bool = False
) -> str:
    """A bot folder (``bot.toml`` + ``bot.py``) from code snippets; returns the folder for a ``MatchSpec``.

    ``prelude`` runs before the SDK import, ``body`` after it (``RandomBot``, ``Bot``, ``serve``, json, os,
    sys and time are imported), then ``serve(bot)``. See ``tests/worker/sandbox/conftest.py:write_bot``.
    ``probes`` puts ``PROBES`` first (``attempt`` and ``report``, for the prelude and the body).
    """
    if probes:
        prelude = PROBES + textwrap.dedent(prelude)
    write_bot(tmp_path / name, name, prelude=prelude, body=body, bot=bot)
    return str(tmp_path / name)


@dataclasses.dataclass
class Decision:
    started: float
    elapsed: float
    fault: BotFault | None


@dataclasses.dataclass
class Launch:
    """One start of one bot by the referee, and what became of it."""

    name: str
    started: float
    launch_s: float = 0.0
    """The launcher call: sandbox start, socket wait and check."""
    start_fault: BotFault | None = None
    served: ServedBot | None = None
    decisions: list[Decision] = dataclasses.field(default_factory=list)
    kill_started: float | None = None
    kill_s: float | None = None
    log_bytes_at_kill: int | None = None
    oom_kills_at_kill: int = 0
    processes_at_kill: list[str] = dataclasses.field(default_factory=list)
    """Command lines of the slot uid's live processes right before the kill."""
    uid: int | None = None
    frozen: int = 0
    """How often the referee froze it (a bot started ahead of its rotation waits frozen)."""

    @property
    def handle(self) -> SandboxHandle | None:
        if self.served is not None and isinstance(self.served.handle, SandboxHandle):
            return self.served.handle
        return None

    def log(self, lines: int = 400) -> str:
        return self.served.log_tail(lines) if self.served is not None else ""


class _Tracked:
    """A launched bot as the referee sees it, with its ``kill`` and its decisions recorded."""

    def __init__(self, served: ServedBot, record: Launch) -> None:
        self._served = served
        self._record = record
        bot = served.bot
        choose = bot.choose_action

        def timed(observation: Observation) -> Action:
            started = time.perf_counter()
            try:
                action = choose(observation)
            except BotFault as fault:
                record.decisions.append(Decision(started, time.perf_counter() - started, fault))
                raise
            record.decisions.append(Decision(started, time.perf_counter() - started, None))
            return action

        setattr(bot, "choose_action", timed)  # noqa: B010  (an instance attribute over the method)

    @property
    def bot(self) -> RemoteBot:
        return self._served.bot

    def kill(self) -> None:
        record = self._record
        if record.kill_started is None:
            record.kill_started = time.perf_counter()
            handle = record.handle
            if handle is not None:
                log = handle.seat_dir / "bot.log"
                try:
                    record.log_bytes_at_kill = log.stat().st_size
                except OSError:
                    record.log_bytes_at_kill = None
                if handle.cgroup is not None:
                    record.oom_kills_at_kill = handle.cgroup.oom_kills()
                record.processes_at_kill = [
                    command for command in (cmdline(pid) for pid in procs.live_pids_of_uid(handle.uid)) if command
                ]
        self._served.kill()
        if record.kill_s is None:
            record.kill_s = time.perf_counter() - record.kill_started

    def log_tail(self, lines: int = 20) -> str:
        return self._served.log_tail(lines)

    def freeze(self) -> None:
        self._record.frozen += 1
        self._served.freeze()

    def thaw(self) -> None:
        self._served.thaw()

    def run_on(self, cores: set[int]) -> None:
        self._served.run_on(cores)


class Recorder:
    """A ``Launcher`` that wraps another and records every launch (see the module docstring)."""

    def __init__(self, launcher: Launcher) -> None:
        self.launcher = launcher
        self.launches: list[Launch] = []

    def __call__(self, spec: BotSpec, limits: Limits) -> LaunchedBot:
        record = Launch(spec.name, time.perf_counter())
        self.launches.append(record)
        try:
            launched = self.launcher(spec, limits)
        except BotFault as fault:
            record.launch_s = time.perf_counter() - record.started
            record.start_fault = fault
            raise
        record.launch_s = time.perf_counter() - record.started
        assert isinstance(launched, ServedBot), launched
        record.served = launched
        if record.handle is not None:
            record.uid = record.handle.uid
        return _Tracked(launched, record)

    def of(self, name: str) -> list[Launch]:
        return [launch for launch in self.launches if launch.name == name]


@dataclasses.dataclass
class Played:
    results: list[GameResult]
    recorder: Recorder
    seconds: float
    evil: str
    """The evil bot's name."""

    @property
    def reasons(self) -> list[str]:
        return [r.reason for r in self.results]

    def evil_offended(self, reason: str) -> bool:
        """Every game was forfeited by the evil bot for ``reason``."""
        return bool(self.results) and all(
            r.reason == reason and r.offender is not None and r.seats[r.offender] == EVIL for r in self.results
        )

    @property
    def normal(self) -> bool:
        return bool(self.results) and all(r.reason == "normal" and r.offender is None for r in self.results)

    @property
    def launches(self) -> list[Launch]:
        return self.recorder.of(self.evil)

    def log(self) -> str:
        """Every log of every start of the evil bot, in order."""
        return "\n".join(launch.log() for launch in self.launches)

    def probe(self, marker: str = "PROBE") -> dict[str, Any]:
        """The JSON object the evil bot printed after ``marker`` (its first start's)."""
        for line in self.log().splitlines():
            if line.startswith(marker + " "):
                value: dict[str, Any] = json.loads(line[len(marker) + 1:])
                return value
        raise AssertionError(f"no {marker} line in the evil bot's log:\n{self.log()[-3000:]}")

    def describe(self) -> str:
        return f"{[(r.reason, r.offender, r.detail) for r in self.results]}\nlog:\n{self.log()[-2000:]}"


def play(
    launcher: Launcher, folder: str, *, move_s: float = 1.0, bank_s: float = 0.0, start_s: float = 3.0,
    deals: int = 1, seed: str = "evil",
) -> Played:
    """Play ``folder`` against ``random`` through the referee (every seat rotation of ``deals`` deals)."""
    recorder = Recorder(launcher)
    spec = MatchSpec((folder, "random"), preset="classic", deals=deals, seed=seed, move_s=move_s, bank_s=bank_s,
                     start_s=start_s)
    started = time.perf_counter()
    results = play_spec(spec, recorder)
    return Played(results, recorder, time.perf_counter() - started, Path(folder).name)


# ---------------------------------------------------------------- what must be gone after every test


def live_slot_processes() -> dict[int, list[str]]:
    """Live (non-zombie) processes of any slot uid: pid -> [uid line, cmdline]; one scan of /proc."""
    found: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        uids = {int(u) for u in fields.get("Uid", "").split()}
        if uids & set(SLOT_UIDS) and not fields.get("State", "").strip().startswith("Z"):
            found[int(entry)] = [fields["Uid"].strip(), cmdline(int(entry))]
    return found


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def seat_dirs() -> list[Path]:
    return sorted(STATE_DIR / f"seat-{slot}" for slot in WATCHED_SLOTS if (STATE_DIR / f"seat-{slot}").exists())


def own_cgroup_dirs() -> Iterator[Path]:
    """The ``durak-arena`` parents of this process's sandboxes, per mounted cgroup controller."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            base = CGROUP_ROOT / controller if controller else CGROUP_ROOT
            yield base / path.lstrip("/") / "durak-arena"


def slot_cgroups() -> list[Path]:
    return sorted(parent / f"uid-{uid}" for parent in own_cgroup_dirs() for uid in SLOT_UIDS
                  if (parent / f"uid-{uid}").is_dir())


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def wait_until(condition: Callable[[], bool], timeout: float, poll_s: float = 0.01) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll_s)
    return True


PROBES = '''
import errno, socket
RESULTS = {}
def attempt(name, action):
    """Run one attack; record 'ok' (or its value), the errno name, or the exception's type."""
    try:
        value = action()
        RESULTS[name] = 'ok' if value is None else value
    except socket.gaierror:
        RESULTS[name] = 'gaierror'
    except OSError as error:
        RESULTS[name] = errno.errorcode.get(error.errno, str(error.errno)) if error.errno else type(error).__name__
    except Exception as error:
        RESULTS[name] = type(error).__name__
def report(marker='PROBE'):
    print(marker + ' ' + json.dumps(RESULTS), file=sys.stderr, flush=True)
'''
"""Probe helpers for a bot's prelude: ``attempt(name, callable)`` then ``report()`` (read with ``Played.probe``)."""
