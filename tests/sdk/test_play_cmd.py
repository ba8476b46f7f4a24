"""``durak new`` and ``durak play``: a fresh scaffold plays in-process and over gRPC; bad input exits 2, named."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots_sdk.cli.main import main
from bots_sdk.engine import GameRecord


@pytest.fixture
def scaffold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["new", "good_bot", "--dir", str(tmp_path)]) == 0
    out, _ = capsys.readouterr()
    assert f"created {tmp_path / 'good_bot'}/ with bot.py, bot.toml, README.md, test_bot.py" in out
    return tmp_path / "good_bot"


def test_new_writes_a_filled_in_scaffold(scaffold: Path) -> None:
    assert sorted(p.name for p in scaffold.iterdir()) == ["README.md", "bot.py", "bot.toml", "test_bot.py"]
    bot = (scaffold / "bot.py").read_text()
    assert "class GoodBot(Bot):" in bot
    assert "serve(GoodBot())" in bot
    assert 'name = "good_bot"' in (scaffold / "bot.toml").read_text()
    assert "$" not in bot + (scaffold / "bot.toml").read_text()  # every template value was substituted


def test_play_the_scaffold_in_process(scaffold: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    records = tmp_path / "records"
    status = main(["play", str(scaffold), "random", "--games", "6", "--seed", "3", "--records", str(records)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "6 games of classic with 2 players" in out
    assert "\ngood_bot " in out and "\nrandom " in out
    assert "bots run as served processes" not in err
    files = sorted(records.glob("game-*.json"))
    assert len(files) == 6
    for path in files:
        record = GameRecord.read(path)
        assert record.result.offender is None
        assert {seat.bot for seat in record.seats} == {"good_bot", "random"}


def test_play_the_scaffold_over_grpc(scaffold: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["play", str(scaffold), "random", "--games", "4", "--grpc", "--preset", "transfer"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "bots run as served processes over gRPC" in err
    assert "4 games of transfer with 2 players" in out
    assert "\ngood_bot " in out and "\nrandom " in out
    forfeits = [line.split()[-1] for line in out.splitlines() if line.startswith(("good_bot ", "random "))]
    assert forfeits == ["0", "0"]


@pytest.mark.parametrize(("name", "words"), [("my bot", "'my bot' is not a valid bot name"),
                                             ("1abc", "'1abc' is not a valid bot name"),
                                             ("a-b", "'a-b' is not a valid bot name")])
def test_new_refuses_a_bad_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, words: str
) -> None:
    assert main(["new", name, "--dir", str(tmp_path)]) == 2
    _, err = capsys.readouterr()
    assert f"durak new: {words}" in err
    assert list(tmp_path.iterdir()) == []


def test_new_refuses_an_existing_folder(scaffold: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (scaffold / "bot.py").read_text()
    assert main(["new", "good_bot", "--dir", str(scaffold.parent)]) == 2
    _, err = capsys.readouterr()
    assert f"{scaffold} already exists" in err
    assert (scaffold / "bot.py").read_text() == before


def write_bot(folder: Path, manifest: str | None, entry: bool = True) -> Path:
    folder.mkdir()
    if manifest is not None:
        (folder / "bot.toml").write_text(manifest)
    if entry:
        (folder / "bot.py").write_text("from bots_sdk import Bot\n")
    return folder


@pytest.mark.parametrize(
    ("manifest", "entry", "words"),
    [
        (None, True, "no bot.toml"),
        ('name = "my bot"\n', True, "bot.toml: name: 'my bot' may hold only letters, digits, - and _"),
        ('name = "ok"\nlanguage = "rust"\n', True, "bot.toml: language: 'rust' is not one of python, javascript"),
        ('name = "ok"\n', False, "bot.toml: entry: 'bot.py' does not exist"),
        ('name = "ok"\nentry = "main.py"\n', True, "bot.toml: entry: 'main.py' does not exist"),
        ('version = "1"\n', True, "bot.toml: name: None is not a non-empty string"),
        ('name = "ok"\nlanguage = "command"\nentry = "run.sh"\n', True, "bot.toml: entry: a command bot needs an argv"),
        ('name = "ok\n', True, "bot.toml: not valid TOML"),
    ],
    ids=["no_manifest", "name_with_space", "rust", "missing_entry", "missing_named_entry", "no_name",
         "command_not_a_list", "bad_toml"],
)
def test_play_with_a_bad_bot_folder_exits_2_naming_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], manifest: str | None, entry: bool, words: str
) -> None:
    folder = write_bot(tmp_path / "bad", manifest, entry)
    for extra in ([], ["--grpc"]):
        assert main(["play", str(folder), "random", "--games", "1", *extra]) == 2
        out, err = capsys.readouterr()
        assert words in err
        assert str(folder) in err
        assert "Traceback" not in err
        assert out == ""


def test_play_with_a_missing_folder_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere"
    assert main(["play", str(missing), "random", "--games", "1"]) == 2
    _, err = capsys.readouterr()
    assert f"durak play: '{missing}' is neither a reference bot" in err
    assert "nor a bot folder" in err


def test_play_with_a_bot_file_without_a_bot_class_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = write_bot(tmp_path / "empty", 'name = "empty"\n')
    assert main(["play", str(folder), "random", "--games", "1"]) == 2
    _, err = capsys.readouterr()
    assert "bot.py: define exactly one Bot subclass" in err
    assert "found none" in err


def test_play_needs_two_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "random", "--games", "1"]) == 2
    _, err = capsys.readouterr()
    assert "give at least two bots" in err


def test_play_a_team_preset_with_one_bot_per_team_over_grpc(
    scaffold: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each bot plays both seats of its team, one served process per seat (a bot keeps per-game state)."""
    records = tmp_path / "records"
    status = main(["play", str(scaffold), "gentle", "--preset", "pagat-pairs", "--games", "2", "--grpc",
                   "--records", str(records)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "2 games of pagat-pairs with 4 players in teams 0+2 vs 1+3" in out
    seats = [[s.bot for s in GameRecord.read(path).seats] for path in sorted(records.glob("game-*.json"))]
    assert seats == [["good_bot", "gentle", "good_bot", "gentle"], ["gentle", "good_bot", "gentle", "good_bot"]]


def test_play_refuses_a_bot_count_that_fits_no_team_table(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["play", "random", "gentle", "random", "--preset", "pagat-trios"])
    _, err = capsys.readouterr()
    assert status == 2
    assert "BOT: players: preset 'pagat-trios' is for 6 players, not 3" in err
