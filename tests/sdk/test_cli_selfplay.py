"""``durak selfplay``: plays every preset, writes replayable records, rejects bad options clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots_sdk.cli.main import main
from bots_sdk.engine import PRESETS, GameRecord
from bots_sdk.engine.replay import replay


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_and_summarises(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    bots = ["gentle", "random"] if preset == "kawu" else ["gentle", "random", "random"]
    status = main(["selfplay", "--preset", preset, "--games", "6", "--bots", ",".join(bots)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert f"6 games of {preset} with {len(bots)} players" in out
    for name in ["gentle", "random"] + (["random#2"] if len(bots) == 3 else []):
        assert f"\n{name} " in out
    assert "mean bouts per game" in out


def test_records_replay_to_the_same_result(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = main(["selfplay", "--preset", "transfer", "--players", "4", "--games", "5", "--bots", "random",
                   "--records", str(tmp_path)])
    capsys.readouterr()
    assert status == 0
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 5
    for path in files:
        assert replay(GameRecord.read(path)).status == "ok"


def test_same_seed_gives_the_same_games(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for folder in ("a", "b"):
        records = str(tmp_path / folder)
        main(["selfplay", "--games", "3", "--bots", "gentle,random", "--seed", "42", "--records", records])
    capsys.readouterr()
    for name in ("game-00001.json", "game-00003.json"):
        first = GameRecord.read(tmp_path / "a" / name)
        second = GameRecord.read(tmp_path / "b" / name)
        assert first.deck == second.deck
        assert [a.action for a in first.actions] == [a.action for a in second.actions]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "gentle,random,random", "--players", "2"], "--bots: 3 names for 2 players"),
        (["--bots", "cleverbot"], "'cleverbot' is not a reference bot"),
        (["--preset", "kawu", "--players", "3", "--bots", "random"], "preset 'kawu' is for 2 players"),
        (["--games", "0"], "--games: 0"),
        (["--players", "7", "--bots", "random"], "players"),
    ],
)
def test_bad_options_exit_2_with_a_message(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status = main(["selfplay", *argv])
    _, err = capsys.readouterr()
    assert status == 2
    assert message in err
