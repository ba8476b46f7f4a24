"""``bots_sdk`` works with only its runtime dependencies (grpcio, protobuf, hpack) installed.

A fresh venv gets them from the package index, then this project without its
dependencies (from a copy of the sources, so no build files land in the repository); a bot
served there over a unix socket plays a whole game against a reference bot.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ("grpcio==1.85.1", "protobuf==7.36.2", "hpack==4.2.0")

SCRIPT = textwrap.dedent("""
    import json, sys
    from importlib import metadata
    from pathlib import Path

    from bots_sdk import Action, Bot, serve
    from bots_sdk.bots import make_bot
    from bots_sdk.engine import Rules
    from bots_sdk.local import play_game
    from bots_sdk.remote import RemoteBot
    from bots_sdk.server import BotServer

    class Lowest(Bot):
        name = "lowest"

        def choose_action(self, observation):
            return min(observation.legal_actions, key=str)

    assert callable(serve) and Action.parse("take")
    address = str(Path(sys.argv[1]) / "bot.sock")
    server = BotServer(Lowest(), address).start()
    remote = RemoteBot(address)
    remote.wait_serving(timeout=10)
    assert remote.hello().name == "lowest"
    played = play_game(Rules.preset("classic", players=2), [remote, make_bot("random", 1)], seed=1)
    remote.close()
    server.stop(0.5)
    outcome = played.game.outcome
    assert outcome is not None and outcome.offender is None, outcome
    import bots_sdk
    print(json.dumps({
        "sdk": bots_sdk.__file__,
        "grpcio_requires": metadata.requires("grpcio") or [],
        "decisions": len(played.ms),
    }))
    print("OK")
""")


def run(argv: list[str], cwd: Path, timeout: float = 300) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.timeout(900)
def test_the_sdk_runs_with_only_its_runtime_dependencies(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *RUNTIME], tmp_path, timeout=600)

    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "bots_sdk", source / "bots_sdk", ignore=shutil.ignore_patterns("__pycache__"))
    run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", str(source)],
        tmp_path, timeout=600)

    listed = json.loads(run([str(python), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
                            tmp_path))
    installed = {item["name"].lower().replace("_", "-") for item in listed}

    (tmp_path / "play.py").write_text(SCRIPT)
    out = run([str(python), "play.py", str(tmp_path)], tmp_path, timeout=120)
    assert out.splitlines()[-1] == "OK", out
    facts = json.loads(out.splitlines()[-2])
    assert Path(facts["sdk"]).is_relative_to(venv), facts["sdk"]  # the installed package, not the repository
    assert facts["decisions"] > 0

    grpc_needs = {  # what grpcio itself requires (typing-extensions), not counting its extras
        re.match(r"[A-Za-z0-9_.-]+", requirement)[0].lower().replace("_", "-")  # type: ignore[index]
        for requirement in facts["grpcio_requires"] if "extra ==" not in requirement
    }
    allowed = {"pip", "setuptools", "grpcio", "protobuf", "hpack", "durak-arena"} | grpc_needs
    assert installed - allowed == set(), f"unexpected packages: {sorted(installed - allowed)}"
    assert {"grpcio", "protobuf", "hpack", "durak-arena"} <= installed

    help_text = run([str(venv / "bin" / "durak"), "--help"], tmp_path)
    for command in ("new", "play", "serve", "check", "replay", "selfplay"):
        assert command in help_text
