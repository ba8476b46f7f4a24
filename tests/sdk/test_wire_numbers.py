"""The numbers of the contract are pinned: proto/durak/v1/wire_numbers.txt, the generated stubs and the SDK agree.

A number on the wire is what an already built bot reads. Renumbering a field or an enum value in
``bot.proto``, or reordering an engine enum that the SDK maps onto one, would change what every
deployed bot understands without a compile error anywhere; this test is where it shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bots_sdk import convert
from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk.convert import WIRE_ENUMS, wire_name
from bots_sdk.engine import Reason

PINNED = Path(__file__).resolve().parents[2] / "proto" / "durak" / "v1" / "wire_numbers.txt"


def pinned() -> dict[str, int]:
    numbers: dict[str, int] = {}
    for i, line in enumerate(PINNED.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, number = line.partition(" = ")
        assert sep and number.isdigit(), f"{PINNED.name}:{i}: expected `name = number`, got {line!r}"
        assert name not in numbers, f"{PINNED.name}:{i}: {name} is pinned twice"
        numbers[name] = int(number)
    return numbers


def generated() -> dict[str, int]:
    """Every enum value and message field of ``durak.v1`` as the generated descriptor numbers it."""
    numbers: dict[str, int] = {}
    for enum in pb.DESCRIPTOR.enum_types_by_name.values():
        numbers |= {f"{enum.full_name}.{value.name}": value.number for value in enum.values}
    for message in pb.DESCRIPTOR.message_types_by_name.values():
        assert not message.nested_types and not message.enum_types, f"{message.name}: nested types are not pinned"
        numbers |= {f"{message.full_name}.{field.name}": field.number for field in message.fields}
    return numbers


def test_every_number_of_the_stubs_is_pinned_and_every_pin_is_in_the_stubs() -> None:
    stubs, pins = generated(), pinned()
    changed = {name: (pins[name], stubs[name]) for name in pins.keys() & stubs.keys() if pins[name] != stubs[name]}
    assert changed == {}, f"numbers changed (pinned, generated): {changed}"
    assert sorted(stubs.keys() - pins.keys()) == [], f"not pinned yet: add them to {PINNED.name}"
    assert sorted(pins.keys() - stubs.keys()) == [], "pinned but gone from bot.proto: a number must never go away"


@pytest.mark.parametrize("enum_name", sorted(WIRE_ENUMS))
def test_the_sdk_maps_every_engine_value_to_its_pinned_number(enum_name: str) -> None:
    pins = pinned()
    table = WIRE_ENUMS[enum_name]
    ours = {f"durak.v1.{enum_name}.{wire_name(enum_name, value)}": number for value, number in table.items()}
    assert {name: pins.get(name) for name in ours} == ours
    values = {name for name in pins if name.startswith(f"durak.v1.{enum_name}.") and pins[name] != 0}
    assert values == ours.keys(), f"{enum_name}: values without an engine counterpart {sorted(values - ours.keys())}"


def test_every_enum_of_the_contract_has_an_sdk_table() -> None:
    assert sorted(WIRE_ENUMS) == sorted(pb.DESCRIPTOR.enum_types_by_name)


def test_renumbering_is_caught_at_import() -> None:
    """A table that disagrees with the stubs (say, an engine enum reordered and mapped by position) fails loudly."""
    by_position = {reason: i + 1 for i, reason in enumerate(sorted(Reason, key=lambda r: r.value))}
    with pytest.raises(ImportError, match=r"the Reason table .* disagrees with the generated stubs"):
        convert._checked("Reason", by_position)
