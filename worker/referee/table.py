"""A table: one game in which people and bots share the seats, published after every decision, resumable.

The arena's table task plays it. Every seat is a ``Bot``: a person's ``HumanSeat``,
a reference bot in this process, or an uploaded bot started in the sandbox by the
match launcher (``worker.referee.match``'s own start-up, so a table bot runs
exactly as it does in a match). The game is driven by the same ``play_game`` as
every match, so a fault ends it the same way. What a table adds around it:

- **publish**: before every decision the decisions so far go to ``on_progress``; the
  arena saves them, and the page re-executes them with the engine to draw any seat's
  view (the engine is deterministic, so the actions are the whole state);
- **resume**: decisions already saved are answered from the save without asking
  anyone, so a table whose worker died goes on where it stopped;
- **pace**: a bot waits ``pace_s`` before it moves, so a person sees each bot move
  arrive instead of a jump over several.

No Django here: players, rules and callables in, the finished game and its record out.

>>> from bots_sdk.bots import make_bot
>>> from bots_sdk.engine import Rules
>>> seen = []
>>> done = play_table(Rules.preset("classic", players=2), "doc", [make_bot("random", 1), "gentle"],
...                   on_progress=seen.append)
>>> done.game.is_over(), len(seen) == len(done.record["actions"])
(True, True)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from bots_sdk.bot import Bot
from bots_sdk.botdir import BotSpec
from bots_sdk.bots import make_bot
from bots_sdk.engine import Action, Game, GameRecord, Observation, Outcome, Rules, SeatInfo
from bots_sdk.local import play_game
from bots_sdk.remote import ARENA_LIMITS, Limits
from worker.referee.human import HumanSeat, decision_number
from worker.referee.launch import Launcher

# The match's own start-up of a bot (start, wait for SERVING, hello, a fault if it cannot): one way to start a bot.
from worker.referee.match import RunningBot, bot_spec, start_bot
from worker.referee.turns import OnMove

Player = Bot | str
"""A seat: a ``Bot`` that plays in this process (a ``HumanSeat``, a reference bot), or what a match spec names
for a bot (a reference bot's name, a built bot's store entry, a bot folder)."""


@dataclasses.dataclass(frozen=True)
class Decision:
    """One decision of the game as the record keeps it."""

    seat: int
    action: str
    ms: int | None = None

    def to_list(self) -> list[Any]:
        return [self.seat, self.action, self.ms]

    @classmethod
    def from_list(cls, item: Sequence[Any]) -> Decision:
        return cls(int(item[0]), str(item[1]), None if item[2] is None else int(item[2]))


Progress = Callable[[list[Decision]], None]


@dataclasses.dataclass(frozen=True)
class TableGame:
    """The finished game (``game.outcome`` says how it ended) and its ``durak-game/1`` record."""

    game: Game
    record: dict[str, Any]


def replay_decisions(rules: Rules, seed: str, decisions: Sequence[Decision]) -> Game:
    """The game after ``decisions``; ``ValueError`` naming the first one that is not legal where it stands."""
    game = Game.new(rules, seed)
    for i, decision in enumerate(decisions):
        action = Action.parse(decision.action)
        why = game.why_illegal(action, decision.seat)
        if why:
            raise ValueError(f"decision {i} ({decision.action}, seat {decision.seat}): {why}")
        game.push(action)
    return game


def play_table(
    rules: Rules, seed: str, players: Sequence[Player], *, launcher: Launcher | None = None,
    limits: Limits = ARENA_LIMITS, resume: Sequence[Decision] = (), on_progress: Progress | None = None,
    pace_s: float = 0.0, sleep: Callable[[float], None] = time.sleep,
) -> TableGame:
    """Play one game with ``players[i]`` in seat ``i``, from the deal ``Game.new(rules, seed)`` (after ``resume``).

    Every bot process this starts is stopped when it returns (or raises)."""
    if len(players) != rules.players:
        raise ValueError(f"players: {len(players)} players for a {rules.players}-player game")
    replay_decisions(rules, seed, resume)
    specs = [None if isinstance(p, Bot) else bot_spec(p) for p in players]
    infos = tuple(_info(player, spec) for player, spec in zip(players, specs))
    started: list[RunningBot] = []
    try:
        bots: list[Bot] = []
        for seat, (player, spec) in enumerate(zip(players, specs)):
            if spec is None:
                assert isinstance(player, Bot)
                bots.append(player)
            elif spec.language == "reference":
                bots.append(make_bot(spec.name))
            else:
                if launcher is None:
                    raise ValueError(f"seat {seat}: {spec.name} runs as its own process and needs a launcher")
                held = RunningBot(spec)
                started.append(held)
                fault = start_bot(held, launcher, limits)
                if fault is not None:
                    game = Game.new(rules, seed)
                    game.forfeit(seat, fault.reason, f"{spec.name}: {fault.detail}")
                    return _done(game, infos, [])
                assert held.launched is not None
                bots.append(OnMove(held.launched))
        driver = _Driver(bots, resume, on_progress, pace_s, sleep)
        played = play_game(rules, driver.seats, seed=seed)
        return _done(played.game, infos, driver.ms)
    finally:
        for held in started:
            if held.launched is not None:
                held.launched.kill()


def _info(player: Player, spec: BotSpec | None) -> SeatInfo:
    """Who sat in a seat, as the record says it: a bot's manifest name, or a person's (or reference bot's) name."""
    if spec is not None:
        return SeatInfo(spec.name, spec.version)
    assert isinstance(player, Bot)
    return SeatInfo(str(player.name), str(player.version))


def _done(game: Game, infos: tuple[SeatInfo, ...], ms: Sequence[int | None]) -> TableGame:
    times = list(ms[: len(game.decisions())])
    return TableGame(game, GameRecord.from_game(game, infos, times).to_dict())


class _Driver:
    """Asks the seats' bots in turn, after answering the saved decisions and publishing the new ones."""

    def __init__(
        self, bots: Sequence[Bot], resume: Sequence[Decision], on_progress: Progress | None, pace_s: float,
        sleep: Callable[[float], None],
    ) -> None:
        self.resume = list(resume)
        self.ms: list[int | None] = [d.ms for d in resume]
        self.on_progress = on_progress
        self.pace_s = pace_s
        self.sleep = sleep
        self.seats = [RunningBoted(self, bot) for bot in bots]

    def ask(self, bot: Bot, observation: Observation) -> Action:
        number = decision_number(observation)
        if number < len(self.resume):
            return Action.parse(self.resume[number].action)
        if self.on_progress is not None:
            self.on_progress(self.decisions(observation))
        if self.pace_s > 0 and not isinstance(bot, HumanSeat):
            self.sleep(self.pace_s)
        started = time.perf_counter()
        action = bot.choose_action(observation)
        del self.ms[number:]
        self.ms.append(round((time.perf_counter() - started) * 1000))
        return action

    def decisions(self, observation: Observation) -> list[Decision]:
        made = [e for e in observation.history if e.kind == "action" and not e.forced]
        return [
            Decision(e.seat, str(e.action), self.ms[i] if i < len(self.ms) else None) for i, e in enumerate(made)
        ]


class RunningBoted(Bot):
    """A seat's bot as the driver sees it: every decision goes through ``_Driver.ask``."""

    def __init__(self, driver: _Driver, bot: Bot) -> None:
        self.name = bot.name  # type: ignore[misc]
        self.version = bot.version  # type: ignore[misc]
        self._driver = driver
        self._bot = bot

    def start_game(self, seat: int, rules: Rules) -> None:
        self._bot.start_game(seat, rules)

    def choose_action(self, observation: Observation) -> Action:
        return self._driver.ask(self._bot, observation)

    def end_game(self, outcome: Outcome, observation: Observation) -> None:
        self._bot.end_game(outcome, observation)
