"""A bot that does not serve on its own socket forfeits its games, and the match still ends with every result.

Through ``python -m worker.referee --sandbox bwrap --json``, as an author or a worker runs it: the bot swaps its
socket for a symlink to a host socket, or for a plain file (serving elsewhere in its socket dir), or never
serves at all. Each start is the bot's fault; the referee prints every game and exits 0.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.worker.sandbox.conftest import write_bot
from worker.referee.launch import Launcher

REPOSITORY = Path(__file__).resolve().parents[3]
HOST_SOCKET = "HOST_SOCKET"
ATTACKS = {
    # serve on another socket of its dir, with bot.sock a symlink to a socket of the host
    "symlink": (f"os.symlink({HOST_SOCKET!r}, '/run/bot/bot.sock')", "'/run/bot/real.sock'", "protocol",
                "bot.sock: not a socket but a symlink: refusing to connect"),
    "file": ("open('/run/bot/bot.sock', 'w').write('hello')", "'/run/bot/real.sock'", "protocol",
             "bot.sock: not a socket but mode -rw"),
    "never_serves": ("time.sleep(1000)", "None", "timeout", "did not listen"),
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_bot_off_its_socket_forfeits_and_the_match_completes(
    arena: Launcher, tmp_path: Path, attack: str
) -> None:
    host_path = tmp_path / "host.sock"
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    host.bind(str(host_path))
    host.listen(8)
    host.setblocking(False)
    prelude, address, reason, detail = ATTACKS[attack]
    write_bot(tmp_path / attack, attack, prelude=prelude.replace(HOST_SOCKET, str(host_path)), address=address)
    try:
        run = subprocess.run(
            [sys.executable, "-m", "worker.referee", str(tmp_path / attack), "random", "--sandbox", "bwrap",
             "--json", "--start-s", "1.5", "--seed", "socket"],
            cwd=REPOSITORY, capture_output=True, text=True, timeout=60, check=False,
        )
        with pytest.raises(BlockingIOError):
            host.accept()  # the referee never connected to the host socket
    finally:
        host.close()
    assert run.returncode == 0, run.stderr
    games = json.loads(run.stdout)["games"]
    assert len(games) == 2, games  # one deal, both seatings
    for seat, game in enumerate(games):  # the bot sits in seat 0, then in seat 1
        assert (game["offender"], game["durak"], game["reason"]) == (seat, seat, reason), game
        assert detail in game["detail"] and "/run/durak" not in game["detail"], game
