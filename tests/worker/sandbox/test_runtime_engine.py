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


def test_a_bot_compiles_nothing_at_its_start(sandbox_dirs: tuple[Path, Path]) -> None:
    """The runtime is read-only in the sandbox (and bots run with PYTHONDONTWRITEBYTECODE): a module a bot
    imports without a valid cached ``.pyc`` would be compiled again at every start. What the pooled stub
    imports (grpc, protobuf, the server, the reference bots) all comes from cached bytecode or an extension,
    and the engine's extensions from the runtime."""
    runtime = ensure_runtime(sandbox_dirs[1])
    done = subprocess.run(
        [str(runtime / "bin" / "python"), "-v", "-c", "import bots_sdk.warm"],
        capture_output=True, text=True, check=True, env={"PYTHONDONTWRITEBYTECODE": "1"}, cwd="/",
    )
    lines = done.stderr.splitlines()
    compiled = [line for line in lines if line.startswith("# code object from") and line.rstrip("'").endswith(".py")]
    assert not compiled, compiled
    assert any(line.startswith("# code object from") and ".pyc" in line for line in lines)
    engine = [line for line in lines if line.startswith("# extension module 'bots_sdk.") and "loaded from" in line]
    assert all(f"'{runtime}/" in line for line in engine), engine
    assert bool(engine) == (engine_build() == "native")
