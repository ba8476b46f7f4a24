"""An ``Observation`` as a fixed-size vector, and every action as one integer (docs/rl.md, "The layout").

One layout for every preset and table size (2 to 6 players, 24 to 52 cards), so a policy trained at one
table can be tried at another, and a bot that plays a trained policy encodes its observation exactly as
the environment did in training. Needs numpy only: a bot imports this module without PettingZoo.

>>> from bots_sdk.engine import Game, Rules
>>> game = Game.new(Rules.preset("classic", players=2), seed=1)
>>> observation = game.observation(game.to_act)
>>> vector, mask = observation_vector(observation), action_mask(observation)
>>> vector.shape, mask.shape, int(mask.sum()) == len(observation.legal_actions)
((675,), (2811,), True)
>>> [(i, str(index_action(i))) for i in legal_indices(observation)][:2]
[(6, 'attack 8S'), (19, 'attack 8H')]
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from bots_sdk.engine import Action, ActionKind, Card, Observation, Rank, Suit

CARDS: Final = 52
"""Card ``suit * 13 + rank - 2``: spades 2..A are 0..12, then hearts, diamonds, clubs."""
ATTACK: Final = 0
TRANSFER: Final = ATTACK + CARDS
TAKE: Final = TRANSFER + CARDS
PASS: Final = TAKE + 1
EXCHANGE: Final = PASS + 1
DEFEND: Final = EXCHANGE + 1
"""``DEFEND + attack card * 52 + covering card``."""
ACTIONS: Final = DEFEND + CARDS * CARDS
SEATS: Final = 6
"""Per-seat features hold six slots, the observer's own first, then clockwise (relative seats)."""

# Offsets of the observation vector's parts (the table of docs/rl.md).
HAND, UNBEATEN, BEATEN, COVERS, DISCARD, KNOWN = (CARDS * i for i in range(6))
"""Card planes: own hand, unbeaten attack cards, beaten attack cards, covering cards, the discard pile, then
five planes of the cards publicly known in the hands of the seats 1 to 5 places clockwise."""
TURN_UP: Final = KNOWN + CARDS * (SEATS - 1)
UNSEEN: Final = TURN_UP + CARDS
"""Cards of this deck whose place this seat does not know: another hand or the stock."""
TRUMP: Final = UNSEEN + CARDS
STOCK: Final = TRUMP + 4
HAND_SIZES: Final = STOCK + 1
OUT: Final = HAND_SIZES + SEATS
ROLE: Final = OUT + SEATS
ROLES: Final = ("attacker", "defender", "thrower", "idle", "out")
ATTACKER: Final = ROLE + len(ROLES)
DEFENDER: Final = ATTACKER + SEATS
TAKE_DECLARED: Final = DEFENDER + SEATS
TURN_UP_DRAWN: Final = TAKE_DECLARED + 1
ROOM: Final = TURN_UP_DRAWN + 1
PLAYERS: Final = ROOM + 1
DECK: Final = PLAYERS + 5
DECKS: Final = (24, 36, 52)
PARTNERS: Final = DECK + len(DECKS)
SIZE: Final = PARTNERS + SEATS


def card_id(card: Card) -> int:
    return int(card.suit) * 13 + int(card.rank) - 2


_BY_ID: Final = tuple(Card(rank, suit) for suit in Suit for rank in Rank)


def id_card(index: int) -> Card:
    return _BY_ID[index]


def action_index(action: Action) -> int:
    """The action's integer in ``[0, ACTIONS)``."""
    if action.kind is ActionKind.ATTACK:
        return ATTACK + card_id(action.card)  # type: ignore[arg-type]
    if action.kind is ActionKind.TRANSFER:
        return TRANSFER + card_id(action.card)  # type: ignore[arg-type]
    if action.kind is ActionKind.DEFEND:
        return DEFEND + card_id(action.target) * CARDS + card_id(action.card)  # type: ignore[arg-type]
    return {ActionKind.TAKE: TAKE, ActionKind.PASS: PASS, ActionKind.EXCHANGE: EXCHANGE}[action.kind]


def index_action(index: int) -> Action:
    """The action of an integer; ``ValueError`` for one that is no action (a card beating itself, out of range)."""
    index = int(index)
    if not 0 <= index < ACTIONS:
        raise ValueError(f"action {index}: not in [0, {ACTIONS})")
    if index < TRANSFER:
        return Action.attack(id_card(index - ATTACK))
    if index < TAKE:
        return Action.transfer(id_card(index - TRANSFER))
    if index < DEFEND:
        return (Action.parse("take"), Action.parse("pass"), Action.parse("exchange"))[index - TAKE]
    target, card = divmod(index - DEFEND, CARDS)
    if target == card:
        raise ValueError(f"action {index}: a card cannot beat itself")
    return Action.defend(id_card(target), id_card(card))


def legal_indices(observation: Observation) -> list[int]:
    """The integers of the legal actions, in the observation's order (empty when the seat is not to act)."""
    return [action_index(action) for action in observation.legal_actions]


def action_mask(observation: Observation) -> npt.NDArray[np.int8]:
    mask = np.zeros(ACTIONS, dtype=np.int8)
    mask[legal_indices(observation)] = 1
    return mask


def _deck_ids(deck: int) -> list[int]:
    low = 15 - deck // 4
    return [suit * 13 + rank - 2 for suit in range(4) for rank in range(low, 15)]


_DECK_IDS: Final = {deck: _deck_ids(deck) for deck in DECKS}


def observation_vector(observation: Observation) -> npt.NDArray[np.float32]:
    """The observation as ``SIZE`` floats in [0, 1]; docs/rl.md lists what each holds."""
    o = observation
    n = len(o.hand_sizes)
    vector = np.zeros(SIZE, dtype=np.float32)
    hand = [card_id(c) for c in o.hand]
    vector[[HAND + i for i in hand]] = 1
    placed = set(hand)
    for pair in o.table:
        attack = card_id(pair.attack)
        placed.add(attack)
        if pair.cover is None:
            vector[UNBEATEN + attack] = 1
        else:
            cover = card_id(pair.cover)
            placed.add(cover)
            vector[BEATEN + attack] = vector[COVERS + cover] = 1
    discard = [card_id(c) for c in o.discard]
    vector[[DISCARD + i for i in discard]] = 1
    placed.update(discard)
    for seat in range(n):
        relative = (seat - o.seat) % n
        known = [card_id(c) for c in o.known_cards[seat]]
        if relative:
            vector[[KNOWN + (relative - 1) * CARDS + i for i in known]] = 1
            placed.update(known)
        vector[HAND_SIZES + relative] = o.hand_sizes[seat] / o.rules.deck
        vector[OUT + relative] = o.out[seat]
    turn_up = card_id(o.trump_card)
    vector[TURN_UP + turn_up] = 1
    if o.trump_drawn_by is None and o.stock_size:
        placed.add(turn_up)  # it lies face up under the stock
    vector[[UNSEEN + i for i in _DECK_IDS[o.rules.deck] if i not in placed]] = 1
    vector[TRUMP + int(o.trump)] = 1
    vector[STOCK] = o.stock_size / o.rules.deck
    vector[ROLE + ROLES.index(o.role)] = 1
    vector[ATTACKER + (o.attacker - o.seat) % n] = 1
    vector[DEFENDER + (o.defender - o.seat) % n] = 1
    vector[TAKE_DECLARED] = o.take_declared
    vector[TURN_UP_DRAWN] = o.trump_drawn_by is not None
    vector[ROOM] = min(max(o.attack_limit - len(o.table), 0) / o.rules.hand_size, 1.0)
    vector[PLAYERS + n - 2] = 1
    vector[DECK + DECKS.index(o.rules.deck)] = 1
    for partner in o.partners:
        vector[PARTNERS + (partner - o.seat) % n] = 1
    return vector
