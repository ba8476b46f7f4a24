"""A ``bot.toml`` key the SDK does not know is refused, named, with the closest known key: by the loader, so
``durak check``, ``durak submit`` and the arena's upload (tests/arena/test_upload_limits.py) all say it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots_sdk.botdir import BotSpecError, load_spec
from bots_sdk.cli.main import main as durak


def folder_with(tmp_path: Path, extra: str) -> Path:
    assert durak(["new", "keys", "--dir", str(tmp_path)]) == 0
    manifest = tmp_path / "keys" / "bot.toml"
    manifest.write_text(manifest.read_text() + extra)
    return tmp_path / "keys"


@pytest.mark.parametrize(("line", "said"), [
    ('requirments = "requirements.txt"\n', "unknown key 'requirments'; did you mean 'requirements'?"),
    ('entrypoint = "bot.py"\n', "unknown key 'entrypoint'; did you mean 'entry'?"),
    ("timeout = 3\n", "unknown key 'timeout'; the known keys are name, version, language, entry, requirements"),
])
def test_an_unknown_key_is_named_with_the_closest_known_one(tmp_path: Path, line: str, said: str) -> None:
    folder = folder_with(tmp_path, line)
    with pytest.raises(BotSpecError) as caught:
        load_spec(str(folder))
    assert str(caught.value) == f"{folder / 'bot.toml'}: {said}"


def test_durak_check_and_submit_refuse_it_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = folder_with(tmp_path, 'langauge = "python"\n')
    assert durak(["check", str(folder)]) == 2
    assert "unknown key 'langauge'; did you mean 'language'?" in capsys.readouterr().err
    # No server listens on port 9: the refusal comes before any connection.
    assert durak(["submit", str(folder), "--url", "http://127.0.0.1:9", "--token", "x"]) == 2
    err = capsys.readouterr().err
    assert "unknown key 'langauge'; did you mean 'language'?" in err and "cannot reach" not in err
