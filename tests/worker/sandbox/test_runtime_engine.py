"""Sandboxed bots get the engine build the worker has: the runtime's copy of the SDK takes the compiled modules."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bots_sdk.native import engine_build
from worker.sandbox.runtime import ensure_runtime


def test_the_runtime_runs_the_workers_engine_build(sandbox_dirs: tuple[Path, Path]) -> None:
    runtime = ensure_runtime(sandbox_dirs[1])
    done = subprocess.run(
        [str(runtime / "bin" / "python"), "-I", "-c",
         "from bots_sdk.native import engine_build; import bots_sdk.bots.strong; print(engine_build())"],
        capture_output=True, text=True, check=True,
    )
    assert done.stdout.strip() == engine_build()
    assert done.stderr == ""  # no warning of a stale build: the copy keeps the build's times
