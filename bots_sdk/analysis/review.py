"""Rating every decision of a game record: what ``durak analyze`` prints and the arena stores.

Two kinds of verdict, by what the seat to act could know:

- **exact** (two players and an empty stock: every card is known): the
  solver's value of the position and of each legal action. A *mistake* is an action whose result is worse
  (a win thrown to a draw or a loss, a draw to a loss); a slower win is not one.
- **estimate** (cards still hidden, or more than two players): each candidate action (``strong``'s, plus
  the one played) is played out with ``strong``'s playout policy on the same ``samples`` deals sampled
  from what the seat could see (``determinize``). A value is the chance that the seat's side ends as the
  durak, with its standard error. An *inaccuracy* is an action whose chance exceeds the best action's by
  more than ``threshold`` and by more than ``Z`` standard errors of the paired difference (sampling noise
  alone would otherwise flag many). An estimate never proves a mistake.

Each verdict also carries ``cost``, how much the action gave away (in points: 1 a game, 1/2 a draw), which
ranks a bot's worst decisions, and ``durak``, every seat's chance to end as the durak after the action,
for the chart along the game.

>>> from bots_sdk.bots.gentle import GentleBot
>>> from bots_sdk.engine import Game, GameRecord, Rules
>>> game, bot = Game.new(Rules.preset("classic", players=2), seed=4), GentleBot(seed=4)
>>> while not game.is_over():
...     game.push(bot.choose_action(game.observation(game.to_act)))
>>> reviews = list(analyze(GameRecord.from_game(game), samples=4))
>>> reviews[-1].mode, reviews[-1].mistake, reviews[0].mode
('exact', False, 'estimate')
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any, Literal

from bots_sdk.analysis.solver import SearchAborted, Solver, Value, perfect_information
from bots_sdk.bots.strong import PlayoutContext, candidates, ordered, playout
from bots_sdk.engine import Action, Game, GameRecord, RecordError, determinize
from bots_sdk.engine.replay import replay

SAMPLES = 32
"""Sampled deals per estimated decision: a standard error of about 0.08 on a chance near one half."""
THRESHOLD = 0.15
"""An estimated action is an inaccuracy when its durak chance exceeds the best action's by more than this..."""
Z = 2.0
"""...and by more than this many standard errors of the paired difference."""


@dataclasses.dataclass(frozen=True, slots=True)
class Estimate:
    """The chance that the seat's side ends as the durak, from sampled deals, with its standard error."""

    durak: float
    se: float

    def __str__(self) -> str:
        return f"durak {self.durak:.2f}±{self.se:.2f}"

    def to_dict(self) -> dict[str, Any]:
        return {"durak": round(self.durak, 4), "se": round(self.se, 4)}


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """The verdict on one decision. ``step`` counts every step of the game, forced ones included, from 0
    (the numbering of ``durak replay --trace``)."""

    step: int
    seat: int
    action: str
    mode: Literal["exact", "estimate"]
    before: Value | Estimate
    """The position's value for the seat under its best action."""
    after: Value | Estimate
    """The value of the action played."""
    best: tuple[str, ...]
    """Exact: every action that keeps the best result (a slower win too); estimate: the least durak chance."""
    mistake: bool
    inaccuracy: bool | None
    """Estimated decisions only (``None`` for exact ones)."""
    drop: float
    """How much the action played is worse than the best: points for an exact verdict (1 a game, 1/2 a draw),
    the rise of the durak chance for an estimate."""
    drop_se: float
    """The standard error of ``drop`` (0 for an exact verdict)."""
    durak: tuple[float, ...]
    """Per seat, the chance to end as the durak after the action (0 or 1 once exact; 0 for all in a draw)."""
    seconds: float

    @property
    def cost(self) -> float:
        """What a flagged decision gave away (0 for one that is not a mistake or an inaccuracy)."""
        return self.drop if self.mistake or self.inaccuracy else 0.0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "step": self.step, "seat": self.seat, "action": self.action, "mode": self.mode,
            "before": self.before.to_dict(), "after": self.after.to_dict(), "best": list(self.best),
            "mistake": self.mistake,
        }
        if self.inaccuracy is not None:
            out["inaccuracy"] = self.inaccuracy
        out.update(drop=round(self.drop, 4), drop_se=round(self.drop_se, 4), cost=round(self.cost, 4),
                   durak=[round(p, 4) for p in self.durak], seconds=round(self.seconds, 4))
        return out

    def line(self) -> str:
        """One line of ``durak analyze``."""
        verdict = ""
        if self.mistake:
            verdict = "  MISTAKE"
        elif self.inaccuracy:
            verdict = f"  inaccuracy (+{self.drop:.2f}±{self.drop_se:.2f})"
        return (f"{self.step:4d}  seat {self.seat}  {self.action:<16} {self.mode:<8} {self.before!s:>16} -> "
                f"{self.after!s:<16} best: {', '.join(self.best)}{verdict}")


def _side(game: Game, seat: int) -> frozenset[int]:
    return frozenset((seat, *game.partners(seat)))


def _exact(solver: Solver, game: Game, action: Action, step: int, started: float) -> Review:
    seat = game.to_act
    assert seat is not None
    results = solver.action_results(game)
    before = solver.value(game)
    best = tuple(str(a) for a, result in results.items() if result == before.result)
    after = solver.action_value(game, action)
    durak = [0.0] * game.players
    if after.result != "draw":
        durak[1 - seat if after.result == "win" else seat] = 1.0
    return Review(step, seat, str(action), "exact", before, after, best, after.points < before.points, None,
                  before.points - after.points, 0.0, tuple(durak), time.perf_counter() - started)


def _estimate(game: Game, action: Action, step: int, samples: int, threshold: float, rng: random.Random,
              started: float) -> Review:
    seat = game.to_act
    assert seat is not None
    side = _side(game, seat)
    observation = game.observation(seat)
    ctx = PlayoutContext(game)
    actions = candidates(game.legal_actions(), ctx)
    if action not in actions:
        actions.append(action)
    lost: dict[Action, list[float]] = {a: [] for a in actions}
    durak_counts = [0] * game.players
    for _ in range(samples):
        try:
            deal = determinize(observation, rng)
        except ValueError:
            deal = game  # no deal fits what the seat saw (it cannot happen in a valid record): use the true one
        for candidate in actions:
            child = deal.clone()
            child.push(candidate)
            playout(child, ctx, None)
            outcome = child.outcome
            assert outcome is not None
            lost[candidate].append(float(outcome.durak is not None and outcome.durak in side))
            if candidate == action and outcome.durak is not None:
                durak_counts[outcome.durak] += 1
    means = {a: sum(v) / samples for a, v in lost.items()}
    low = min(means.values())
    best_actions = [a for a in actions if means[a] == low]
    leader = best_actions[0]
    diffs = [x - y for x, y in zip(lost[action], lost[leader])]
    drop = means[action] - low
    drop_se = _se(diffs)
    inaccuracy = drop > threshold and drop > Z * drop_se
    before = Estimate(low, _se(lost[leader]))
    after = Estimate(means[action], _se(lost[action]))
    return Review(step, seat, str(action), "estimate", before, after, tuple(map(str, best_actions)), False,
                  inaccuracy, drop, drop_se, tuple(c / samples for c in durak_counts), time.perf_counter() - started)


def _se(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def analyze(
    record: GameRecord, samples: int = SAMPLES, threshold: float = THRESHOLD, seed: int = 0,
    solver: Solver | None = None,
) -> Iterator[Review]:
    """The verdict on each decision of ``record``, in order (forced moves have none).

    Raises ``RecordError`` for a record that does not replay (malformed, or an illegal action). Estimates
    are deterministic for a given ``seed``.
    """
    if samples < 1:
        raise ValueError(f"samples: {samples} is not a positive number of deals")
    result = replay(record)
    if result.status == "illegal":
        illegal = result.illegal or {}
        raise RecordError(f"actions: step {illegal.get('step')} ({illegal.get('action')}) is illegal: "
                          f"{illegal.get('reason')}")
    rng = random.Random(seed)
    game = Game.from_deck(record.rules, record.deck, record.dealer)
    if solver is None and record.rules.players == 2:
        ctx = PlayoutContext(game)
        solver = Solver(order=lambda position: ordered(position, ctx))
    too_big = math.inf
    """Cards in play at the last position the solver gave up on: positions as large are not tried again (each
    try costs the whole budget); a later, smaller one is."""
    for step in result.steps:
        if step.forced:
            continue
        action = next(a for a in game.legal_actions() if str(a) == step.action)
        started = time.perf_counter()
        review = None
        size = game.hand_size(0) + game.hand_size(1) + 2 * len(game.table())
        if solver is not None and perfect_information(game) and size < too_big:
            try:
                review = _exact(solver, game, action, step.step, started)
            except SearchAborted:
                too_big = size  # too deep for the budget: the estimate says what it can
        yield review or _estimate(game, action, step.step, samples, threshold, rng, started)
        game.push(action)
