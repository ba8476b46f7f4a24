"""Playing a match spec: every bot started once, every deal in every seat rotation, every game recorded.

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
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bots_sdk.botdir import BotSpec, load_spec
from bots_sdk.engine import PRESETS, Game, GameRecord, Reason, Rules, SeatInfo
from bots_sdk.faults import BotFault
from bots_sdk.local import PlayedGame, play_game
from bots_sdk.match import seat_order, table_rules
from bots_sdk.remote import Limits
from worker.build import BUILD_INFO, load_stored
from worker.referee.launch import LaunchedBot, Launcher
from worker.referee.turns import OnMove, rest


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
    start_fault: BotFault | None = None


def bot_spec(argument: str) -> BotSpec:
    """A store entry plays with its own venv; anything else is what ``durak play`` accepts."""
    if (Path(argument) / BUILD_INFO).is_file():
        return load_stored(Path(argument)).spec
    return load_spec(argument)


def play_spec(
    spec: MatchSpec, launcher: Launcher, on_game: Callable[[GameResult], None] | None = None
) -> list[GameResult]:
    """Play the whole match; every bot process is stopped when this returns (or raises)."""
    specs = [bot_spec(argument) for argument in spec.bots]
    rules = spec.rules
    entrants = len(specs)
    # A bot playing a whole team runs once per seat of it: instances[i][k] is bot i's k-th process.
    instances = [[RunningBot(s) for _ in range(rules.players // entrants)] for s in specs]
    results: list[GameResult] = []
    try:
        for deal in range(spec.deals):
            for rotation in range(entrants if spec.duplicate else 1):
                order = tuple(seat_order(rules, entrants, -rotation))  # seat s holds bot order[s]
                used = [0] * entrants
                seated = []
                for index in order:
                    seated.append(instances[index][used[index]])
                    used[index] += 1
                result = _play_one(spec, rules, launcher, seated, deal, rotation, order)
                results.append(result)
                if on_game is not None:
                    on_game(result)
    finally:
        for running in (r for group in instances for r in group):
            if running.launched is not None:
                running.launched.kill()
    return results


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
        fault = start_bot(running, launcher, spec.limits)
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
        offender = seated[outcome.offender]
        assert offender.launched is not None
        offender.launched.kill()
        offender.launched = None
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

