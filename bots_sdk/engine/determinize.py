"""Sampling the hidden cards of a position for search bots (determinization).

A search bot sees only its observation; to look ahead it samples a complete
game consistent with it (the other hands and the stock order), searches that,
and repeats. Every sample keeps what is public: hand sizes, the cards known to
be in each hand (picked up from the table, the drawn turn-up), the table, the
discard pile and the turned-up card at the bottom of the stock.

>>> import random
>>> from bots_sdk.engine import Game, Rules
>>> game = Game.new(Rules.preset("classic", players=3), seed=4)
>>> seat = game.to_act
>>> sample = determinize(game.observation(seat), random.Random(1))
>>> sample.hand(seat) == game.hand(seat), sample.legal_actions() == game.legal_actions()
(True, True)
"""

from __future__ import annotations

import random

from bots_sdk.engine.actions import ActionKind
from bots_sdk.engine.cards import BEATERS, RANK_MASK_OF_INDEX, cards_to_mask, deck_mask, mask_to_cards, suit_mask
from bots_sdk.engine.game import ATTACKING, DEFENDING, OVER, Game
from bots_sdk.engine.observation import Observation

MAX_ATTEMPTS = 1000
"""Samples tried before giving up on an observation no deal fits."""


def determinize(observation: Observation, rng: random.Random | None = None) -> Game:
    """A full game state consistent with ``observation``, hidden cards dealt at random.

    The returned game continues from the observed moment: its ``to_act`` and, for
    that seat, its ``legal_actions()`` equal the observation's, and it can be played
    to the end. A sample that would give the seat to act a single option (so the
    engine would move on by itself) contradicts the observation, which shows a real
    decision, and is drawn again.

    What forced moves earlier in the history reveal (a forced pass shows the seat
    held no card of the ranks then on the table) is not used: samples may give a
    seat a card it cannot have held then.
    """
    rng = rng or random.Random()
    obs = observation
    n = obs.rules.players
    me = obs.seat
    hands = [0] * n
    hands[me] = cards_to_mask(obs.hand)
    known = [cards_to_mask(cards) for cards in obs.known_cards]
    table_mask = 0
    for pair in obs.table:
        table_mask |= pair.attack.mask | (pair.cover.mask if pair.cover else 0)
    turn_up = obs.trump_card.mask if obs.stock_size else 0
    seen = hands[me] | table_mask | cards_to_mask(obs.discard) | turn_up
    for seat in range(n):
        if seat != me:
            hands[seat] = known[seat]
            seen |= known[seat]
    unseen = mask_to_cards(deck_mask(obs.rules.deck) & ~seen)
    missing = [0 if seat == me else obs.hand_sizes[seat] - hands[seat].bit_count() for seat in range(n)]
    if min(missing) < 0 or sum(missing) + obs.stock_size - (1 if obs.stock_size else 0) != len(unseen):
        raise ValueError("observation: hand and stock sizes do not fit the unseen cards")
    for _ in range(MAX_ATTEMPTS):
        rng.shuffle(unseen)
        sampled = hands[:]
        start = 0
        for seat in range(n):
            for card in unseen[start:start + missing[seat]]:
                sampled[seat] |= card.mask
            start += missing[seat]
        stock_cards = [c.index for c in unseen[start:]]
        if obs.stock_size:
            stock_cards.append(obs.trump_card.index)
        game = _game_at(obs, sampled, known, stock_cards)
        if game.to_act == obs.to_act and len(game._history) == len(obs.raw_history):
            return game
    raise ValueError(f"observation: no deal of the hidden cards fits it ({MAX_ATTEMPTS} samples tried)")


def _game_at(obs: Observation, hands: list[int], known: list[int], stock: list[int]) -> Game:
    """Rebuild the engine state of the observed moment around the sampled cards.

    The game is first set up from any deal (for its constant parts), then every
    field of the moment is taken from the observation.
    """
    rules = obs.rules
    game = object.__new__(Game)
    deal_order = [c.index for c in mask_to_cards(deck_mask(rules.deck))]
    game._setup(rules, deal_order, obs.dealer)
    game._hands = hands
    game._known = known
    game._set_stock(stock)
    game._sp = 0
    game._sleft = len(stock)
    trump = int(obs.trump)
    game._trump = trump
    game._trump_mask = suit_mask(trump)
    game._beaters = BEATERS[trump]
    game._six = (trump << 4) + 6
    game._turn_up = obs.trump_card.index
    game._trump_drawn_by = obs.trump_drawn_by
    game._discard = cards_to_mask(obs.discard)
    game._att = [p.attack.index for p in obs.table]
    game._cov = [p.cover.index if p.cover else -1 for p in obs.table]
    game._table = 0
    game._ranks = 0
    for pair in obs.table:
        for card in (pair.attack, pair.cover):
            if card is not None:
                game._table |= card.mask
                game._ranks |= RANK_MASK_OF_INDEX[card.index]
    game._nunb = sum(1 for p in obs.table if p.cover is None)
    game._bout = obs.bout
    if obs.bout > 1:
        game._limit = game._bout_limit  # the L1 limit of any bout after the first (``_setup`` fixed bout 1's)
    game._attacker = obs.attacker
    game._defender = obs.defender
    game._apos = obs.attacker_position
    game._dpos = obs.defender_position
    game._def_start = obs.attack_limit  # min(L1, L2), as observed: all that the engine needs of L2
    game._taken = obs.take_declared
    game._take_hand = obs.hand_sizes[obs.defender]
    game._out = list(obs.out)
    game._out_order = list(obs.out_order)
    game._streak = obs.pickups_in_a_row
    game._history = list(obs.raw_history)
    six_tabled = any(
        kind == 0 and action.kind in (ActionKind.ATTACK, ActionKind.DEFEND, ActionKind.TRANSFER)  # type: ignore[attr-defined]
        and action.card.index == game._six  # type: ignore[attr-defined]
        for kind, _, action, _ in obs.raw_history
    )
    game._exchange_ok = (
        rules.trump_exchange and rules.deck != 24 and game._turn_up != game._six and bool(stock) and not six_tabled
    )
    game._outcome = obs.outcome
    if obs.outcome is not None:
        game._finish()
        return game
    to_act = obs.to_act
    if to_act == obs.defender:
        game._phase = DEFENDING
    else:
        game._phase = ATTACKING
        order = game._order()
        game._poll = order.index(to_act) if to_act in order else len(order)
    game.push(None)
    assert game._phase != OVER or game._outcome is not None
    return game
