"""``gentle``: a sensible one-ply heuristic, the reference opponent and the bot of the seed statistics.

It follows the strategy tips of seed 000: play the lowest sufficient card, keep trumps for the
endgame, take cheap attacks early instead of spending high trumps, and throw in ranks the defender
is unlikely to beat. Every decision scores the legal actions with a few card-value formulas; there
is no search, so a decision costs about 20 µs on top of building the observation.

>>> from bots_sdk.engine import Game, Rules
>>> game = Game.new(Rules.preset("classic", players=2), seed=1)
>>> GentleBot(seed=0).choose_action(game.observation(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from bots_sdk.bot import Bot
from bots_sdk.engine import Action, ActionKind, Card, Observation
from bots_sdk.engine.cards import BEATERS, DECK_RANKS, cards_to_mask, deck_mask

# Card values: how much it hurts to give a card away now. Non-trumps run from 0 (lowest rank) to
# NON_TRUMP_TOP (ace); trumps from TRUMP_BASE up by TRUMP_SPAN, always above every non-trump, so
# "the lowest sufficient card" is simply the card of least value.
NON_TRUMP_TOP = 0.8
TRUMP_BASE = 1.0
TRUMP_SPAN = 1.6
EARLY_TRUMP_PREMIUM = 0.6
"""Trumps are worth up to this fraction more while the stock is full: spent early, they are missed at the end."""

TAKE_TEMPO = 1.3
"""The price of a take: the defender loses the next attack and holds more cards."""
TAKE_ENDGAME = 3.0
"""Added to the price of a take as the stock runs out: late pick-ups are what makes a durak."""
PICKUP_LOW = 0.3
"""Burden of picking up a non-trump of the lowest rank (falls to -0.1 for an ace: high cards help)."""
PICKUP_TRUMP = -0.3
"""Picking up a trump is a gain."""

PAIR_BONUS = 0.15
"""A lead whose rank we hold twice or more sheds two weak cards in one bout."""
BEAT_WEIGHT = 0.5
"""How much a likely beat counts against a throw-in (the defender gets rid of a card)."""
TRANSFER_CHEAP = 0.4
"""A non-trump up to about the middle rank is always worth passing on rather than beating."""
ENDGAME_UNBEATABLE = 1.0
"""With an empty stock, a lead the defender cannot beat is worth this much."""


def _rank_fraction(card: Card, low: int) -> float:
    """0.0 for the deck's lowest rank, 1.0 for the ace: comparable across 24, 36 and 52 cards."""
    return (card.rank - low) / (14 - low)


class _View:
    """What one decision needs from the observation, computed once: card values and defender estimates."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.trump = obs.trump
        self.stock = obs.stock_size
        self.low = DECK_RANKS[obs.rules.deck][0]
        full_stock = max(1, obs.rules.deck - obs.rules.deal_size)
        self.fullness = min(1.0, self.stock / full_stock)
        """1.0 at the start, 0.0 once the stock is empty."""
        self.beaters = BEATERS[self.trump]
        self._pool: tuple[int, int] | None = None

    def value(self, card: Card) -> float:
        """How much keeping ``card`` is worth now; trumps more so while the stock is large."""
        frac = _rank_fraction(card, self.low)
        if card.suit == self.trump:
            return (TRUMP_BASE + TRUMP_SPAN * frac) * (1.0 + EARLY_TRUMP_PREMIUM * self.fullness)
        return NON_TRUMP_TOP * frac

    def pickup_burden(self, card: Card) -> float:
        """What it costs to end up holding ``card`` after a take: low cards are hard to shed later."""
        if card.suit == self.trump:
            return PICKUP_TRUMP
        return PICKUP_LOW - 0.4 * _rank_fraction(card, self.low)

    def unseen(self) -> tuple[int, int]:
        """The cards whose place we do not know (mask) and how many of them the defender holds."""
        if self._pool is None:
            obs = self.obs
            seen = cards_to_mask(obs.hand) | cards_to_mask(obs.discard)
            for pair in obs.table:
                seen |= pair.attack.mask | (pair.cover.mask if pair.cover is not None else 0)
            for known in obs.known_cards:
                seen |= cards_to_mask(known)
            if obs.stock_size and obs.trump_drawn_by is None:
                seen |= obs.trump_card.mask  # visible at the bottom of the stock, in nobody's hand
            hidden = obs.hand_sizes[obs.defender] - len(obs.known_cards[obs.defender])
            self._pool = (deck_mask(obs.rules.deck) & ~seen, max(0, hidden))
        return self._pool

    def beat_chance(self, card: Card) -> float:
        """Chance the defender holds a card that beats ``card``: 1 if a known card does, else hypergeometric.

        The defender's unknown cards are a uniform sample of the unseen cards; with two players and an
        empty stock the sample is all of them, so the estimate is exact.
        """
        beaters = self.beaters[card.index]
        if cards_to_mask(self.obs.known_cards[self.obs.defender]) & beaters:
            return 1.0
        pool, hidden = self.unseen()
        size = pool.bit_count()
        good = (pool & beaters).bit_count()
        if not good or not hidden or not size:
            return 0.0
        miss = 1.0
        for i in range(min(hidden, size)):
            miss *= max(0.0, (size - good - i) / (size - i))
        return 1.0 - miss

    def shed_limit(self) -> float:
        """The highest card value we give away as a throw-in: low cards early, any non-trump at the end."""
        return NON_TRUMP_TOP * (1.0 - 0.5 * self.fullness) + 1e-9


def cover_plan(unbeaten: Sequence[Card], hand: Iterable[Card], view: _View) -> list[tuple[Card, Card]] | None:
    """The cheapest way to beat every unbeaten card, as ``(attack, cover)`` pairs, or ``None``.

    Greedy: trump attacks first, then the highest attacks, each taking the cheapest card that beats
    it. The hardest card has the fewest beaters (they nest within a suit), so it chooses first.
    """
    free = sorted(hand, key=view.value)
    plan: list[tuple[Card, Card]] = []
    for attack in sorted(unbeaten, key=lambda c: (c.suit == view.trump, c.rank), reverse=True):
        beaters = view.beaters[attack.index]
        cover = next((c for c in free if c.mask & beaters), None)
        if cover is None:
            return None
        free.remove(cover)
        plan.append((attack, cover))
    return plan


class GentleBot(Bot):
    """Cheap cards first, trumps for the endgame; ties broken by the seeded generator."""

    name = "gentle"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose_action(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        by_kind: dict[ActionKind, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        if ActionKind.EXCHANGE in by_kind:
            # Offered only when the turn-up is above the six: a strictly better trump for free.
            return by_kind[ActionKind.EXCHANGE][0]
        view = _View(observation)
        if ActionKind.TAKE in by_kind:
            return self._defend(view, by_kind)
        attacks = by_kind.get(ActionKind.ATTACK, [])
        if not observation.table:
            return self._lead(view, attacks)
        return self._throw_in(view, attacks, by_kind.get(ActionKind.PASS, []))

    def _pick(self, scored: list[tuple[float, Action]]) -> Action:
        """The action of least score; exact ties go to the seeded generator."""
        best = min(score for score, _ in scored)
        return self._rng.choice([action for score, action in scored if score <= best + 1e-9])

    def _lead(self, view: _View, attacks: list[Action]) -> Action:
        """Lead the cheapest card, pairs first; with an empty stock, prefer cards the defender cannot beat."""
        hand = view.obs.hand
        scored = []
        for action in attacks:
            card = action.card
            assert card is not None
            score = view.value(card)
            if card.suit != view.trump:
                score -= PAIR_BONUS * (sum(1 for c in hand if c.rank == card.rank) - 1)
            if not view.stock:
                score -= ENDGAME_UNBEATABLE * (1.0 - view.beat_chance(card))
            scored.append((score, action))
        return self._pick(scored)

    def _throw_in(self, view: _View, attacks: list[Action], passes: list[Action]) -> Action:
        """Add a cheap card the defender probably cannot beat, or pass.

        Onto a take we only shed cards we are glad to lose (never a trump, unless it is our last card
        at the end); against a defence we add cheap cards, and at the end also trumps that likely win.
        """
        obs = view.obs
        limit = view.shed_limit()
        scored = []
        for action in attacks:
            card = action.card
            assert card is not None
            value = view.value(card)
            if obs.take_declared:
                if card.suit == view.trump and not (not view.stock and len(obs.hand) == 1):
                    continue
                if value > limit and view.stock:
                    continue
                scored.append((value, action))
                continue
            chance = view.beat_chance(card)
            if card.suit == view.trump:
                if view.stock or chance >= 0.3:
                    continue
            elif value > limit:
                continue
            scored.append((value + BEAT_WEIGHT * chance, action))
        if not scored:
            return passes[0] if passes else attacks[0]
        return self._pick(scored)

    def _defend(self, view: _View, by_kind: dict[ActionKind, list[Action]]) -> Action:
        """Beat everything with the cheapest cards, unless taking (or transferring) costs less."""
        obs = view.obs
        take = by_kind[ActionKind.TAKE][0]
        plan = cover_plan(obs.unbeaten, obs.hand, view)
        table_cards = [p.attack for p in obs.table] + [p.cover for p in obs.table if p.cover is not None]
        take_cost = TAKE_TEMPO + TAKE_ENDGAME * (1.0 - view.fullness)
        take_cost += sum(view.pickup_burden(c) for c in table_cards)
        defend_cost = float("inf") if plan is None else sum(view.value(cover) for _, cover in plan)
        transfers = by_kind.get(ActionKind.TRANSFER, [])
        if transfers:
            best = min(transfers, key=lambda a: view.value(a.card) if a.card is not None else 0.0)
            assert best.card is not None
            # Passing the attack on sheds a card and spends no beater: worth it with a low non-trump,
            # or whenever the card is worth less than the defence or the take would cost.
            value = view.value(best.card)
            if (best.card.suit != view.trump and value <= TRANSFER_CHEAP) or value <= min(defend_cost, take_cost):
                return best
        if plan is None or defend_cost > take_cost:
            return take
        attack, cover = plan[0]
        return Action.defend(attack, cover)
