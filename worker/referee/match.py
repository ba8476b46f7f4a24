"""Playing a match spec: fresh bots for every seat rotation, every deal in every rotation, every game recorded.

A match is a list of deals; with ``duplicate`` each deal (one shuffled deck) is
played in every cyclic rotation of the bots over the seats, so luck of the cards
cancels out. Under a team preset a spec may name one bot per team: each then plays
every seat of its team (one process per seat: a bot keeps per-game state), and the
teams rotate instead of the seats. Each decision goes out with a deadline (per-move limit plus a
per-game bank, ``bots_sdk.remote.Limits``). A fault ends that game with the
offender as the durak (the record says why); a bot that timed out or crashed is
killed and started afresh before its next game, so it cannot compute on anyone
else's time; and every seat but the one on move is frozen (worker/referee/turns.py).
No Django here: a spec in, results and records out.

No bot sees the same deal twice in one life: a bot that remembered the hand it
was dealt would know, in the next rotation of that deal, its opponent's hand. So
the match is played rotation by rotation (deals in order within each), and every
rotation gets freshly started bots: a new process in a new sandbox (new scratch,
/tmp and socket dir), the previous rotation's killed and removed. Within a
rotation a bot keeps its process over the deals, so it may model its opponents.
The extra starts are hidden where cores allow (``start_ahead``): a rotation's bots
start side by side, one thread each, and as soon as they serve, the next
rotation's bots start during this rotation's games, each frozen once it serves,
so it takes no CPU from a game until its own first; a finished rotation's bots,
frozen since their last answer, are killed off the clock by another thread. A
start ahead that failed is simply started again before its game, with the full
start budget. Results come back in deal order (deal 0's rotations,
then deal 1's...), as the arena numbers and rates games.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bots_sdk.botdir import BotSpec, load_spec
from bots_sdk.engine import PRESETS, Game, GameRecord, Reason, Rules, SeatInfo
from bots_sdk.faults import BotFault
from bots_sdk.local import PlayedGame, play_game
from bots_sdk.match import seat_order, table_rules
from bots_sdk.remote import Limits
from worker.build import BUILD_INFO, load_stored
from worker.referee.cores import off_game_core, on_idle_core, own_and_free_cores
from worker.referee.launch import LaunchedBot, Launcher
from worker.referee.turns import OnMove, rest

log = logging.getLogger(__name__)

START_AHEAD_ENV = "DURAK_START_AHEAD"


@dataclasses.dataclass(frozen=True)
class MatchSpec:
    """What to play; JSON-friendly so a Celery task can carry it."""

    bots: tuple[str, ...]
    """Bot folders, built bots' store entries (worker/build.py) or reference bot names, one per seat (2 to 6),
    or under a team preset one per team."""
    preset: str = "classic"
    deals: int = 1
    """Shuffled decks to play."""
    seed: str = "0"
    """Deal ``d`` is shuffled from ``f"{seed}-{d}"``."""
    duplicate: bool = True
    """Play each deal in every cyclic seat rotation (2 players: both seatings)."""
    move_s: float = 1.0
    bank_s: float = 10.0
    start_s: float = 10.0

    def __post_init__(self) -> None:
        if not 2 <= len(self.bots) <= 6:
            raise ValueError(f"bots: {len(self.bots)} bots; a table seats 2 to 6")
        if self.preset not in PRESETS:
            raise ValueError(f"preset: {self.preset!r} is not one of {', '.join(PRESETS)}")
        if self.deals < 1:
            raise ValueError(f"deals: {self.deals} is not a positive number")
        for name, least in (("move_s", 0.001), ("start_s", 0.001), ("bank_s", 0.0)):
            if not getattr(self, name) >= least:
                raise ValueError(f"{name}: {getattr(self, name)!r} is not a number of seconds of at least {least}")
        try:
            table_rules(self.preset, len(self.bots))
        except ValueError as error:
            raise ValueError(f"bots: {error}") from None

    @property
    def rules(self) -> Rules:
        return table_rules(self.preset, len(self.bots))

    @property
    def limits(self) -> Limits:
        return Limits(start_s=self.start_s, move_s=self.move_s, bank_s=self.bank_s)

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "bots": list(self.bots)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchSpec:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{unknown[0]}: unknown match spec field")
        return cls(**{**data, "bots": tuple(data.get("bots", ()))})


@dataclasses.dataclass(frozen=True)
class GameResult:
    """One game: who sat where, how it ended, and its record."""

    deal: int
    rotation: int
    seats: tuple[int, ...]
    """``seats[s]`` is the index (in the spec) of the bot in seat ``s`` (a team's seats share one)."""
    durak: int | None
    draw: bool
    reason: str
    offender: int | None
    detail: str
    record: dict[str, Any]
    bouts: int = 0
    """Bouts played (the last one included); the statistics pages chart game length with it."""

    def summary(self) -> dict[str, Any]:
        """The line of ``python -m worker.referee --json`` (docs/operations.md)."""
        return {"durak": self.durak, "draw": self.draw, "reason": self.reason, "offender": self.offender,
                "detail": self.detail}


@dataclasses.dataclass
class RunningBot:
    """One bot process of a match: its spec and its running instance (started lazily, restarted after faults)."""

    spec: BotSpec
    launched: LaunchedBot | None = None
    fault: BotFault | None = None
    """How its start on a starting thread failed; its next game is forfeited with it (a bot that cannot start
    is not given a second start budget of the arena's time)."""

    def stop(self) -> None:
        if self.launched is not None:
            self.launched.kill()
            self.launched = None


def bot_spec(argument: str) -> BotSpec:
    """A store entry plays with its own venv; anything else is what ``durak play`` accepts."""
    if (Path(argument) / BUILD_INFO).is_file():
        return load_stored(Path(argument)).spec
    return load_spec(argument)


def start_ahead(setting: str | None = None) -> bool:
    """Whether to start bots side by side and ahead, and kill them off the clock (module docstring).

    ``setting`` (default: the ``DURAK_START_AHEAD`` environment variable) is ``on``, ``off`` or ``auto``
    (the default): on where there is an idle core (``on_idle_core``). Without one the
    starts would take their CPU from games being played, whose clocks are wall-clock, so there they wait.
    The starts run at the worker's own CPU priority: a niceness would stay with the bot for its whole life
    (Linux inherits it at fork, per thread), and how a bot was started must not change how it plays.
    """
    return on_idle_core(START_AHEAD_ENV, setting)


def play_spec(
    spec: MatchSpec, launcher: Launcher, on_game: Callable[[GameResult], None] | None = None
) -> list[GameResult]:
    """Play the whole match, rotation by rotation with fresh bots (module docstring); ``on_game`` sees each game
    as it ends, in that order; the results come back in deal order. Every bot process is stopped when this
    returns (or raises)."""
    specs = [bot_spec(argument) for argument in spec.bots]
    rules = spec.rules
    entrants = len(specs)
    rotations = entrants if spec.duplicate else 1
    parallel = start_ahead()

    def fresh() -> list[list[RunningBot]]:
        # A bot playing a whole team runs once per seat of it: bots[i][k] is bot i's k-th process.
        return [[RunningBot(s) for _ in range(rules.players // entrants)] for s in specs]

    results: list[GameResult] = []
    current: list[list[RunningBot]] = []
    ahead: StartAhead | None = None
    # The starting threads live as long as the match: a sandbox dies with the thread that spawned it (bwrap's
    # --die-with-parent is a parent-death signal, which follows the spawning thread). One per seat, so a
    # rotation's bots start side by side; the stopping thread takes a finished rotation's kills off the clock.
    # Both run off the core the games are played on while games are played (worker/referee/cores.py).
    with ThreadPoolExecutor(max_workers=rules.players, thread_name_prefix="start") as starter, \
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="stop", initializer=off_game_core) as stopper:
        try:
            for rotation in range(rotations):
                if ahead is not None:
                    current, ahead = ahead.ready(), None
                else:
                    current = StartAhead(fresh(), starter, launcher, spec.limits, waited=True).ready() if parallel \
                        else fresh()
                if parallel and rotation + 1 < rotations:  # during this rotation's games, on the idle core
                    ahead = StartAhead(fresh(), starter, launcher, spec.limits)
                order = tuple(seat_order(rules, entrants, -rotation))  # seat s holds bot order[s]
                seated = seat_bots(current, order)
                for deal in range(spec.deals):
                    result = _play_one(spec, rules, launcher, seated, deal, rotation, order)
                    results.append(result)
                    if on_game is not None:
                        on_game(result)
                done, current = current, []
                if parallel:  # frozen since their last answer: they cannot compute while they wait to die
                    stopper.submit(stop_all, done)
                else:
                    stop_all(done)
        finally:
            if ahead is not None:
                stop_all(ahead.abandon())
            stop_all(current)
    results.sort(key=lambda result: (result.deal, result.rotation))
    return results


def seat_bots(bots: list[list[RunningBot]], order: tuple[int, ...]) -> list[RunningBot]:
    """Who sits where: seat ``s`` gets the next unused process of bot ``order[s]`` (``bots[i][k]``: bot i's k-th)."""
    used = [0] * len(bots)
    seated = []
    for index in order:
        seated.append(bots[index][used[index]])
        used[index] += 1
    return seated


def stop_all(bots: list[list[RunningBot]]) -> None:
    for group in bots:
        for running in group:
            running.stop()


class StartAhead:
    """A rotation's bots, each started on its own ``starter`` thread as soon as this is made, frozen once serving:
    on the game core and the cores no referee plays on when the match is ``waited`` for them (its first
    rotation), else on those free cores alone (worker/referee/cores.py).

    A bot's fault here is kept for its first game; a start the sandbox refused leaves that bot unstarted, and
    ``_play_one`` starts it again before its game with the full start budget.
    """

    def __init__(
        self, bots: list[list[RunningBot]], starter: Executor, launcher: Launcher, limits: Limits, waited: bool = False,
    ) -> None:
        self.bots = bots
        self._launcher = launcher
        self._limits = limits
        self._place = own_and_free_cores if waited else off_game_core
        self._abandoned = threading.Event()
        self._starts = [starter.submit(self._start, running) for group in bots for running in group]

    def _start(self, running: RunningBot) -> None:
        if self._abandoned.is_set():
            return
        self._place()
        try:
            running.fault = start_bot(running, self._launcher, self._limits)  # serving, then frozen
        except Exception:  # the sandbox's fault, not the bot's: the foreground starts it again, and reports it
            log.warning("start of %s failed; starting it again before its game", running.spec.name, exc_info=True)
            running.stop()

    def ready(self) -> list[list[RunningBot]]:
        """The bots, once every start is done (still frozen: each is thawed when the referee first asks it)."""
        for started in self._starts:
            started.result()
        return self.bots

    def abandon(self) -> list[list[RunningBot]]:
        """Start no more and hand back the bots, for the caller to stop (starts under way are waited for: a
        thread cannot be interrupted, and their bots must be stopped too)."""
        self._abandoned.set()
        return self.ready()


def start_bot(seat: RunningBot, launcher: Launcher, limits: Limits) -> BotFault | None:
    """Start the bot if it is not running (one start budget from launch to SERVING); the fault if it cannot be."""
    if seat.launched is not None:
        return None
    started = time.monotonic()
    try:
        seat.launched = launcher(seat.spec, limits)
        # One start budget from launch to SERVING, however the launcher spent its part of it.
        seat.launched.bot.wait_serving(timeout=max(0.05, limits.start_s - (time.monotonic() - started)))
        seat.launched.bot.hello()
        rest(seat.launched)
    except BotFault as fault:
        if seat.launched is not None:
            seat.launched.kill()
            seat.launched = None
        return fault
    except OSError as error:
        return BotFault(Reason.CRASH, f"could not start: {error}")
    return None


def _play_one(
    spec: MatchSpec, rules: Rules, launcher: Launcher, seated: Sequence[RunningBot], deal: int, rotation: int,
    order: tuple[int, ...],
) -> GameResult:
    """One game with ``seated[s]`` in seat ``s`` (``order[s]`` is its index in the spec)."""
    seed = f"{spec.seed}-{deal}"
    for position, running in enumerate(seated):
        fault, running.fault = running.fault or start_bot(running, launcher, spec.limits), None
        if fault is not None:
            game = Game.new(rules, seed)
            game.forfeit(position, fault.reason, f"{running.spec.name}: {fault.detail}")
            played = PlayedGame(game, [], ())
            return _result(deal, rotation, order, played, seated)
    bots = [OnMove(running.launched) for running in seated]  # type: ignore[arg-type]  # started above
    played = play_game(rules, bots, seed=seed)
    outcome = played.game.outcome
    assert outcome is not None
    if outcome.offender is not None and outcome.reason in (Reason.TIMEOUT, Reason.CRASH, Reason.PROTOCOL):
        # It may still be computing, or be half dead: never let it run into the next game.
        seated[outcome.offender].stop()
    return _result(deal, rotation, order, played, seated)


def _result(
    deal: int, rotation: int, order: tuple[int, ...], played: PlayedGame, seated: Sequence[RunningBot]
) -> GameResult:
    outcome = played.game.outcome
    assert outcome is not None
    infos = tuple(SeatInfo(running.spec.name, running.spec.version) for running in seated)
    record = GameRecord.from_game(played.game, infos, played.ms if played.ms else None)
    return GameResult(
        deal, rotation, order, outcome.durak, outcome.draw, outcome.reason.value, outcome.offender,
        outcome.detail, record.to_dict(), played.game.bout,
    )

