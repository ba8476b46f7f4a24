"""Golden playthroughs: fixed random games whose record and trace must not change.

A difference means the engine behaves differently from when the files were written.
If that change is intended, rewrite the files with
``PYTHONPATH=. .venv/bin/python tests/engine/make_golden.py`` and review the diff.
"""

from __future__ import annotations

import pytest

from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.engine.make_golden import GOLDEN, golden_names, play, stem

REGENERATE = "if the engine change is intended, run: PYTHONPATH=. .venv/bin/python tests/engine/make_golden.py"
NAMES = golden_names()


def first_difference(got: str, wanted: str) -> str:
    got_lines, wanted_lines = got.splitlines(), wanted.splitlines()
    for i, (a, b) in enumerate(zip(got_lines, wanted_lines)):
        if a != b:
            return f"line {i + 1}:\n  now:    {a}\n  golden: {b}"
    return f"length: now {len(got_lines)} lines, golden {len(wanted_lines)}"


def test_golden_files_are_complete() -> None:
    expected = {f"{stem(*name)}{ext}" for name in NAMES for ext in (".json", ".trace.jsonl")}
    present = {path.name for path in GOLDEN.iterdir()} if GOLDEN.is_dir() else set()
    assert present == expected, f"golden files missing or extra; {REGENERATE}"
    assert 25 <= len(NAMES) <= 50


@pytest.mark.parametrize(("preset", "players", "seed"), NAMES, ids=[stem(*name) for name in NAMES])
def test_golden_game(preset: str, players: int, seed: int) -> None:
    name = stem(preset, players, seed)
    record, trace = play(preset, players, seed)
    golden_record = (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
    golden_trace = (GOLDEN / f"{name}.trace.jsonl").read_text(encoding="utf-8")
    assert record == golden_record, f"{name}.json changed at {first_difference(record, golden_record)}\n{REGENERATE}"
    assert trace == golden_trace, f"{name}.trace.jsonl changed at {first_difference(trace, golden_trace)}\n{REGENERATE}"
    assert replay(GameRecord.from_json(golden_record)).status == "ok"
