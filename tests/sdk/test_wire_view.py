"""A served bot reads the referee's messages through the view of bots_sdk/wire_view.py: it must read exactly what
``durak.v1`` says, whatever encoder wrote it, name what is malformed, and keep its lookup tables bounded."""

from __future__ import annotations

import pytest
from google.protobuf import descriptor_pb2

from bots_sdk import convert
from bots_sdk import wire_view as view
from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk.convert import ObservationEncoder, ProtocolError, encoded_field, observation_from_pb, observation_to_pb
from bots_sdk.engine import Game, Rules

from .helpers import CONFIGS, observation_differences, random_positions

ACT = pb.RefereeMessage.DESCRIPTOR.fields_by_name["act"].number
ACT_OBSERVATION = pb.ActRequest.DESCRIPTOR.fields_by_name["observation"].number

BYTES = descriptor_pb2.FieldDescriptorProto.TYPE_BYTES


def entry(number: int, body: bytes) -> bytes:
    """A length-delimited field ``number`` holding ``body``, as protobuf encodes it (the tag a varint)."""
    tag, out = number << 3 | 2, bytearray()
    while tag > 0x7F:
        out.append(tag & 0x7F | 0x80)
        tag >>= 7
    return bytes(out) + bytes([tag, len(body)]) + body


def test_the_view_has_every_field_of_the_contract_by_number_and_name() -> None:
    """Regenerated with the stubs (proto/generate.py), it holds every message of ``durak.v1`` field for field; only
    ``Observation``'s cards, table pairs, legal actions, card lists and events read as bytes."""
    as_bytes = set()
    for name, message in pb.DESCRIPTOR.message_types_by_name.items():
        twin = view.pool.FindMessageTypeByName(f"{view.VIEW_PACKAGE}.{name}")
        assert [(f.number, f.name, f.is_repeated) for f in message.fields] == [
            (f.number, f.name, f.is_repeated) for f in twin.fields]
        for field, read in zip(message.fields, twin.fields, strict=True):
            if read.type != field.type:
                assert (read.type, field.message_type is not None) == (BYTES, True), f"{name}.{field.name}"
                as_bytes.add(f"{name}.{field.name}")
    assert as_bytes == {f"Observation.{name}" for name in (
        "hand", "trump_card", "table", "discard", "legal_actions", "known_cards", "history")}


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{p}-{n}" for p, n in CONFIGS])
def test_an_observation_read_through_the_view_is_the_engines(config: tuple[str, int]) -> None:
    """Every observation of random positions in every preset, as the referee encodes it, read as a served bot
    reads it (a ``RefereeMessage`` parsed by the view), is the engine's observation."""
    preset, players = config
    encoders = [ObservationEncoder() for _ in range(players)]  # each seat's, as a game's referee keeps them
    for game in random_positions(Rules.preset(preset, players=players), seed=5):
        if game.is_over():  # an observation on the wire is a decision's, or the end's without its outcome
            break
        for seat in range(players):
            observation = game.observation(seat)
            sent = encoded_field(ACT, encoded_field(ACT_OBSERVATION, encoders[seat].encode(observation)))
            read = view.RefereeMessage.FromString(sent).act.observation
            assert observation_differences(observation_from_pb(read), observation) == []


def test_another_encoders_cards_are_read_too() -> None:
    """Encodings the lookup tables have not seen (a card's fields in the other order, as any encoder may write
    them) are parsed as messages: the same observation."""
    game = Game.new(Rules.preset("classic", players=2), seed=3)
    observation = game.observation(game.to_act or 0)
    message = observation_to_pb(observation)
    encoded = b"".join(entry(3, bytes([0x10, card.suit, 0x08, card.rank])) for card in message.hand)  # suit first
    message.ClearField("hand")
    read = view.Observation.FromString(message.SerializeToString() + encoded)
    assert observation_from_pb(read).hand == observation.hand


def test_malformed_encoded_parts_are_protocol_errors_naming_the_field() -> None:
    game = Game.new(Rules.preset("classic", players=2), seed=3)
    good = observation_to_pb(game.observation(game.to_act or 0)).SerializeToString()
    for field, number in (("hand", 3), ("table", 11), ("legal_actions", 22), ("known_cards", 23)):
        broken = view.Observation.FromString(good + entry(number, bytes([0x08, 0x80])))  # a cut-off varint
        with pytest.raises(ProtocolError, match=rf"observation\.{field}"):
            observation_from_pb(broken)
    broken = view.Observation.FromString(good + entry(24, bytes([0x08, 0x80])))
    with pytest.raises(ProtocolError, match=r"observation\.history\[\d+\]: not a Event message"):
        convert.events_from_pb(broken.history)


def test_a_referee_of_endless_new_encodings_fills_no_memory() -> None:
    """Every encoding not seen before is read, but the tables keep at most ``_ENTRIES_KEPT`` entries each."""
    game = Game.new(Rules.preset("classic", players=2), seed=3)
    message = observation_to_pb(game.observation(game.to_act or 0))
    legal = message.legal_actions[0]
    for n in range(convert._ENTRIES_KEPT + 500):
        legal.text = f"{legal.text.split('#')[0]}#{n}"  # the text is not read where kind is set: a new encoding
        observation_from_pb(view.Observation.FromString(message.SerializeToString()))
    assert len(convert._ACTION_OF_ENTRY) <= convert._ENTRIES_KEPT
