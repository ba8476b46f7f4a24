"""``strong``: determinized search (PIMC) with fast heuristic rollouts, within a per-move time budget.

Why this design: Durak hides the other hands and the stock order, but what is hidden shrinks with
every pick-up, discard and draw, and the engine's ``determinize`` already samples deals consistent
with all of it (card counting: the discard, the cards seen picked up, the turn-up, hand sizes).
On one sampled deal the game is of perfect information and cheap to play to the end, so each
legal action is scored by the share of sampled deals on which a playout after it leaves us safe.

- **Paired samples.** Every candidate action is played out on the same sampled deals (common random
  numbers), so the comparison between two actions is not drowned by how lucky a deal is.
- **Successive halving.** At checkpoints, actions whose paired deficit against the current best is
  clearly significant are dropped, so the budget goes to the close contenders.
- **Rollout policy.** ``gentle``'s strategy (cheapest sufficient card, keep trumps for the end, take
  cheap attacks early; its tuning constants are imported from ``bots_sdk.bots.gentle``) rewritten over
  the engine's bitmasks: gentle itself needs an ``Observation`` per decision (~20 µs) and would cost
  several times more per playout. With an empty stock the playout peeks at the defender's hand in
  place of gentle's hypergeometric estimate: in two-player endgames that is exactly what is known.
  Random playouts are far weaker in Durak (they take and throw in without sense).
- **Perfect information.** When nothing is hidden any more (typically two players left and an empty
  stock), sampling is pointless: the bot runs an iterative-deepening alpha-beta search on the true
  position instead (``bots_sdk.analysis.solver``, which ``durak analyze`` runs to the end), with
  playouts as leaf values, and stops deepening once the result is exact.

The playout code reads the engine's internal attributes (``_hands``, ``_att``, ``_cov``, ``_sleft``,
``_defender``, ``_taken``) and the ``Action`` fields ``_k`` / ``_a`` / ``_b`` directly: the public
accessors build ``Card`` objects and lists per call, which would double the cost of a playout. These
reads never mutate the game; the search only mutates clones through the public ``push``.

With ``samples`` set, a decision uses that many sampled deals and no clock, so it is deterministic
given the bot's seed (tests rely on it). Otherwise it stops at ``budget_ms`` of wall time (or
earlier when the referee's ``time_left`` is shorter), checked between and inside playouts.

>>> from bots_sdk.engine import Game, Rules
>>> game = Game.new(Rules.preset("classic", players=2), seed=1)
>>> StrongBot(seed=0, samples=4).choose_action(game.observation(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from bots_sdk.analysis.solver import INFINITY, Search, SearchAborted, terminal_score
from bots_sdk.bot import Bot
from bots_sdk.bots.gentle import (
    BEAT_WEIGHT,
    EARLY_TRUMP_PREMIUM,
    ENDGAME_UNBEATABLE,
    NON_TRUMP_TOP,
    PAIR_BONUS,
    PICKUP_LOW,
    PICKUP_TRUMP,
    TAKE_ENDGAME,
    TAKE_TEMPO,
    TRANSFER_CHEAP,
    TRUMP_BASE,
    TRUMP_SPAN,
    GentleBot,
)
from bots_sdk.engine import Action, Game, Observation, determinize
from bots_sdk.engine.actions import (
    KIND_ATTACK,
    KIND_DEFEND,
    KIND_EXCHANGE,
    KIND_PASS,
    KIND_TAKE,
    KIND_TRANSFER,
    TAKE,
    defend_action,
)
from bots_sdk.engine.cards import BEATERS, DECK_RANKS, RANK_MASK_OF_INDEX, suit_mask

SAFETY_S = 0.002
"""Stop this long before the deadline: returning the answer and the caller's bookkeeping take time."""
TIME_LEFT_SHARE = 0.5
"""With a referee clock, spend at most this share of the time left for the decision."""
CHECKPOINTS = (8, 16, 32, 64, 128, 256, 512, 1024)
"""Rounds (sampled deals) after which clearly worse actions are dropped."""
DROP_Z = 2.5
"""An action is dropped when its paired deficit to the best exceeds this many standard errors..."""
DROP_MIN_GAP = 0.05
"""...and is at least this large (so near-equal actions keep being compared)."""
MAX_DEPTH = 64
"""Deepest alpha-beta pass on a perfect-information position (decisions); far beyond any budget."""
MAX_DEFENCES_PER_TARGET = 2
"""Defences kept per attack card and beater kind (same suit, trump): beating with the third-cheapest
card of a kind is never better in practice, and pruning it keeps wide multi-card positions searchable."""


class _DeadlineError(SearchAborted):
    """Raised inside a search when the deadline passes (or a fixed playout count is used up);
    the caller keeps its last complete result."""


class PlayoutContext:
    """Per-game constants of the playout policy, computed once per decision rather than per step."""

    __slots__ = ("beaters", "exchange", "frac", "full_stock", "transfer", "trump", "trump_mask")

    def __init__(self, game: Game) -> None:
        rules = game.rules
        low = DECK_RANKS[rules.deck][0]
        self.trump = int(game.trump)
        self.trump_mask = suit_mask(self.trump)
        self.beaters = BEATERS[self.trump]
        self.frac = [((i & 15) - low) / (14 - low) for i in range(64)]
        """Rank as a fraction, 0.0 for the deck's lowest rank and 1.0 for the ace (gentle's scale)."""
        self.full_stock = max(1, rules.deck - rules.deal_size)
        self.exchange = rules.trump_exchange
        self.transfer = rules.transfer


def _fullness(game: Game, ctx: PlayoutContext) -> float:
    left: int = game._sleft
    return min(1.0, left / ctx.full_stock)


def _value(c: int, ctx: PlayoutContext, fullness: float) -> float:
    """What keeping card ``c`` is worth: gentle's card value (trumps dearer while the stock is full)."""
    if c >> 4 == ctx.trump:
        return (TRUMP_BASE + TRUMP_SPAN * ctx.frac[c]) * (1.0 + EARLY_TRUMP_PREMIUM * fullness)
    return NON_TRUMP_TOP * ctx.frac[c]


def policy(game: Game, legal: Sequence[Action], ctx: PlayoutContext) -> Action:
    """The playout move for the seat to act: gentle's rules of thumb on bitmasks, no randomness."""
    last = legal[-1]._k
    if ctx.exchange:
        for action in legal:
            if action._k == KIND_EXCHANGE:
                return action  # a higher trump for the six, always worth it
    if last == KIND_TAKE:
        return _defend(game, legal, ctx)
    if last == KIND_PASS:
        return _throw_in(game, legal, ctx)
    return _lead(game, legal, ctx)


def _lead(game: Game, legal: Sequence[Action], ctx: PlayoutContext) -> Action:
    """The cheapest card, pairs first; with an empty stock, a card the defender cannot beat first."""
    hand: int = game._hands[game._to_act]  # type: ignore[index]
    stock: int = game._sleft
    fullness = _fullness(game, ctx)
    defender_hand: int = game._hands[game._defender]
    beaters = ctx.beaters
    trump = ctx.trump
    best = legal[0]
    best_score = math.inf
    for action in legal:
        c = action._a
        score = _value(c, ctx, fullness)
        if c >> 4 != trump:
            score -= PAIR_BONUS * ((hand & RANK_MASK_OF_INDEX[c]).bit_count() - 1)
        if not stock and not defender_hand & beaters[c]:
            score -= ENDGAME_UNBEATABLE
        if score < best_score:
            best, best_score = action, score
    return best


def _throw_in(game: Game, legal: Sequence[Action], ctx: PlayoutContext) -> Action:
    """Add a cheap card the defender cannot beat (or, onto a take, one we are glad to lose), or pass."""
    stock: int = game._sleft
    fullness = _fullness(game, ctx)
    limit = NON_TRUMP_TOP * (1.0 - 0.5 * fullness) + 1e-9
    taken: bool = game._taken
    defender_hand: int = game._hands[game._defender]
    last_card = game._hands[game._to_act].bit_count() == 1  # type: ignore[index]
    beaters = ctx.beaters
    trump = ctx.trump
    best = legal[-1]  # pass
    best_score = math.inf
    for action in legal:
        if action._k != KIND_ATTACK:
            continue
        c = action._a
        value = _value(c, ctx, fullness)
        is_trump = c >> 4 == trump
        if taken:
            if (is_trump and (stock or not last_card)) or (value > limit and stock):
                continue
            score = value
        else:
            beatable = bool(defender_hand & beaters[c])
            if is_trump:
                if stock or beatable:
                    continue
            elif value > limit:
                continue
            score = value + BEAT_WEIGHT * beatable
        if score < best_score:
            best, best_score = action, score
    return best


def _defend(game: Game, legal: Sequence[Action], ctx: PlayoutContext) -> Action:
    """Beat everything with the cheapest cards unless a take (or a cheap transfer) costs less."""
    hand: int = game._hands[game._to_act]  # type: ignore[index]
    fullness = _fullness(game, ctx)
    trump = ctx.trump
    beaters = ctx.beaters
    non_trump = ~ctx.trump_mask
    unbeaten = []
    take_cost = TAKE_TEMPO + TAKE_ENDGAME * (1.0 - fullness)
    for a, c in zip(game._att, game._cov):
        take_cost += PICKUP_TRUMP if a >> 4 == trump else PICKUP_LOW - 0.4 * ctx.frac[a]
        if c < 0:
            unbeaten.append(a)
        else:
            take_cost += PICKUP_TRUMP if c >> 4 == trump else PICKUP_LOW - 0.4 * ctx.frac[c]
    # Hardest attack first (trumps, then high ranks): it has the fewest beaters, so it chooses first.
    unbeaten.sort(key=lambda a: (a >> 4 == trump, a & 15), reverse=True)
    free = hand
    first: Action | None = None
    defend_cost = 0.0
    for a in unbeaten:
        options = free & beaters[a]
        if not options:
            defend_cost = math.inf
            break
        same = options & non_trump
        pick = same if same else options
        low = pick & -pick
        cover = low.bit_length() - 1
        free ^= low
        defend_cost += _value(cover, ctx, fullness)
        if first is None:
            first = defend_action((a << 6) + cover)
    if ctx.transfer:
        best_transfer: Action | None = None
        best_value = math.inf
        for action in legal:
            if action._k == KIND_TRANSFER:
                value = _value(action._a, ctx, fullness)
                if value < best_value:
                    best_transfer, best_value = action, value
        if best_transfer is not None and (
            (best_transfer._a >> 4 != trump and best_value <= TRANSFER_CHEAP)
            or best_value <= min(defend_cost, take_cost)
        ):
            return best_transfer
    if first is None or defend_cost > take_cost:
        return TAKE
    return first


def playout(game: Game, ctx: PlayoutContext, deadline: float | None) -> None:
    """Play ``game`` to its end with the policy; raise ``_DeadlineError`` past ``deadline`` (checked every 8 steps)."""
    legal_actions = game.legal_actions
    push = game.push
    clock = time.perf_counter
    steps = 0
    while game._outcome is None:
        push(policy(game, legal_actions(), ctx))
        steps += 1
        if deadline is not None and not steps & 7 and clock() > deadline:
            raise _DeadlineError


def _score(game: Game, team: frozenset[int]) -> float:
    """1 when ``team`` (our seat and its partners) is safe, 0.5 for a draw, 0 when it lost.

    In a team game the durak is a seat of the losing team, so a partner's loss is ours too.
    """
    outcome = game._outcome
    assert outcome is not None
    if outcome.durak is None:
        return 0.5
    return 0.0 if outcome.durak in team else 1.0


def candidates(legal: Sequence[Action], ctx: PlayoutContext) -> list[Action]:
    """The actions worth searching: every attack, take, pass and transfer, but per attack card only the
    ``MAX_DEFENCES_PER_TARGET`` cheapest same-suit and trump beaters."""
    out: list[Action] = []
    kept: dict[tuple[int, bool], int] = {}
    defences = sorted((a for a in legal if a._k == KIND_DEFEND), key=lambda a: a._a & 15)
    for action in legal:
        if action._k != KIND_DEFEND:
            out.append(action)
    for action in defences:
        key = (action._b, action._a >> 4 == ctx.trump)
        count = kept.get(key, 0)
        if count < MAX_DEFENCES_PER_TARGET:
            kept[key] = count + 1
            out.append(action)
    return out


def _perfect_information(obs: Observation) -> bool:
    """Whether every hidden card's place is known: at most one hand holds cards we have not seen and
    the stock holds nothing but the visible turn-up."""
    if obs.stock_size > 1:
        return False
    unknown_hands = sum(
        1 for seat in range(obs.rules.players)
        if seat != obs.seat and obs.hand_sizes[seat] > len(obs.known_cards[seat])
    )
    return unknown_hands <= 1


class StrongBot(Bot):
    """PIMC over sampled deals with gentle-style playouts; alpha-beta once nothing is hidden."""

    name = "strong"
    version = "1"

    def __init__(self, seed: int | None = None, budget_ms: float = 200.0, samples: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._budget_s = budget_ms / 1000.0
        self._samples = samples
        self._fallback = GentleBot(seed)
        self.last_stats: dict[str, object] = {}
        """What the last decision did (mode, rounds, per-action means): for tests and tuning."""

    def choose_action(self, observation: Observation) -> Action:
        started = time.perf_counter()
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        for action in legal:
            if action._k == KIND_EXCHANGE:
                # The six for a higher trump: strictly better, and the turn-up is public anyway.
                return action
        budget = self._budget_s
        if observation.time_left is not None:
            budget = min(budget, TIME_LEFT_SHARE * observation.time_left)
        deadline = None if self._samples is not None else started + budget - SAFETY_S
        try:
            game = determinize(observation, self._rng)
        except ValueError:
            # No deal fits (e.g. an observation we cannot explain): play the heuristic rather than fail.
            return self._fallback.choose_action(observation)
        ctx = PlayoutContext(game)
        choices = candidates(legal, ctx)
        if len(choices) == 1:
            return choices[0]
        # The policy's own choice goes first: it wins ties and orders the alpha-beta search.
        preferred = policy(game, legal, ctx)
        choices.sort(key=lambda a: a is not preferred)
        if _perfect_information(observation):
            return self._solve(game, choices, ctx, frozenset((observation.seat, *observation.partners)), deadline)
        return self._pimc(observation, game, choices, ctx, deadline)

    # ------------------------------------------------------------------ hidden information: PIMC

    def _pimc(
        self, obs: Observation, first: Game, choices: list[Action], ctx: PlayoutContext, deadline: float | None
    ) -> Action:
        """Score each candidate on the same sampled deals; drop the clearly worse ones at checkpoints."""
        team = frozenset((obs.seat, *obs.partners))
        results: dict[Action, list[float]] = {a: [] for a in choices}
        active = list(choices)
        rounds = 0
        sample: Game | None = first
        limit = self._samples
        clock = time.perf_counter
        try:
            while limit is None or rounds < limit:
                if deadline is not None and clock() > deadline:
                    break
                game = sample if sample is not None else determinize(obs, self._rng)
                sample = None
                round_scores = []
                for action in active:
                    child = game.clone()
                    child.push(action)
                    playout(child, ctx, deadline)
                    round_scores.append(_score(child, team))
                # Only whole rounds are kept, so every surviving action has the same (paired) deals.
                for action, score in zip(active, round_scores):
                    results[action].append(score)
                rounds += 1
                if rounds in CHECKPOINTS and len(active) > 1:
                    active = _prune(active, results)
        except _DeadlineError:
            pass
        best = max(active, key=lambda a: _mean(results[a]))  # max keeps the first (preferred) on ties
        self.last_stats = {
            "mode": "pimc", "rounds": rounds,
            "means": {str(a): (_mean(results[a]), len(results[a])) for a in choices},
        }
        return best

    # ------------------------------------------------------------------ nothing hidden: alpha-beta

    def _solve(
        self, game: Game, actions: list[Action], ctx: PlayoutContext, team: frozenset[int], deadline: float | None
    ) -> Action:
        """Iterative deepening alpha-beta on the true position (``bots_sdk.analysis.solver``), playouts as leaf
        values.

        Depth counts decisions. It stops when a depth's result is exact (no leaf needed a playout;
        a win seen only by playouts is no proof, so it does not stop the deepening), at the deadline
        (keeping the last complete depth), or, with a fixed ``samples`` count, once as many playouts
        as PIMC would spend (``samples`` per candidate) are used up.
        """
        best = actions[0]
        best_value = -INFINITY
        depth = 0
        values: dict[str, int] = {}
        leaves = _Leaves(team, ctx, deadline, None if self._samples is None else self._samples * len(actions))
        for depth in range(1, MAX_DEPTH + 1):
            search = Search(team, moves=lambda g: ordered(g, ctx, candidates(g.legal_actions(), ctx)),
                            leaf=leaves, deadline=deadline)
            try:
                best, best_value, values = search.best(game, actions, depth)
            except SearchAborted:
                depth -= 1
                break
            if search.exact:
                break
        self.last_stats = {"mode": "solve", "depth": depth, "value": best_value, "values": values}
        return best


class _Leaves:
    """A depth-limited search's leaf value: a playout's score, within the deadline and the playout count."""

    def __init__(self, team: frozenset[int], ctx: PlayoutContext, deadline: float | None, left: int | None) -> None:
        self.team = team
        self.ctx = ctx
        self.deadline = deadline
        self.left = left
        """Playouts still allowed (``None``: no count, only the deadline)."""

    def __call__(self, game: Game) -> int:
        if self.left is not None:
            if self.left <= 0:
                raise _DeadlineError
            self.left -= 1
        leaf = game.clone()
        playout(leaf, self.ctx, self.deadline)
        return terminal_score(leaf, self.team)


def ordered(game: Game, ctx: PlayoutContext, actions: Sequence[Action] | None = None) -> list[Action]:
    """``actions`` (default: every legal one) with the playout policy's choice first: the move ordering of a
    search, where a good first guess makes alpha-beta cut most of the rest."""
    legal = game.legal_actions()
    preferred = policy(game, legal, ctx)
    rest = legal if actions is None else actions
    return [preferred, *(a for a in rest if a is not preferred)]


def _mean(scores: list[float]) -> float:
    return sum(scores) / len(scores) if scores else -1.0


def _prune(active: list[Action], results: dict[Action, list[float]]) -> list[Action]:
    """Drop actions whose paired deficit to the best is significant (a z test on per-deal differences)."""
    leader = max(active, key=lambda a: _mean(results[a]))
    lead = results[leader]
    kept = []
    for action in active:
        if action is leader:
            kept.append(action)
            continue
        diffs = [x - y for x, y in zip(lead, results[action])]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        se = math.sqrt(var / n) if var > 0 else 1.0 / n
        if mean >= DROP_MIN_GAP and mean > DROP_Z * se:
            continue
        kept.append(action)
    return kept
