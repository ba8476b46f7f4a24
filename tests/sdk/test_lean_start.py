"""A served Python bot never imports grpc: importing it was most of a bot's start to SERVING.

(docs/protocol.md section 10.) Each bot is started with the arguments the referee gives
``python`` (bots_sdk/process.py: ``-m bots_sdk.bots NAME`` for a reference bot, the entry
for a bot folder), run as the pooled sandbox's stub runs it (bots_sdk/warm.py, so the
stub's own imports count too), plays a game on the ``Play`` stream, and on SIGTERM
writes down, as it exits, which grpc modules it ever imported.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bots_sdk.bots import make_bot
from bots_sdk.engine import Reason, Rules
from bots_sdk.local import play_game
from bots_sdk.remote import Limits, RemoteBot
from bots_sdk.server import ADDRESS_VARIABLE
from bots_sdk.transport import environment_for

REPORTING = """
import atexit, sys
report = sys.argv.pop(1)
atexit.register(lambda: open(report, "w").write(" ".join(name for name in sys.modules if name.split(".")[0] == "grpc")))
from bots_sdk.warm import run
run(sys.argv[1:])
"""
"""``python -c REPORTING REPORT ARGV...``: run ``python ARGV...`` and write its grpc modules to REPORT at exit."""

FOLDER_BOT = """
from bots_sdk import Action, Bot, Observation, serve


class Least(Bot):
    name = "least"

    def choose_action(self, observation: Observation) -> Action:
        return min(observation.legal_actions, key=str)


if __name__ == "__main__":
    serve(Least())
"""


@pytest.mark.parametrize("kind", ["reference", "folder"])
def test_a_served_bot_never_imports_grpc(tmp_path: Path, kind: str) -> None:
    entry = tmp_path / "bot.py"
    entry.write_text(textwrap.dedent(FOLDER_BOT))
    argv = ["-m", "bots_sdk.bots", "gentle"] if kind == "reference" else [str(entry)]
    address, report = str(tmp_path / "bot.sock"), tmp_path / "grpc_modules"
    env = environment_for(True, {**os.environ, ADDRESS_VARIABLE: address})
    bot = subprocess.Popen([sys.executable, "-c", REPORTING, str(report), *argv], cwd=tmp_path, env=env)
    try:
        remote = RemoteBot(address, Limits(start_s=20.0), label=kind)
        remote.wait_serving()
        remote.hello()
        assert remote.play
        outcome = play_game(Rules.preset("classic", players=2), [make_bot("random", 1), remote], seed=7).game.outcome
        assert outcome is not None and outcome.reason is Reason.NORMAL, outcome
        remote.close()
    finally:
        bot.send_signal(signal.SIGTERM)
        assert bot.wait(timeout=10) == 0
    assert report.read_text() == ""
