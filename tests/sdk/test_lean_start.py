"""A served Python bot never imports grpc, nor runs the modules its start defers: imports are most of its start.
And it answers in its only thread: a bot frozen between turns is woken at every freeze and thaw once per thread.

(docs/protocol.md section 10, bots_sdk/deferred_imports.py.) Each bot is started with the arguments the
referee gives ``python`` (bots_sdk/process.py: ``-m bots_sdk.bots NAME`` for a reference bot, the entry
for a bot folder), run as the pooled sandbox's stub runs it (bots_sdk/warm.py, so the
stub's own imports count too), plays a game on the ``Play`` stream, and on SIGTERM
writes down, as it exits, which grpc modules it ever imported and which deferred modules never ran.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bots_sdk.bots import make_bot
from bots_sdk.deferred_imports import DEFERRED
from bots_sdk.engine import Reason, Rules
from bots_sdk.local import play_game
from bots_sdk.remote import Limits, RemoteBot
from bots_sdk.server import ADDRESS_VARIABLE
from bots_sdk.transport import environment_for

REPORTING = """
import atexit, json, sys
report = sys.argv.pop(1)
from bots_sdk import deferred_imports
atexit.register(lambda: open(report, "w").write(json.dumps({
    "grpc": [name for name in sys.modules if name.split(".")[0] == "grpc"], "not_run": deferred_imports.not_run()})))
from bots_sdk.warm import run
run(sys.argv[1:])
"""
"""``python -c REPORTING REPORT ARGV...``: run ``python ARGV...``; at exit, write to REPORT its grpc modules and the
deferred modules whose code never ran."""

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
def test_a_served_bot_never_imports_grpc_nor_runs_its_deferred_imports(tmp_path: Path, kind: str) -> None:
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
        threads = sorted(os.listdir(f"/proc/{bot.pid}/task"))
        assert threads == [str(bot.pid)], f"a served bot runs {len(threads)} threads"
        remote.close()
    finally:
        bot.send_signal(signal.SIGTERM)
        assert bot.wait(timeout=10) == 0
    imported = json.loads(report.read_text())
    assert imported["grpc"] == []
    assert imported["not_run"] == sorted(DEFERRED)
