"""grpc-core's experiments of bots_sdk/transport.py are in effect where the contract runs, and only there.

Each process is started without ``GRPC_EXPERIMENTS`` in its environment, so only its own import of
the SDK can set it, and traced (``GRPC_TRACE=tcp``): grpc-core then names, at every socket read and
write, the endpoint that did it (``helpers.grpc_endpoints``), iomgr's with the experiments off.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bots_sdk import transport
from bots_sdk.botdir import BotSpec, load_spec
from bots_sdk.bots import RandomBot
from bots_sdk.engine import Rules
from bots_sdk.local import play_game
from bots_sdk.process import BotProcess

from .helpers import GRPC_TRACE, grpc_endpoints


@pytest.fixture
def traced(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of this process without ``GRPC_EXPERIMENTS`` and traced: what a child started now gets."""
    monkeypatch.delenv(transport.EXPERIMENTS_VARIABLE, raising=False)
    for key, value in GRPC_TRACE.items():
        monkeypatch.setenv(key, value)
    return dict(os.environ)


def test_a_served_python_bot_answers_without_grpc_core(traced: dict[str, str]) -> None:
    """``serve()`` answers on its own HTTP/2 server (bots_sdk/http2_server.py): grpc-core carries none of the
    bot's socket reads and writes, so its experiments do not matter there."""
    with BotProcess(load_spec("random")) as process:
        process.wait_serving()
        process.bot.hello()
        assert process.bot.play  # the decisions below go over the Play stream
        outcome = play_game(Rules.preset("classic"), [process.bot, RandomBot(1)], seed=1).game.outcome
        assert outcome is not None and outcome.reason.value == "normal"
        log = process.log_path.read_text(errors="replace")
    assert grpc_endpoints(log) == set(), log[-2000:]


def test_the_referee_speaks_to_a_streaming_bot_without_grpc_core(traced: dict[str, str]) -> None:
    """``durak play --grpc``: the referee's ``RemoteBot`` in the command's process (its bots log elsewhere) checks
    health, says Hello and plays the stream on its own HTTP/2 (bots_sdk/http2.py): grpc-core carries nothing."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "durak"), "play", "--grpc", "random", "random", "--games", "1"],
        env=traced, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert grpc_endpoints(done.stderr) == set(), done.stderr[-2000:]


def test_the_referee_runs_the_unary_calls_with_the_experiments_off(traced: dict[str, str]) -> None:
    """``durak check`` plays every other game with the unary calls, on grpcio's channel: iomgr's endpoints."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "durak"), "check", "random"],
        env=traced, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert grpc_endpoints(done.stderr) == {"iomgr"}, done.stderr[-2000:]


def test_a_bot_in_another_language_does_not_get_them(tmp_path: Path) -> None:
    """Other languages' gRPC read other names (or none) from ``GRPC_EXPERIMENTS``: theirs is the operator's."""
    seen = tmp_path / "seen"
    spec = BotSpec("envprobe", "1", "command", ("/bin/sh", "-c", f'printf %s "${{GRPC_EXPERIMENTS-unset}}" > {seen}'),
                   tmp_path)
    with BotProcess(spec) as process:
        process.popen.wait(timeout=10)
    assert seen.read_text() == (transport.OPERATOR_EXPERIMENTS or "unset")
