"""The example of docs/rl.md: a numpy policy trained in the environment beats ``random``, and the trained policy
shipped beside it plays as an ordinary bot through ``durak play`` and passes ``durak check``.

Training is seeded and counted in games rather than seconds, so the test trains the same policy on any
machine: it is either good enough or not, never by luck of the clock (``tests/bench/rl_env.py`` measures the
win rate after the example's minute).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "bots_sdk" / "examples" / "rl_policy"


@pytest.fixture
def train(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(EXAMPLE))
    import train as module  # the example's own script, as its folder runs it

    return module


def test_a_hundred_games_of_training_beat_random(train: ModuleType) -> None:
    policy = train.train(seconds=120, games=100, seed=0)
    rate = train.win_rate(policy, 300)
    # Against random, a policy that learned nothing useful scores about 0.5 (random against itself); 0.65
    # over 300 games is five standard errors above that.
    assert rate > 0.65, rate


def test_the_trained_policy_plays_and_passes_the_check(tmp_path: Path) -> None:
    played = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "play", str(EXAMPLE), "random", "--games", "100"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    row = re.search(r"^rl-policy\s+100\s+(\d+)\s", played.stdout, re.M)
    assert row and int(row[1]) < 25, played.stdout  # durak in fewer than a quarter of the games
    checked = subprocess.run([sys.executable, "-m", "bots_sdk.cli.main", "check", str(EXAMPLE)],
                             cwd=tmp_path, capture_output=True, text=True, timeout=180, check=False)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
