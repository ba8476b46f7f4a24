"""The native engine core is what runs when it was built, and ``DURAK_PURE_PYTHON=1`` really runs the source.

CI runs the engine's whole suite twice, once per build; these tests make sure each of those runs
exercised the build it claims to, and that a stale extension never hides an edit of its source.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

import bots_sdk
from bots_sdk.native import engine_build

SDK = Path(bots_sdk.__file__).parent
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
COMPILED = sorted(path for package in ("engine", "bots", "analysis") for path in (SDK / package).glob(f"*{SUFFIX}")
                  if "__mypyc" not in path.name)
"""The extension modules the build made (none where it had no C compiler)."""

PROBE = """
import json, sys
import bots_sdk.engine, bots_sdk.bots.strong, bots_sdk.analysis.solver
from bots_sdk.native import engine_build
print(json.dumps([engine_build(), {name: m.__file__ for name, m in sys.modules.items()
                                   if name.startswith(("bots_sdk.engine.", "bots_sdk.bots.", "bots_sdk.analysis."))}]))
"""


def _probe(pure: bool, root: Path = SDK.parent) -> tuple[str, dict[str, str]]:
    """The engine build and the files of the engine's modules in a fresh interpreter importing from ``root``
    (``-S``: an editable install's import hook would otherwise import this checkout whatever ``root`` is)."""
    env = {k: v for k, v in os.environ.items() if k != "DURAK_PURE_PYTHON"}
    if pure:
        env["DURAK_PURE_PYTHON"] = "1"
    done = subprocess.run([sys.executable, "-I", "-S", "-c", f"import sys; sys.path.insert(0, {str(root)!r})\n{PROBE}"],
                          capture_output=True, text=True, check=True, env=env)
    build, files = json.loads(done.stdout)
    return build, files


def test_the_build_in_use_is_the_one_this_run_asked_for() -> None:
    pure = os.environ.get("DURAK_PURE_PYTHON") == "1" or not COMPILED
    assert engine_build() == ("pure Python" if pure else "native")


@pytest.mark.skipif(not COMPILED, reason="this install has no compiled engine (no C compiler at build time)")
def test_every_compiled_module_loads_compiled_unless_pure_python_is_asked_for() -> None:
    build, files = _probe(pure=False)
    assert build == "native"
    names = {f"bots_sdk.{path.parent.name}.{path.name.removesuffix(SUFFIX)}" for path in COMPILED}
    assert {name for name in names if not files[name].endswith(SUFFIX)} == set()
    build, files = _probe(pure=True)
    assert build == "pure Python"
    assert {name: file for name, file in files.items() if not file.endswith(".py")} == {}


def test_durak_version_names_the_engine_build() -> None:
    done = subprocess.run([sys.executable, "-m", "bots_sdk.cli.main", "--version"], capture_output=True, text=True,
                          env={**os.environ, "DURAK_PURE_PYTHON": "1"}, check=True)
    assert done.stdout.strip().endswith("(pure Python engine)")


@pytest.mark.skipif(not COMPILED, reason="this install has no compiled engine (no C compiler at build time)")
def test_an_edited_source_runs_instead_of_its_stale_extension(tmp_path: Path) -> None:
    """An editable install's extensions do not follow edits: the edited engine must run, not the old build."""
    shutil.copytree(SDK, tmp_path / "bots_sdk", ignore=shutil.ignore_patterns("__pycache__", "_proto"))
    source = tmp_path / "bots_sdk" / "engine" / "game.py"
    later = time.time() + 60  # an edit after the build
    os.utime(source, (later, later))
    build, files = _probe(pure=False, root=tmp_path)
    assert build == "pure Python"
    assert files["bots_sdk.engine.determinize"].endswith(".py"), "all or none: compiled modules call each other"
