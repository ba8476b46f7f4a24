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


def _add_cards(field: Any, cards: Iterable[Card]) -> None:
    for card in cards:
        rank, suit = _CARD_FIELDS[card.index]
        field.add(rank=rank, suit=suit)


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
    return [
        _looked_up(_EVENT_OF_ENTRY, event if isinstance(event, bytes) else event.SerializeToString(),
                   functools.partial(_event_of, i=i))
        for i, event in enumerate(events)
    ]


def _event_of(encoded: bytes, i: int) -> HistoryEntry:
    event = _parsed(pb.Event, encoded, f"observation.history[{i}]")
    if event.kind == _EVENT_KINDS["action"]:
        try:
            return (ACTED, event.seat, action_from_pb(event.action), event.forced)
        except InvalidActionError as error:
            raise ProtocolError(f"observation.history[{i}]: {error}") from None
    if event.kind == _EVENT_KINDS["draw"]:
        return (DREW, event.seat, event.count, event.turn_up)
    raise ProtocolError(f"observation.history[{i}].kind: {event.kind} is not an EventKind value")


_EVENT_OF_ENTRY: dict[bytes, HistoryEntry] = {}
"""History entries read before, by their encoding."""


# Setting a protobuf field from Python is a call into the runtime per field, and a decision's
# observation has dozens of entries in its repeated message fields (its cards, table, legal actions,
# new events): ``observation_to_pb`` appends those as their encoded entries instead (protobuf's
# encoding of a message with only that entry set), concatenated and parsed by one ``MergeFromString``,
# which appends each entry to its field. Each entry is encoded once per process: a deck has few cards,
# and there are few pairs, actions and events. A decision's conversion costs about half of what
# setting the fields did, or less (docs/protocol.md section 10).

_PER_DECISION_FIELDS = (
    "hand", "trump_card", "trump_drawn_by", "hand_sizes", "out", "out_order", "table", "discard",
    "eligible_attackers", "legal_actions", "known_cards", "partners",
)


def observation_to_pb(observation: Observation, into: pb.Observation | None = None) -> pb.Observation:
    """The message of an observation.

    With ``into``, the message of the same seat's previous decision in the same
    game, only the history events added since are converted and appended: the
    history only grows, and rebuilding it at every decision would make a game cost
    quadratic time.
    """
    obs = observation
    message = into if into is not None else pb.Observation()
    for name in _PER_DECISION_FIELDS:
        message.ClearField(name)  # type: ignore[arg-type]
    if not message.HasField("rules"):
        message.rules.CopyFrom(rules_to_pb(obs.rules))
    message.seat = obs.seat
    message.trump = _SUITS[obs.trump]
    message.trump_card.rank, message.trump_card.suit = _CARD_FIELDS[obs.trump_card.index]
    if obs.trump_drawn_by is not None:
        message.trump_drawn_by = obs.trump_drawn_by
    message.stock_size = obs.stock_size
    message.attacker = obs.attacker
    message.defender = obs.defender
    message.attacker_position = obs.attacker_position
    message.defender_position = obs.defender_position
    message.take_declared = obs.take_declared
    message.bout = obs.bout
    message.attack_limit = obs.attack_limit
    message.pickups_in_a_row = obs.pickups_in_a_row
    message.dealer = obs.dealer
    message.to_act = obs.to_act if obs.to_act is not None else -1
    message.hand_sizes.extend(obs.hand_sizes)
    message.out.extend(obs.out)
    message.out_order.extend(obs.out_order)
    message.eligible_attackers.extend(obs.eligible_attackers)
    message.partners.extend(obs.partners)
    for cards in obs.known_cards:
        _add_cards(message.known_cards.add().cards, cards)
    message.MergeFromString(b"".join([
        *[_HAND_ENTRIES[card.index] for card in obs.hand],
        *[_DISCARD_ENTRIES[card.index] for card in obs.discard],
        *[_encoded(_TABLE_ENTRIES, (pair.attack.index, pair.cover.index if pair.cover else -1), _table_entry)
          for pair in obs.table],
        *[_encoded(_ACTION_ENTRIES, action, _action_entry) for action in obs.legal_actions],
        *[_encoded(_EVENT_ENTRIES, entry, _event_entry) for entry in obs._history[len(message.history):]],
    ]))
    return message


_CARD_MESSAGES: Final = {index: pb.Card(rank=rank, suit=suit) for index, (rank, suit) in _CARD_FIELDS.items()}
_HAND_ENTRIES: Final = {
    index: pb.Observation(hand=[card]).SerializeToString() for index, card in _CARD_MESSAGES.items()
}
_DISCARD_ENTRIES: Final = {
    index: pb.Observation(discard=[card]).SerializeToString() for index, card in _CARD_MESSAGES.items()
}
_TABLE_ENTRIES: dict[tuple[int, int], bytes] = {}
_ACTION_ENTRIES: dict[Action, bytes] = {}
_EVENT_ENTRIES: dict[HistoryEntry, bytes] = {}


def _encoded(cache: dict[K, bytes], key: K, encode: Callable[[K], bytes]) -> bytes:
    entry = cache.get(key)
    if entry is None:
        entry = cache[key] = encode(key)
    return entry


def _table_entry(key: tuple[int, int]) -> bytes:
    attack, cover = key
    pair = pb.TablePair(attack=card_to_pb(CARDS[attack]))
    if cover >= 0:
        pair.cover.CopyFrom(card_to_pb(CARDS[cover]))
    return pb.Observation(table=[pair]).SerializeToString()


def _action_entry(action: Action) -> bytes:
    return pb.Observation(legal_actions=[action_to_pb(action)]).SerializeToString()


def _event_entry(entry: HistoryEntry) -> bytes:
    return pb.Observation(history=events_to_pb([entry])).SerializeToString()


# Reading an observation is a served bot's work at every decision. Its cards, table pairs, legal actions
# and history events come as their encodings (the view of bots_sdk/wire_view.py), each looked up in a
# table of those read before: one dictionary lookup per entry, where reading a message's fields made a
# Python object per entry and then read it field by field (bots_sdk/wire_view.py). An entry not seen
# before is parsed and converted as a message, with the same errors. Each table keeps at most
# ``_ENTRIES_KEPT`` entries, so a referee of odd encodings cannot fill the bot's memory.

_ENTRIES_KEPT: Final = 4096
"""The most entries a lookup table keeps (a deck's cards, pairs and actions, and a game's events, are fewer)."""
M = TypeVar("M", pb.Card, pb.TablePair, pb.Action, pb.Event, pb.CardList)
T = TypeVar("T")


def _looked_up(table: dict[bytes, T], encoded: bytes, read: Callable[[bytes], T]) -> T:
    """``table``'s entry for ``encoded``, else what ``read`` makes of it, kept while the table has room."""
    value = table.get(encoded)
    if value is None:
        value = read(encoded)
        if len(table) < _ENTRIES_KEPT:
            table[encoded] = value
    return value


def _parsed(kind: type[M], encoded: bytes, field: str) -> M:
    try:
        return kind.FromString(encoded)
    except DecodeError:
        raise ProtocolError(f"{field}: not a {kind.__name__} message") from None


_CARD_OF_ENTRY: dict[bytes, Card] = {
    message.SerializeToString(): CARDS[index] for index, message in _CARD_MESSAGES.items()
}
_PAIR_OF_ENTRY: dict[bytes, TablePair] = {}
_CARDS_OF_ENTRY: dict[bytes, tuple[Card, ...]] = {}
_ACTION_OF_ENTRY: dict[bytes, Action] = {}


def _card(encoded: bytes, field: str) -> Card:
    return _looked_up(_CARD_OF_ENTRY, encoded, lambda entry: card_from_pb(_parsed(pb.Card, entry, field), field))


def _cards(entries: Iterable[bytes], field: str) -> tuple[Card, ...]:
    try:
        return tuple([_CARD_OF_ENTRY[entry] for entry in entries])
    except KeyError:  # a card not seen before (or no card): each read, for the error that names the one that is wrong
        return tuple([_card(entry, f"{field}[{i}]") for i, entry in enumerate(entries)])


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
        table=tuple([_looked_up(_PAIR_OF_ENTRY, entry, _pair_of) for entry in message.table]),
        discard=_cards(message.discard, "observation.discard"),
        attacker=message.attacker, defender=message.defender,
        attacker_position=message.attacker_position, defender_position=message.defender_position,
        partners=tuple(message.partners),
        eligible_attackers=tuple(message.eligible_attackers), take_declared=message.take_declared,
        bout=message.bout, attack_limit=message.attack_limit, pickups_in_a_row=message.pickups_in_a_row,
        dealer=message.dealer, to_act=message.to_act if message.to_act >= 0 else None,
        legal_actions=LegalActions([_looked_up(_ACTION_OF_ENTRY, e, _action_of) for e in message.legal_actions]),
        known_cards=tuple([_looked_up(_CARDS_OF_ENTRY, entry, _card_list_of) for entry in message.known_cards]),
        outcome=None,
        _history=tuple(history if history is not None else events_from_pb(message.history)),
        time_left=time_left, bank_left=bank_left,
    )
