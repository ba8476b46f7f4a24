"""Every benchmark still runs: each script in ``tests/bench/`` in its ``--smoke`` mode, as a subprocess.

A benchmark that nobody runs rots unnoticed (``matchmaking.py`` once crashed on every run). The test is
parametrized by file, so a new benchmark is checked from the day it is added: it must take ``--smoke``
(toy sizes, a few seconds) and exit 0. A benchmark that owns a database (it takes ``--database-url``) gets
one beside the test run's, so parallel checkouts never drop each other's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parents[1]
SCRIPTS = sorted(path for path in BENCH.glob("*.py") if not path.name.startswith(("test_", "_")))


def beside_test_database(suffix: str) -> str:
    """``$DATABASE_URL`` (the run's database, set by the test settings) with ``_<suffix>`` on its name."""
    url = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(url._replace(path=f"{url.path.rstrip('/')}_{suffix}"))


def test_every_benchmark_is_found() -> None:
    assert {"matchmaking", "site_pages", "referee_throughput"} <= {path.stem for path in SCRIPTS}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_smoke(script: Path) -> None:
    command = [sys.executable, str(script), "--smoke"]
    if '"--database-url"' in script.read_text():
        command += ["--database-url", beside_test_database(script.stem)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (
        f"{script.name} --smoke exited {done.returncode}\n--- stdout\n{done.stdout[-2000:]}\n"
        f"--- stderr\n{done.stderr[-4000:]}"
    )
