"""The referee's messages as a served bot reads them: ``durak.v1`` with an observation's small parts left encoded.

Reading a decision's observation, most of a served bot's time went into the Python objects
protobuf makes for every card, table pair, legal action and history event (a message object
each, then its fields one by one), to be turned into engine values at once and dropped. Here
those fields of ``Observation`` are read as the bytes they are on the wire (a message field and a
bytes field are encoded alike), and bots_sdk/convert.py looks each encoding up: a deck has few
cards, and a game few distinct actions and events, so after the first decisions reading an
observation is a dictionary lookup per entry.

The view is ``durak.v1``'s own descriptor, rewritten by proto/generate.py (``view_file``) with the
stubs: the same messages under the package ``durak.v1.view``, the cards, table pairs, actions,
events and card lists of ``Observation`` as ``bytes``. Made there, not here, because importing
protobuf's ``descriptor_pb2`` to make it cost a served bot 9 to 12 ms of its start; CI regenerates
it and fails on a difference, and tests/sdk/test_wire_view.py holds it to the contract field by
field. Messages parse from the same bytes as ``durak.v1``'s; nothing is ever written in the view.
"""

from __future__ import annotations

from typing import Any, Final

from google.protobuf import descriptor_pool, message_factory

from bots_sdk._proto.durak.v1 import bot_view

VIEW_PACKAGE: Final = "durak.v1.view"

pool: Final = descriptor_pool.DescriptorPool()
pool.AddSerializedFile(bot_view.SERIALIZED)


def _view_of(name: str) -> Any:
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{VIEW_PACKAGE}.{name}"))


RefereeMessage: Final = _view_of("RefereeMessage")
ActRequest: Final = _view_of("ActRequest")
EndGameRequest: Final = _view_of("EndGameRequest")
Observation: Final = _view_of("Observation")
