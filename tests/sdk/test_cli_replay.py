"""``durak replay``: exact output and exit statuses of docs/protocol.md section 3."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bots_sdk.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"
RECORDS = sorted(EXAMPLES.glob("*.json"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((EXAMPLES / name).read_text())
    return data


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_examples_are_present() -> None:
    assert len(RECORDS) >= 9


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_trace_matches_the_reference_byte_for_byte(capsys: pytest.CaptureFixture[str], record: Path) -> None:
    status, out, err = run(capsys, "replay", str(record), "--trace")
    assert out == record.with_suffix(".trace.jsonl").read_text()
    assert status == (3 if "illegal" in record.stem else 0)
    assert err == ""


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_without_trace_only_the_last_line_is_printed(capsys: pytest.CaptureFixture[str], record: Path) -> None:
    _, out, _ = run(capsys, "replay", str(record))
    expected_last = record.with_suffix(".trace.jsonl").read_text().splitlines()[-1]
    assert out == expected_last + "\n"


def test_changed_result_is_a_mismatch_with_both_results(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = load("classic-p2.json")
    data["result"] = {"durak": 1, "draw": False, "reason": "normal", "out_order": [0]}
    status, out, _ = run(capsys, "replay", write(tmp_path, data), "--trace")
    last = json.loads(out.splitlines()[-1])
    assert status == 4
    assert last == {
        "error": "mismatch",
        "stored": {"durak": 1, "draw": False, "reason": "normal", "out_order": [0]},
        "replayed": {"durak": 0, "draw": False, "reason": "normal", "out_order": [1]},
    }
    assert len(out.splitlines()) == 90  # the whole trace came first


def test_forfeit_whose_offender_is_not_to_act_is_a_mismatch(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = load("forfeit-timeout.json")
    data["result"] = {**data["result"], "durak": 1, "offender": 1}  # type: ignore[dict-item]
    status, out, _ = run(capsys, "replay", write(tmp_path, data))
    assert status == 4
    assert json.loads(out)["replayed"]["offender"] == 0


def test_ten_written_as_10_is_printed_canonically(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = load("classic-p2.json")
    data["deck"] = [c.replace("T", "10") for c in data["deck"]]  # type: ignore[attr-defined]
    data["actions"] = [{**a, "action": a["action"].replace("T", "10")} for a in data["actions"]]  # type: ignore[attr-defined]
    status, out, _ = run(capsys, "replay", write(tmp_path, data), "--trace")
    assert status == 0
    assert out == (EXAMPLES / "classic-p2.trace.jsonl").read_text()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: "{not json", "not JSON"),
        (lambda d: {k: v for k, v in d.items() if k != "deck"}, "deck: missing"),
        (lambda d: {**d, "format": "durak-game/2"}, "format: 'durak-game/2'"),
        (lambda d: {**d, "deck": ["6D", *d["deck"][:-1]]}, "deck[1]: 6D appears twice"),
        (lambda d: {**d, "deck": ["1X", *d["deck"][1:]]}, "deck[0]: '1X' is not a card"),
        (lambda d: {**d, "rules": {**d["rules"], "players": 9}}, "rules.players: 9"),
        (lambda d: {**d, "rules": {**d["rules"], "colour": "red"}}, "rules.colour: unknown option"),
        (lambda d: {**d, "rules": {**d["rules"], "preset": "custom", "hand_size": 19}}, "rules.hand_size"),
        (lambda d: {**d, "rules": {**d["rules"], "bout_limit": 4}}, "rules.bout_limit: 4 differs from preset"),
        (lambda d: {**d, "dealer": 5}, "dealer: 5"),
        (lambda d: {**d, "actions": [*d["actions"][:3], {"seat": 0, "action": "atack 6S"}]}, "actions[3].action"),
        (lambda d: {**d, "actions": [{"seat": "one", "action": "take"}]}, "actions[0].seat"),
        (lambda d: {**d, "actions": d["actions"][:10]}, "stops before the game ends"),
        (lambda d: {**d, "result": {**d["result"], "draw": True}}, "result.draw"),
        (lambda d: {**d, "result": {**d["result"], "reason": "boredom"}}, "result.reason: 'boredom'"),
        (lambda d: {**d, "seats": d["seats"][:1]}, "seats: 1 entries for a 2-player game"),
        (lambda d: [1, 2], "a record is a JSON object"),
    ],
)
def test_malformed_record_exits_2_naming_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: object, message: str
) -> None:
    data = change(load("classic-p2.json"))  # type: ignore[operator]
    status, out, err = run(capsys, "replay", write(tmp_path, data), "--trace")
    assert status == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert (status, out) == (2, "")
    assert "cannot read" in err


def test_reads_standard_input_through_the_installed_command() -> None:
    record = EXAMPLES / "kawu-p2.json"
    done = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "replay", "-"],
        input=record.read_bytes(), capture_output=True, check=False,
    )
    assert done.returncode == 0
    assert done.stdout.decode() == record.with_suffix(".trace.jsonl").read_text().splitlines()[-1] + "\n"
