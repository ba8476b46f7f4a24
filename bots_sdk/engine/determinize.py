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

from bots_sdk.engine.cards import cards_to_mask, deck_mask, mask_to_cards
from bots_sdk.engine.errors import InvalidDealError
from bots_sdk.engine.game import Game
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
    table_mask = 0
    for pair in obs.table:
        table_mask |= pair.attack.mask | (pair.cover.mask if pair.cover else 0)
    turn_up = obs.trump_card.mask if obs.stock_size else 0
    seen = hands[me] | table_mask | cards_to_mask(obs.discard) | turn_up
    for seat in range(n):
        if seat != me:
            hands[seat] = cards_to_mask(obs.known_cards[seat])
            seen |= hands[seat]
    unseen = mask_to_cards(deck_mask(obs.rules.deck) & ~seen)
    missing = [0 if seat == me else obs.hand_sizes[seat] - hands[seat].bit_count() for seat in range(n)]
    if min(missing) < 0 or sum(missing) + obs.stock_size - (1 if obs.stock_size else 0) != len(unseen):
        raise ValueError("observation: hand and stock sizes do not fit the unseen cards")
    tail = [obs.trump_card] if obs.stock_size else []
    for _ in range(MAX_ATTEMPTS):
        rng.shuffle(unseen)
        sampled = hands[:]
        start = 0
        for seat in range(n):
            for card in unseen[start:start + missing[seat]]:
                sampled[seat] |= card.mask
            start += missing[seat]
        try:
            return Game.from_observation(obs, sampled, [*unseen[start:], *tail])
        except InvalidDealError:
            continue
    raise ValueError(f"observation: no deal of the hidden cards fits it ({MAX_ATTEMPTS} samples tried)")
