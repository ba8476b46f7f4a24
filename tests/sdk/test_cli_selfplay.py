"""``durak selfplay``: plays every preset, writes replayable records, rejects bad options clearly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots_sdk.cli.main import main
from bots_sdk.engine import PRESETS, GameRecord
from bots_sdk.engine.replay import replay


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_plays_and_summarises(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    bots = ["gentle", "random"] if preset in ("kawu", "pagat-trios") else ["gentle", "random", "random"]
    status = main(["selfplay", "--preset", preset, "--games", "6", "--bots", ",".join(bots)])
    out, err = capsys.readouterr()
    assert status == 0, err
    # Under a team preset each bot plays a whole team: gentle,random,random is three teams of two.
    players = {"pagat-pairs": 6, "pagat-trios": 6}.get(preset, len(bots))
    assert f"6 games of {preset} with {players} players" in out
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
        (["--bots", "gentle,random,random", "--players", "2"], "--bots: 3 bots for a 2-player game; give one per seat"),
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


def test_one_bot_per_team_plays_every_seat_of_its_team(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = main(["selfplay", "--preset", "pagat-pairs", "--games", "4", "--bots", "gentle,random",
                   "--records", str(tmp_path)])
    out, _ = capsys.readouterr()
    assert status == 0
    assert "4 games of pagat-pairs with 4 players in teams 0+2 vs 1+3; fair share of durak 50.0 %" in out
    assert "\n0+2 " in out and "\n1+3 " in out
    seatings = {tuple(seat["bot"] for seat in json.loads(path.read_text())["seats"]) for path in tmp_path.iterdir()}
    # Teams rotate: gentle holds seats 0 and 2 in one game, 1 and 3 in the next.
    assert seatings == {("gentle", "random", "gentle", "random"), ("random", "gentle", "random", "gentle")}


def test_a_bot_count_that_fits_no_table_of_the_preset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["selfplay", "--preset", "pagat-trios", "--games", "1", "--bots", "gentle,random,random,random"])
    _, err = capsys.readouterr()
    assert status == 2
    assert "players: preset 'pagat-trios' is for 6 players, not 4" in err
