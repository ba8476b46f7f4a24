"""Conversions between engine objects and the ``durak.v1`` messages.

Reading a message is strict: an unknown enum value, a missing card or an
action that names no legal shape raises ``InvalidActionError`` (for actions)
or ``ProtocolError`` with the field, so the referee can classify the fault and
the author can see what to fix.

Every enum crosses the wire by name: each table below says which protobuf value
an engine value is, and is checked at import against the generated descriptor
(every value but ``*_UNSPECIFIED`` paired, the names alike), so reordering an
engine enum cannot change a number on the wire. ``tests/sdk/test_wire_numbers.py``
pins the numbers themselves.
"""

from __future__ import annotations

import enum
import functools
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, TypeVar

from google.protobuf.message import DecodeError

from bots_sdk import wire_view as view
from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk.engine import (
    Action,
    ActionKind,
    Card,
    DurakError,
    InvalidActionError,
    LegalActions,
    Observation,
    Outcome,
    Rank,
    Reason,
    Rules,
    Suit,
    TablePair,
)
from bots_sdk.engine.cards import CARDS
from bots_sdk.engine.history import ACTED, DREW, HistoryEntry


class ProtocolError(DurakError):
    """A message that breaks the contract (a field missing or out of range)."""


K = TypeVar("K")
V = TypeVar("V", bound=int)

_ENTRIES_KEPT: Final = 4096
"""The most encodings a table keeps, and the most entries a reading table keeps (a deck's cards, pairs and
actions, a game's events, and the values of an observation's fields are fewer, so neither side can fill the
other's memory with odd values)."""
M = TypeVar("M", pb.Card, pb.TablePair, pb.Action, pb.Event, pb.CardList)
T = TypeVar("T")


class _Kept(dict[K, T]):
    """Values by key (an encoding by what it encodes, or what an encoding reads as): ``make`` makes the value of a
    key not seen before, which is kept while the table has room. A lookup is the dictionary's own, with no call
    into Python for a key seen before, so a whole field's entries are looked up in C (``map``)."""

    def __init__(self, make: Callable[[K], T]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: K) -> T:
        value = self._make(key)
        if len(self) < _ENTRIES_KEPT:
            self[key] = value
        return value


def wire_name(enum_name: str, value: object) -> str:
    """The protobuf name of an engine value: ``wire_name("ActionKind", ActionKind.ATTACK)`` is
    ``ACTION_KIND_ATTACK``, ``wire_name("ThrowIn", "all")`` is ``THROW_IN_ALL``."""
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum_name).upper()
    return f"{prefix}_{value.name if isinstance(value, enum.Enum) else str(value).upper()}"


def _checked(enum_name: str, numbers: dict[K, V]) -> dict[K, V]:
    """``numbers`` (engine value -> protobuf number), after checking it against the generated descriptor."""
    wire = {value.name: value.number for value in pb.DESCRIPTOR.enum_types_by_name[enum_name].values if value.number}
    ours = {wire_name(enum_name, key): number for key, number in numbers.items()}
    if ours != wire:
        raise ImportError(f"bots_sdk.convert: the {enum_name} table {ours} disagrees with the generated stubs {wire}")
    return numbers


def _inverse(numbers: Mapping[K, V]) -> dict[int, K]:
    return {number: key for key, number in numbers.items()}


_KINDS: Final = _checked("ActionKind", {
    ActionKind.ATTACK: pb.ACTION_KIND_ATTACK, ActionKind.DEFEND: pb.ACTION_KIND_DEFEND,
    ActionKind.TAKE: pb.ACTION_KIND_TAKE, ActionKind.PASS: pb.ACTION_KIND_PASS,
    ActionKind.TRANSFER: pb.ACTION_KIND_TRANSFER, ActionKind.EXCHANGE: pb.ACTION_KIND_EXCHANGE,
})
_KIND_OF: Final = _inverse(_KINDS)
_KIND_NUMBER: Final = {int(kind): number for kind, number in _KINDS.items()}
"""By ``Action._k``: filling a message's ``kind`` without building the enum member."""
_REASONS: Final = _checked("Reason", {
    Reason.NORMAL: pb.REASON_NORMAL, Reason.TIMEOUT: pb.REASON_TIMEOUT, Reason.CRASH: pb.REASON_CRASH,
    Reason.ILLEGAL: pb.REASON_ILLEGAL, Reason.PROTOCOL: pb.REASON_PROTOCOL,
    Reason.PICKUP_LIMIT: pb.REASON_PICKUP_LIMIT, Reason.MAX_BOUTS: pb.REASON_MAX_BOUTS,
})
_REASON_OF: Final = _inverse(_REASONS)
_FIRST: Final = _checked("FirstAttacker", {
    "lowest_trump": pb.FIRST_ATTACKER_LOWEST_TRUMP, "dealer_left": pb.FIRST_ATTACKER_DEALER_LEFT,
})
_FIRST_OF: Final = _inverse(_FIRST)
_THROW: Final = _checked("ThrowIn", {"all": pb.THROW_IN_ALL, "neighbours": pb.THROW_IN_NEIGHBOURS})
_THROW_OF: Final = _inverse(_THROW)
_SUITS: Final = _checked("Suit", {
    Suit.SPADES: pb.SUIT_SPADES, Suit.HEARTS: pb.SUIT_HEARTS, Suit.DIAMONDS: pb.SUIT_DIAMONDS,
    Suit.CLUBS: pb.SUIT_CLUBS,
})
_SUIT_OF: Final = _inverse(_SUITS)
_RANKS: Final = _checked("Rank", {
    Rank.TWO: pb.RANK_TWO, Rank.THREE: pb.RANK_THREE, Rank.FOUR: pb.RANK_FOUR, Rank.FIVE: pb.RANK_FIVE,
    Rank.SIX: pb.RANK_SIX, Rank.SEVEN: pb.RANK_SEVEN, Rank.EIGHT: pb.RANK_EIGHT, Rank.NINE: pb.RANK_NINE,
    Rank.TEN: pb.RANK_TEN, Rank.JACK: pb.RANK_JACK, Rank.QUEEN: pb.RANK_QUEEN, Rank.KING: pb.RANK_KING,
    Rank.ACE: pb.RANK_ACE,
})
_RANK_OF: Final = _inverse(_RANKS)
_EVENT_KINDS: Final = _checked("EventKind", {"action": pb.EVENT_KIND_ACTION, "draw": pb.EVENT_KIND_DRAW})

WIRE_ENUMS: Final[dict[str, Mapping[Any, int]]] = {
    "ActionKind": _KINDS, "Reason": _REASONS, "FirstAttacker": _FIRST, "ThrowIn": _THROW, "Suit": _SUITS,
    "Rank": _RANKS, "EventKind": _EVENT_KINDS,
}
"""Every enum of ``durak.v1`` by its protobuf name: engine value -> number (the test pins them)."""


# ---------------------------------------------------------------- cards and actions


def card_to_pb(card: Card) -> pb.Card:
    rank, suit = _CARD_FIELDS[card.index]
    return pb.Card(rank=rank, suit=suit)


def card_from_pb(message: pb.Card, field: str = "card") -> Card:
    suit = _SUIT_OF.get(message.suit)
    rank = _RANK_OF.get(message.rank)
    card = CARDS[suit * 16 + rank] if suit is not None and rank is not None else None
    if card is None:
        raise ProtocolError(f"{field}: rank {message.rank} and suit {message.suit} name no card")
    return card


def cards_from_pb(messages: Iterable[pb.Card], field: str) -> tuple[Card, ...]:
    try:
        return tuple([_CARD_OF_FIELDS[m.rank, m.suit] for m in messages])
    except KeyError:  # read again, card by card, for the error that names the one that is wrong
        return tuple(card_from_pb(m, f"{field}[{i}]") for i, m in enumerate(messages))


_CARD_FIELDS: dict[int, tuple[Any, Any]] = {
    card.index: (_RANKS[card.rank], _SUITS[card.suit]) for card in CARDS if card is not None
}
"""Per card index, the message's (rank, suit) numbers."""
_CARD_OF_FIELDS: dict[tuple[int, int], Card] = {
    fields: card for card in CARDS if card is not None for fields in [_CARD_FIELDS[card.index]]
}
"""The inverse: the card of each (rank, suit) pair of numbers that names one."""


def _fill_action(message: pb.Action, action: Action) -> None:
    message.kind = _KIND_NUMBER[action._k]
    message.text = action._text
    if action.card is not None:
        message.card.rank, message.card.suit = _CARD_FIELDS[action._a]
    if action.target is not None:
        message.target.rank, message.target.suit = _CARD_FIELDS[action._b]


def action_to_pb(action: Action) -> pb.Action:
    message = pb.Action()
    _fill_action(message, action)
    return message


def action_from_pb(message: pb.Action) -> Action:
    """The engine action a message names: its structured fields, or its ``text`` if ``kind`` is unset."""
    kind_number = message.kind
    if kind_number == pb.ACTION_KIND_UNSPECIFIED:
        if not message.text:
            raise InvalidActionError("action: neither kind nor text is set (an empty answer)")
        return Action.parse(message.text)
    kind = _KIND_OF.get(kind_number)
    if kind is None:
        raise InvalidActionError(f"action.kind: {kind_number} is not an ActionKind value")
    try:
        if kind is ActionKind.DEFEND:
            if not message.HasField("card") or not message.HasField("target"):
                raise InvalidActionError("action: a defence needs both card and target")
            target = card_from_pb(message.target, "action.target")
            return Action.defend(target, card_from_pb(message.card, "action.card"))
        if kind in (ActionKind.ATTACK, ActionKind.TRANSFER):
            if not message.HasField("card"):
                raise InvalidActionError(f"action: {kind.name.lower()} needs a card")
            card = card_from_pb(message.card, "action.card")
            return Action.attack(card) if kind is ActionKind.ATTACK else Action.transfer(card)
    except ProtocolError as error:
        raise InvalidActionError(str(error)) from None
    return Action.parse(kind.name.lower())


# ---------------------------------------------------------------- rules and outcomes


def rules_to_pb(rules: Rules) -> pb.Rules:
    message = pb.Rules(
        preset=rules.preset_name, players=rules.players, deck=rules.deck, hand_size=rules.hand_size,
        first_attacker=_FIRST[rules.first_attacker], throw_in=_THROW[rules.throw_in],
        multi_card_attacks=rules.multi_card_attacks, transfer=rules.transfer, early_out=rules.early_out,
        trump_exchange=rules.trump_exchange, max_bouts=rules.max_bouts,
    )
    for name in ("bout_limit", "first_bout_limit", "pickup_draw_limit"):
        value = getattr(rules, name)
        if value is not None:
            setattr(message, name, value)
    for team in rules.teams or ():
        message.teams.add(seats=team)
    return message


def rules_from_pb(message: pb.Rules) -> Rules:
    if message.first_attacker not in _FIRST_OF or message.throw_in not in _THROW_OF:
        raise ProtocolError("rules: first_attacker or throw_in is unset or unknown")
    return Rules.from_dict({
        "preset": message.preset, "players": message.players, "deck": message.deck,
        "hand_size": message.hand_size, "first_attacker": _FIRST_OF[message.first_attacker],
        "throw_in": _THROW_OF[message.throw_in],
        "bout_limit": message.bout_limit if message.HasField("bout_limit") else None,
        "first_bout_limit": message.first_bout_limit if message.HasField("first_bout_limit") else None,
        "multi_card_attacks": message.multi_card_attacks, "transfer": message.transfer,
        "early_out": message.early_out, "trump_exchange": message.trump_exchange,
        "teams": [list(team.seats) for team in message.teams] or None,
        "pickup_draw_limit": message.pickup_draw_limit if message.HasField("pickup_draw_limit") else None,
        "max_bouts": message.max_bouts,
    })


def outcome_to_pb(outcome: Outcome) -> pb.Outcome:
    message = pb.Outcome(
        draw=outcome.draw, reason=_REASONS[outcome.reason],
        out_order=outcome.out_order, detail=outcome.detail,
    )
    if outcome.durak is not None:
        message.durak = outcome.durak
    if outcome.offender is not None:
        message.offender = outcome.offender
    if outcome.losers is not None:
        message.losers.SetInParent()  # set even when empty: a team game's draw
        message.losers.seats.extend(outcome.losers)
    return message


def outcome_from_pb(message: pb.Outcome) -> Outcome:
    reason = _REASON_OF.get(message.reason)
    if reason is None:
        raise ProtocolError(f"outcome.reason: {message.reason} is not a Reason value")
    return Outcome(
        message.durak if message.HasField("durak") else None, reason, tuple(message.out_order),
        message.offender if message.HasField("offender") else None, message.detail,
        tuple(message.losers.seats) if message.HasField("losers") else None,
    )


# ---------------------------------------------------------------- observations

def events_to_pb(history: Sequence[HistoryEntry]) -> list[pb.Event]:
    """History entries (the engine's raw form) as messages."""
    events = []
    for tag, seat, value, flag in history:
        if tag == ACTED:
            events.append(pb.Event(
                kind=_EVENT_KINDS["action"], seat=seat,
                action=action_to_pb(value),  # type: ignore[arg-type]
                forced=bool(flag),
            ))
        else:
            events.append(pb.Event(
                kind=_EVENT_KINDS["draw"], seat=seat, count=value, turn_up=bool(flag),  # type: ignore[arg-type]
            ))
    return events


def events_from_pb(events: Iterable[pb.Event | bytes]) -> list[HistoryEntry]:
    """The history entries of ``events``: messages, or their encodings as the view of bots_sdk/wire_view.py
    reads them. Each event read before is looked up by its encoding: a game's events are few kinds of action
    by few seats, read again and again."""
    encoded = [event if isinstance(event, bytes) else event.SerializeToString() for event in events]
    try:
        return list(map(_EVENT_OF_ENTRY.__getitem__, encoded))
    except ProtocolError:  # read again, one by one, for the error that names the one that is wrong
        return [_event_of(entry, i) for i, entry in enumerate(encoded)]


def _event_of(encoded: bytes, i: int | None = None) -> HistoryEntry:
    field = "observation.history" if i is None else f"observation.history[{i}]"
    event = _parsed(pb.Event, encoded, field)
    if event.kind == _EVENT_KINDS["action"]:
        try:
            return (ACTED, event.seat, action_from_pb(event.action), event.forced)
        except InvalidActionError as error:
            raise ProtocolError(f"{field}: {error}") from None
    if event.kind == _EVENT_KINDS["draw"]:
        return (DREW, event.seat, event.count, event.turn_up)
    raise ProtocolError(f"{field}.kind: {event.kind} is not an EventKind value")


_EVENT_OF_ENTRY: Final = _Kept(_event_of)
"""History entries read before, by their encoding."""


# A referee encodes an observation for every decision. Setting a protobuf message's fields from Python is a
# call into the runtime per field, dozens per observation, and serializing it then encodes the whole history
# again. So an observation's encoding is put together from the encodings of its parts, each made once by
# protobuf itself and kept: a field with its value (``seat`` 1, ``stock_size`` 24, a hand's sizes), a card,
# a table pair, a legal action, a history event. Protobuf's encoding of a message is the concatenation of its
# fields' (a repeated field's entries appended in order), and a parser reads fields in any order, so the
# concatenation is the observation's encoding, in another field order than protobuf's own. Each seat's
# history grows with the game, and its encoding with it: an ``ObservationEncoder`` keeps it, and encodes the
# events added since its last observation only. An observation costs about a third of what setting a message's
# fields and serializing it did (docs/protocol.md section 10).

def _observation_with(name: str, value: Any) -> bytes:
    """The encoding of an ``Observation`` with field ``name`` set to ``value`` alone (a repeated field's values as a
    tuple)."""
    fields: dict[str, Any] = {name: list(value) if isinstance(value, tuple) else value}
    return pb.Observation(**fields).SerializeToString()


_FIELD_VALUES: Final = (
    "stock_size", "hand_sizes", "out", "out_order", "attacker", "defender", "eligible_attackers", "take_declared",
    "bout", "attack_limit", "pickups_in_a_row", "attacker_position", "defender_position",
)
"""The fields that change during a game and are read as they are: each has its table of encodings by value."""
_values_of: Final = operator.attrgetter(*_FIELD_VALUES)
_FIELD_ENCODINGS: Final = tuple(_Kept(functools.partial(_observation_with, name)) for name in _FIELD_VALUES)


def _to_act_entry(seat: int | None) -> bytes:
    return _observation_with("to_act", -1 if seat is None else seat)


def _trump_drawn_by_entry(seat: int | None) -> bytes:
    return b"" if seat is None else _observation_with("trump_drawn_by", seat)


def _known_cards_entry(hands: tuple[tuple[Card, ...], ...]) -> bytes:
    return pb.Observation(known_cards=[
        pb.CardList(cards=[card_to_pb(card) for card in hand]) for hand in hands]).SerializeToString()


_TO_ACT_ENCODINGS: Final = _Kept(_to_act_entry)
_TRUMP_DRAWN_BY_ENCODINGS: Final = _Kept(_trump_drawn_by_entry)
_KNOWN_CARDS_ENCODINGS: Final = _Kept(_known_cards_entry)


class ObservationEncoder:
    """One seat's observations in one game, encoded as ``durak.v1.Observation`` (the comment above says how)."""

    def __init__(self) -> None:
        self._history = bytearray()
        self._events = 0
        """How many of the history's events ``_history`` holds."""
        self._game = b""
        """The fields that stay as they are for the whole game (its rules, the seat, the trump, the dealer, the
        partners), encoded at the first observation (the rules are never empty)."""

    def encode(self, observation: Observation) -> bytes:
        """The encoding of ``observation``, which comes after the last one encoded, in the same game, for the same
        seat: the history only grows, and what of it was encoded before is not encoded again."""
        obs = observation
        history = obs._history
        if len(history) < self._events:
            raise ValueError("an observation older than the last one encoded: a new game needs a new encoder")
        if not self._game:
            self._game = b"".join([
                pb.Observation(rules=rules_to_pb(obs.rules)).SerializeToString(), _observation_with("seat", obs.seat),
                _observation_with("trump", _SUITS[obs.trump]), _observation_with("dealer", obs.dealer),
                _observation_with("partners", obs.partners),
            ])
        self._history += b"".join(map(_EVENT_ENTRIES.__getitem__, history[self._events:]))
        self._events = len(history)
        return b"".join([
            self._game, *map(operator.getitem, _FIELD_ENCODINGS, _values_of(obs)), _TO_ACT_ENCODINGS[obs.to_act],
            _TRUMP_CARD_ENTRIES[obs.trump_card], _TRUMP_DRAWN_BY_ENCODINGS[obs.trump_drawn_by],
            _KNOWN_CARDS_ENCODINGS[obs.known_cards], *map(_HAND_ENTRIES.__getitem__, obs.hand),
            *map(_DISCARD_ENTRIES.__getitem__, obs.discard), *map(_TABLE_ENTRIES.__getitem__, obs.table),
            *map(_ACTION_ENTRIES.__getitem__, obs.legal_actions), self._history,
        ])


def encoded_field(number: int, payload: bytes | bytearray) -> bytes:
    """A message field ``number`` holding the encoded message ``payload``, as protobuf encodes it: the field's key
    and the payload's length (varints), then the payload: a message's encoding put around an encoded part."""
    head = bytearray()
    for value in (number << 3 | 2, len(payload)):  # wire type 2: length-delimited
        while value > 0x7F:
            head.append(value & 0x7F | 0x80)
            value >>= 7
        head.append(value)
    return bytes(head) + payload  # one copy of the payload


def observation_to_pb(observation: Observation) -> pb.Observation:
    """The message of an observation (a referee sends ``ObservationEncoder``'s encoding instead)."""
    return pb.Observation.FromString(ObservationEncoder().encode(observation))


_CARD_MESSAGES: Final = {index: pb.Card(rank=rank, suit=suit) for index, (rank, suit) in _CARD_FIELDS.items()}
_HAND_ENTRIES: Final = {
    CARDS[index]: pb.Observation(hand=[card]).SerializeToString() for index, card in _CARD_MESSAGES.items()
}
_DISCARD_ENTRIES: Final = {
    CARDS[index]: pb.Observation(discard=[card]).SerializeToString() for index, card in _CARD_MESSAGES.items()
}
_TRUMP_CARD_ENTRIES: Final = {
    CARDS[index]: pb.Observation(trump_card=card).SerializeToString() for index, card in _CARD_MESSAGES.items()
}


def _table_entry(pair: TablePair) -> bytes:
    cover = card_to_pb(pair.cover) if pair.cover is not None else None
    return pb.Observation(table=[pb.TablePair(attack=card_to_pb(pair.attack), cover=cover)]).SerializeToString()


def _action_entry(action: Action) -> bytes:
    return pb.Observation(legal_actions=[action_to_pb(action)]).SerializeToString()


def _event_entry(entry: HistoryEntry) -> bytes:
    return pb.Observation(history=events_to_pb([entry])).SerializeToString()


_TABLE_ENTRIES: Final = _Kept(_table_entry)
_ACTION_ENTRIES: Final = _Kept(_action_entry)
_EVENT_ENTRIES: Final = _Kept(_event_entry)


# Reading an observation is a served bot's work at every decision. Its cards, table pairs, legal actions
# and history events come as their encodings (the view of bots_sdk/wire_view.py), each looked up in a
# table of those read before: one dictionary lookup per entry, where reading a message's fields made a
# Python object per entry and then read it field by field (bots_sdk/wire_view.py). An entry not seen
# before is parsed and converted as a message, with the same errors. Each table keeps at most
# ``_ENTRIES_KEPT`` entries, so a referee of odd encodings cannot fill the bot's memory.

def _parsed(kind: type[M], encoded: bytes, field: str) -> M:
    try:
        return kind.FromString(encoded)
    except DecodeError:
        raise ProtocolError(f"{field}: not a {kind.__name__} message") from None


def _card_of(encoded: bytes, field: str = "card") -> Card:
    return card_from_pb(_parsed(pb.Card, encoded, field), field)


_CARD_OF_ENTRY: Final = _Kept(_card_of)
_CARD_OF_ENTRY.update({message.SerializeToString(): CARDS[index] for index, message in _CARD_MESSAGES.items()})


def _card(encoded: bytes, field: str) -> Card:
    try:
        return _CARD_OF_ENTRY[encoded]
    except ProtocolError:  # read again, for the error that names the field
        return _card_of(encoded, field)


def _cards(entries: Iterable[bytes], field: str) -> tuple[Card, ...]:
    try:
        return tuple(map(_CARD_OF_ENTRY.__getitem__, entries))
    except ProtocolError:  # read again, card by card, for the error that names the one that is wrong
        return tuple([_card_of(entry, f"{field}[{i}]") for i, entry in enumerate(entries)])


def _pair_of(encoded: bytes) -> TablePair:
    pair = _parsed(pb.TablePair, encoded, "observation.table")
    return TablePair(card_from_pb(pair.attack, "observation.table"),
                     card_from_pb(pair.cover, "observation.table") if pair.HasField("cover") else None)


def _card_list_of(encoded: bytes) -> tuple[Card, ...]:
    return cards_from_pb(_parsed(pb.CardList, encoded, "observation.known_cards").cards, "observation.known_cards")


def _action_of(encoded: bytes) -> Action:
    try:
        return action_from_pb(_parsed(pb.Action, encoded, "observation.legal_actions"))
    except InvalidActionError as error:
        raise ProtocolError(f"observation.legal_actions: {error}") from None


_PAIR_OF_ENTRY: Final = _Kept(_pair_of)
_CARDS_OF_ENTRY: Final = _Kept(_card_list_of)
_ACTION_OF_ENTRY: Final = _Kept(_action_of)


def observation_from_pb(
    message: Any,
    rules: Rules | None = None,
    history: Sequence[HistoryEntry] | None = None,
    time_left: float | None = None,
    bank_left: float | None = None,
) -> Observation:
    """The engine observation of a ``durak.v1.Observation``, or of one read through the view of
    bots_sdk/wire_view.py (as a served bot reads it: no copy then); ``rules`` and ``history`` may come from a
    cache."""
    if not isinstance(message, view.Observation):
        message = view.Observation.FromString(message.SerializeToString())
    try:
        rules = rules if rules is not None else rules_from_pb(message.rules)
    except DurakError as error:
        raise ProtocolError(f"observation.rules: {error}") from None
    trump = _SUIT_OF.get(message.trump)
    if trump is None:
        raise ProtocolError(f"observation.trump: {message.trump} is not a suit")
    return Observation(
        seat=message.seat, rules=rules, hand=_cards(message.hand, "observation.hand"),
        trump=trump, trump_card=_card(message.trump_card, "observation.trump_card"),
        trump_drawn_by=message.trump_drawn_by if message.HasField("trump_drawn_by") else None,
        stock_size=message.stock_size, hand_sizes=tuple(message.hand_sizes), out=tuple(message.out),
        out_order=tuple(message.out_order),
        table=tuple(map(_PAIR_OF_ENTRY.__getitem__, message.table)),
        discard=_cards(message.discard, "observation.discard"),
        attacker=message.attacker, defender=message.defender,
        attacker_position=message.attacker_position, defender_position=message.defender_position,
        partners=tuple(message.partners),
        eligible_attackers=tuple(message.eligible_attackers), take_declared=message.take_declared,
        bout=message.bout, attack_limit=message.attack_limit, pickups_in_a_row=message.pickups_in_a_row,
        dealer=message.dealer, to_act=message.to_act if message.to_act >= 0 else None,
        legal_actions=LegalActions(list(map(_ACTION_OF_ENTRY.__getitem__, message.legal_actions))),
        known_cards=tuple(map(_CARDS_OF_ENTRY.__getitem__, message.known_cards)),
        outcome=None,
        _history=tuple(history if history is not None else events_from_pb(message.history)),
        time_left=time_left, bank_left=bank_left,
    )
