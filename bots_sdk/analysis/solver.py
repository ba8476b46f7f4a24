"""Exact values of perfect-information Durak positions: alpha-beta over the true game.

Once nothing is hidden (two players and an empty stock), Durak is a
finite game of perfect information: no cycle is possible (a bout ends with cards discarded or a take that
counts towards ``pickup_draw_limit``), so minimax reaches the end. A position's value is who ends safe
and how many bouts it takes: the winner hurries, the loser delays, as an engine scores a mate in N.

Scores are integers seen by a *team* (one seat alone, or a seat and its partners), which maximises while
every other seat minimises: a draw is 0, a win is ``WIN - last_bout``, a loss ``last_bout - WIN``, where
``last_bout`` is the number of the game's final bout. Counting from the game's first bout (not from the
searched position) keeps a transposition table's entries valid whatever path led to a position.

Two users:

- the ``strong`` bot, which searches a limited depth with its own candidate moves and playouts as leaf
  values (``Search`` with ``depth``, ``moves`` and ``leaf``), within its clock;
- ``Solver``, the exact values of a two-player position and of each of its legal actions for analysis,
  searching every legal action with a transposition table kept across the positions of one game.

>>> from bots_sdk.bots.gentle import GentleBot
>>> from bots_sdk.engine import Game, Rules
>>> game, bot = Game.new(Rules.preset("classic", players=2), seed=4), GentleBot(seed=4)
>>> while not perfect_information(game):
...     game.push(bot.choose_action(game.observation(game.to_act)))
>>> print(game.to_act, Solver().value(game))
0 win in 3
>>> {str(action): str(value) for action, value in Solver().action_values(game).items()}
{'attack TS': 'win in 3', 'attack KH': 'win in 3', 'attack AH': 'win in 5'}
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Collection, Sequence
from operator import attrgetter
from typing import Final, Literal

from bots_sdk.engine import Action, Game
from bots_sdk.engine.game import GAME_SLOTS

WIN: Final = 100_000
"""The score of a win in bout 0; a real game's win scores ``WIN - last_bout`` (``max_bouts`` is far below)."""
INFINITY: Final = WIN + 1
"""Beyond every score: the open window of a search."""
MAX_NODES: Final = 400_000
"""``Solver``'s default budget of positions for a result: seconds of Python, far more than a typical endgame
needs with the transposition table; a position that needs more is left to the estimate."""
BOUT_NODES: Final = 20_000
"""``Solver``'s default budget of positions for the exact number of bouts of a proven result."""

_IRRELEVANT: Final = frozenset({
    # Constant through a game (rules, lookup tables, the deal).
    "_beaters", "_bout_limit", "_deck", "_draw_orders", "_drawn", "_early", "_first_limit", "_hand_size",
    "_max_bouts", "_members", "_multi", "_n", "_neighbours", "_six", "_stand_ins", "_stock", "_team_of",
    "_throw_orders", "_transfer", "_trump", "_trump_mask", "_watcher", "dealer", "rules",
    # What was seen and when: it changes what players know, never what can still happen.
    "_history", "_known", "_out_order", "_trump_drawn_by",
    # Derived from the rest, or only set at the end.
    "_legal", "_outcome",
})
_LISTS: Final = ("_att", "_cov", "_hands", "_out")
"""The slots holding lists, made tuples in a key."""
_STATE_SLOTS: Final = tuple(sorted(set(GAME_SLOTS) - _IRRELEVANT - set(_LISTS)))
"""Every other slot of ``Game`` that decides what can still happen. Listed by exclusion, so a slot the engine
adds later is part of the key (safe, maybe slower; a list added to the engine fails loudly as unhashable)
rather than silently left out (wrong values)."""
_scalars = attrgetter(*_STATE_SLOTS)
_lists = attrgetter(*_LISTS)


class SearchAborted(Exception):
    """The search ran out of its deadline or node budget; the caller keeps what it knew before."""


def state_key(game: Game) -> tuple[object, ...]:
    """A hashable key equal for two positions exactly when the same futures are open to both."""
    att, cov, hands, out = _lists(game)
    return (*_scalars(game), tuple(att), tuple(cov), tuple(hands), tuple(out))


def terminal_score(game: Game, team: Collection[int]) -> int:
    """The score of a finished game for ``team`` (in a team game a partner's loss is the team's)."""
    outcome = game._outcome
    assert outcome is not None
    if outcome.durak is None:
        return 0
    return WIN - game._bout if outcome.durak not in team else game._bout - WIN


class Search:
    """Fail-soft alpha-beta for ``team``; with ``depth=None`` exact (and then memoised in ``table``).

    ``moves`` gives the actions to try at a position, best guesses first (default: every legal action in the
    engine's order); ``leaf`` scores a position where a depth-limited search stops. ``exact`` stays true
    while no leaf was scored that way. Past ``deadline`` (``time.perf_counter``) or ``max_nodes`` positions
    it raises ``SearchAborted``.
    """

    def __init__(
        self,
        team: Collection[int],
        *,
        moves: Callable[[Game], Sequence[Action]] | None = None,
        leaf: Callable[[Game], int] | None = None,
        deadline: float | None = None,
        max_nodes: int | None = None,
        table: dict[tuple[object, ...], tuple[int, int]] | None = None,
    ) -> None:
        self.team = frozenset(team)
        self.moves = moves or Game.legal_actions
        self.leaf = leaf
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.table = table
        self.exact = True
        self.nodes = 0

    def value(self, game: Game, depth: int | None = None, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """The score of ``game`` for the team: exact inside ``(alpha, beta)``, else a bound on the side it fell."""
        if game._outcome is not None:
            return terminal_score(game, self.team)
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchAborted(f"more than {self.max_nodes} positions")
        if self.deadline is not None and not self.nodes & 3 and time.perf_counter() > self.deadline:
            raise SearchAborted("deadline")
        if depth is not None and depth <= 0:
            assert self.leaf is not None, "a depth-limited search needs a leaf evaluation"
            self.exact = False
            return self.leaf(game)
        table = self.table if depth is None else None
        key: tuple[object, ...] = ()
        if table is not None:
            key = state_key(game)
            bounds = table.get(key)
            if bounds is not None:
                low, high = bounds
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
        window = (alpha, beta)
        maximise = game._to_act in self.team
        best = -INFINITY if maximise else INFINITY
        below = None if depth is None else depth - 1
        for action in self.moves(game):
            child = game.clone()
            child.push(action)
            value = self.value(child, below, alpha, beta)
            if maximise:
                if value > best:
                    best = value
                    alpha = max(alpha, best)
            elif value < best:
                best = value
                beta = min(beta, best)
            if alpha >= beta:
                break
        if table is not None:
            low, high = table.get(key, (-INFINITY, INFINITY))
            if best <= window[0]:
                high = min(high, best)
            elif best >= window[1]:
                low = max(low, best)
            else:
                low = high = best
            table[key] = (low, high)
        return best

    def best(self, game: Game, actions: Sequence[Action], depth: int | None) -> tuple[Action, int, dict[str, int]]:
        """The first action of ``actions`` with the highest score, stopping at the first win.

        Each later action is searched with a window starting at the best so far, so a worse one fails low
        (its value in the returned dict is then an upper bound) and ties keep the earlier action.
        """
        chosen = actions[0]
        best = -INFINITY
        values: dict[str, int] = {}
        for action in actions:
            child = game.clone()
            child.push(action)
            value = self.value(child, None if depth is None else depth - 1, best, INFINITY)
            values[str(action)] = value
            if value > best:
                chosen, best = action, value
            if best > 0:  # a win: a faster one is not worth the time of a bot's move
                break
        return chosen, best, values


Result = Literal["win", "draw", "loss"]


@dataclasses.dataclass(frozen=True, slots=True)
class Value:
    """A position's exact value for one seat: its result, and the bouts left from the current one to the
    last, both counted (1: the game ends in this bout)."""

    result: Result
    bouts: int | None
    """``None`` when the result is proven but the exact length was beyond the search's budget (and 0 for a draw)."""

    @classmethod
    def of(cls, score: int, bout: int) -> Value:
        """The value of ``score`` (for the seat) seen from a position in bout ``bout``."""
        if score == 0:
            return cls("draw", 0)
        last = WIN - abs(score)
        return cls("win" if score > 0 else "loss", last - bout + 1)

    @property
    def points(self) -> float:
        """What the result is worth: 1 safe, 1/2 a draw, 0 the durak."""
        return {"win": 1.0, "draw": 0.5, "loss": 0.0}[self.result]

    def __str__(self) -> str:
        if self.result == "draw" or self.bouts is None:
            return self.result
        return f"{self.result} in {self.bouts}"

    def rank(self) -> tuple[float, float]:
        """Sorts values from worst to best for their seat: by result, then a faster win or a slower loss (an
        unknown length last within its result)."""
        if self.bouts is None:
            return (self.points, -math.inf)
        return (self.points, -self.bouts if self.result == "win" else self.bouts)

    def to_dict(self) -> dict[str, object]:
        return {"result": self.result, "bouts": self.bouts}


def perfect_information(game: Game) -> bool:
    """Whether both seats of a two-player game see every card: the stock is empty, so each hand is
    everything the other has not seen. (A stock of only the visible turn-up hides nothing either, but
    the draw it adds makes the search several times longer for a single decision.)"""
    return game.players == 2 and game.stock_size == 0 and not game.is_over()


class Solver:
    """Exact values of the positions of one two-player game, with a transposition table shared between calls
    (a game's later positions are mostly inside the tree of its earlier ones).

    The result (win, draw or loss) is always exact: a search in the window around a draw decides only
    its sign, and cuts most of the tree. The bouts to the end need the full window, which costs ten to a
    hundred times more; they are searched within ``bout_nodes`` positions and left ``None`` beyond.
    ``order`` sorts a position's legal actions (all of them are searched; a good first guess makes the
    search far faster); ``max_nodes`` bounds the result's search (``SearchAborted`` beyond).
    """

    def __init__(
        self,
        order: Callable[[Game], Sequence[Action]] | None = None,
        max_nodes: int | None = MAX_NODES,
        bout_nodes: int | None = BOUT_NODES,
    ) -> None:
        self.order = order
        self.max_nodes = max_nodes
        self.bout_nodes = bout_nodes
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0
        """Positions visited by every call so far."""

    def _score(self, game: Game, alpha: int, beta: int, budget: int | None) -> int:
        """The score for seat 0 (exact inside the window)."""
        search = Search((0,), moves=self.order, max_nodes=budget, table=self.table)
        try:
            return search.value(game, None, alpha, beta)
        finally:
            self.nodes += search.nodes

    def _result(self, game: Game, seat: int) -> Result:
        if game.is_over():
            score = terminal_score(game, (seat,))
        else:
            score = (1 if seat == 0 else -1) * self._score(game, -1, 1, self.max_nodes)
        return "win" if score > 0 else "loss" if score < 0 else "draw"

    def _value(self, game: Game, seat: int, bout: int) -> Value:
        if game.is_over():
            return Value.of(terminal_score(game, (seat,)), bout)
        sign = 1 if seat == 0 else -1
        result = self._result(game, seat)
        if result == "draw":
            return Value("draw", 0)
        try:
            exact = sign * self._score(game, -INFINITY, INFINITY, self.bout_nodes)
        except SearchAborted:
            return Value(result, None)
        return Value.of(exact, bout)

    def _check(self, game: Game) -> int:
        if not perfect_information(game):
            raise ValueError("the solver needs a two-player game in play with an empty stock")
        seat = game.to_act
        assert seat is not None
        return seat

    def value(self, game: Game) -> Value:
        """The value of ``game`` for the seat to act."""
        return self._value(game, self._check(game), game.bout)

    def action_value(self, game: Game, action: Action) -> Value:
        """The value of ``action`` for the seat to act."""
        seat = self._check(game)
        child = game.clone()
        child.push(action)
        return self._value(child, seat, game.bout)

    def action_values(self, game: Game) -> dict[Action, Value]:
        """The value, for the seat to act, of each of its legal actions."""
        return {action: self.action_value(game, action) for action in game.legal_actions()}

    def action_results(self, game: Game) -> dict[Action, Result]:
        """The result of each legal action for the seat to act, without the bouts (far cheaper)."""
        seat = self._check(game)
        out: dict[Action, Result] = {}
        for action in game.legal_actions():
            child = game.clone()
            child.push(action)
            out[action] = self._result(child, seat)
        return out
