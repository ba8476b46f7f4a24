"""The reference examples of docs/rules.md section 12 (tests/engine/examples).

For each record, the library must produce exactly the lines ``durak replay FILE
--trace`` prints (docs/protocol.md section 3): ``json.dumps`` of every trace step, then
of the final line; compared byte for byte with ``NAME.trace.jsonl``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.engine import helpers

EXAMPLES = Path(__file__).parent / "examples"
RECORDS = sorted(EXAMPLES.glob("*.json"))


def trace_text(path: Path) -> str:
    """What ``durak replay PATH --trace`` prints, built from the library."""
    return helpers.trace_text(GameRecord.read(path))


def test_every_example_is_here() -> None:
    names = {path.name for path in EXAMPLES.iterdir()}
    assert "README.md" in names
    assert len(RECORDS) == 9
    for path in RECORDS:
        assert path.with_name(path.stem + ".trace.jsonl").name in names


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_example_trace_matches_byte_for_byte(path: Path) -> None:
    expected = path.with_name(path.stem + ".trace.jsonl").read_bytes()
    produced = trace_text(path).encode()
    if produced != expected:
        wanted = expected.decode().splitlines()
        got = produced.decode().splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, wanted)) if a != b), min(len(got), len(wanted)))
        pytest.fail(
            f"{path.name}: trace differs at line {first} ({len(got)} lines, expected {len(wanted)}):\n"
            f"  got:      {got[first] if first < len(got) else '<end>'}\n"
            f"  expected: {wanted[first] if first < len(wanted) else '<end>'}"
        )


@pytest.mark.parametrize(
    ("name", "status"),
    [("illegal-take-by-attacker", "illegal"), ("forfeit-timeout", "ok"), ("classic-p2", "ok"), ("house-p3", "ok")],
)
def test_example_verdicts(name: str, status: str) -> None:
    result = replay(GameRecord.read(EXAMPLES / f"{name}.json"))
    assert result.status == status
    if status == "ok":
        stored = json.loads((EXAMPLES / f"{name}.json").read_text())["result"]
        assert result.final_line() == {"result": stored}


def test_example_records_round_trip() -> None:
    for path in RECORDS:
        record = GameRecord.read(path)
        again = GameRecord.from_json(record.to_json())
        assert again == record
        assert helpers.trace_text(again) == trace_text(path)
