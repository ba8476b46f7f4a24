"""The referee's messages as a served bot reads them: ``durak.v1`` with an observation's small parts left encoded.

Reading a decision's observation, most of a served bot's time went into the Python objects
protobuf makes for every card, table pair, legal action and history event (a message object
each, then its fields one by one), to be turned into engine values at once and dropped. Here
those fields of ``Observation`` are read as the bytes they are on the wire (a message field and a
bytes field are encoded alike), and bots_sdk/convert.py looks each encoding up: a deck has few
cards, and a game few distinct actions and events, so after the first decisions reading an
observation is a dictionary lookup per entry.

The view is made when this module is imported, from the compiled ``durak.v1`` descriptor itself
(its field numbers and names cannot drift from the contract): the same messages under the package
``durak.v1.view``, the fields of ``ENCODED`` types in ``Observation`` turned into ``bytes``. Messages
parse from the same bytes as ``durak.v1``'s; nothing is ever written in the view.
"""

from __future__ import annotations

from typing import Any, Final

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from bots_sdk._proto.durak.v1 import bot_pb2 as pb

PACKAGE: Final = "durak.v1"
VIEW_PACKAGE: Final = "durak.v1.view"
ENCODED: Final = frozenset({"Card", "TablePair", "Action", "Event", "CardList"})
"""The message types whose values in ``Observation`` the view leaves encoded."""


def _view_file() -> descriptor_pb2.FileDescriptorProto:
    """``durak.v1``'s file descriptor as the view's: its messages and enums only (no service), renamed into the
    view's package, with ``Observation``'s fields of ``ENCODED`` types made ``bytes``."""
    file = descriptor_pb2.FileDescriptorProto()
    pb.DESCRIPTOR.CopyToProto(file)
    file.name = f"{VIEW_PACKAGE.replace('.', '/')}/bot_view.proto"
    file.package = VIEW_PACKAGE
    file.ClearField("service")
    for message in file.message_type:
        for field in message.field:
            if not field.type_name.startswith(f".{PACKAGE}."):
                continue
            name = field.type_name.rpartition(".")[2]
            if message.name == "Observation" and name in ENCODED:
                field.type = descriptor_pb2.FieldDescriptorProto.TYPE_BYTES
                field.ClearField("type_name")
            else:
                field.type_name = f".{VIEW_PACKAGE}.{name}"
    return file


_pool = descriptor_pool.DescriptorPool()
_pool.Add(_view_file())


def _view_of(name: str) -> Any:
    return message_factory.GetMessageClass(_pool.FindMessageTypeByName(f"{VIEW_PACKAGE}.{name}"))


RefereeMessage: Final = _view_of("RefereeMessage")
ActRequest: Final = _view_of("ActRequest")
EndGameRequest: Final = _view_of("EndGameRequest")
Observation: Final = _view_of("Observation")
