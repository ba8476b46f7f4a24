"""The real referee (``python -m worker.referee``) with a bot on the Play stream and a bot of the unary calls only.

``random`` (the SDK's ``serve``) offers the stream and is played on it; ``unary_only`` is written
against the generated stubs without ``Play``, as bots from before the stream are, and must still
play. Without a sandbox here (fast); tests/worker/sandbox/test_bwrap.py plays the same pair sandboxed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bots_sdk.engine import GameRecord

ROOT = Path(__file__).resolve().parents[2]
UNARY_ONLY = ROOT / "tests" / "sdk" / "bots" / "unary_only"


def test_a_stream_bot_and_a_unary_bot_play_a_match_through_the_referee(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "worker.referee", "random", str(UNARY_ONLY), "--sandbox", "none", "--games", "1",
         "--move-s", "0.5", "--bank-s", "2", "--json", "--records", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    games = json.loads(done.stdout)["games"]
    assert len(games) == 2  # the deal in both seat rotations
    assert all(game["reason"] == "normal" and game["offender"] is None for game in games), games
    records = [GameRecord.read(path) for path in sorted(tmp_path.glob("game-*.json"))]
    assert [sorted(seat.bot for seat in record.seats) for record in records] == [["random", "unary_only"]] * 2
    assert all(record.actions for record in records)
