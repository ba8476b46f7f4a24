"""``durak analyze``: a real game (a known endgame where the winning move is missed) gets its mistake
flagged at the right step with the right best move; estimates before; bad records are refused clearly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots_sdk.bots import make_bot
from bots_sdk.cli.main import main
from bots_sdk.engine import GameRecord, Rules
from bots_sdk.local import play_game
from tests.analysis.games import missed_win
from tests.bots.test_strong import endgame


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_missed_win_is_a_mistake_with_the_winning_move_as_best(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = missed_win()
    step, thrown, winning = game.step, game.thrown, game.winning
    path = tmp_path / "game.json"
    game.record.write(path)

    status, out, err = run(capsys, "analyze", str(path), "--json", "--samples", "4")
    assert status == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(game.record.actions)
    assert all("mistake" in line for line in lines)
    verdict = next(line for line in lines if line["step"] == step)
    assert verdict["action"] == thrown and verdict["mode"] == "exact" and verdict["seat"] == game.seat
    assert verdict["mistake"] is True and verdict["best"] == [winning]
    assert verdict["before"]["result"] == "win" and verdict["after"]["result"] == "loss"
    assert verdict["cost"] == 1.0 and verdict["durak"][verdict["seat"]] == 1.0
    estimated = [line for line in lines if line["mode"] == "estimate"]
    assert estimated and all(0 <= line["before"]["durak"] <= 1 and line["after"]["se"] >= 0 for line in estimated)
    assert all(line["mistake"] is False and "inaccuracy" in line for line in estimated)
    assert [line["step"] for line in lines] == sorted(line["step"] for line in lines)

    status, text, _ = run(capsys, "analyze", str(path), "--samples", "4")
    assert status == 0
    flagged = next(line for line in text.splitlines() if line.split()[0] == str(step))
    assert "MISTAKE" in flagged and f"best: {winning}" in flagged and "win in" in flagged


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ('{"format": "durak-game/1"}', "rules: missing"),
    ],
)
def test_a_malformed_record_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, out, err = run(capsys, "analyze", str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"durak analyze: {path}: ") and message in err


def test_an_illegal_action_names_its_step(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = endgame("seed-332")
    while not game.is_over():
        game.push(game.legal_actions()[0])
    data = GameRecord.from_game(game).to_dict()
    data["actions"][3]["action"] = "attack 2S"  # not in a 36-card deck's hands: parses, but illegal
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "analyze", str(path))
    assert status == 2 and out == ""
    assert "step" in err and "attack 2S" in err and "illegal" in err


def test_three_players_get_estimates_only_down_to_the_last_decision(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    rules = Rules.preset("classic", players=3)
    played = play_game(rules, [make_bot("gentle", seat) for seat in range(3)], seed=5)
    path = tmp_path / "three.json"
    played.record().write(path)
    status, out, _ = run(capsys, "analyze", str(path), "--json", "--samples", "2")
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(lines) == len(played.record().actions)
    assert {line["mode"] for line in lines} == {"estimate"}
    assert all(len(line["durak"]) == 3 and sum(line["durak"]) <= 1.0 + 1e-9 for line in lines)
