"""The Node.js example bot (bots_sdk/examples/node) passes ``durak check``: the contract works outside Python."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "bots_sdk" / "examples" / "node"


def test_node_example_passes_check(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH: the Node.js example bot cannot run")
    if not (FOLDER / "node_modules").is_dir():
        pytest.skip(f"{FOLDER / 'node_modules'} is missing: run `npm ci` in {FOLDER} first")
    result = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "check", str(FOLDER), "--records", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=180, check=False,
    )
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert "passed" in result.stdout, result.stdout
    assert "hello from 'node-example'" in result.stdout, result.stdout
