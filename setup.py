"""Build the native engine core: the engine's hot modules compiled by mypyc into C extensions.

Everything else about the package is declared in pyproject.toml; this file only adds the extensions.
The pure-Python modules are always installed beside them and behave identically: they are what runs
when this build finds no C compiler or Python headers, when ``DURAK_PURE_PYTHON=1`` is set at build
time, or when it is set at run time (``bots_sdk/native.py``). A build never fails for want of a
compiler: it says so and installs pure Python.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

NATIVE_MODULES = (
    "bots_sdk/engine/game.py",
    "bots_sdk/engine/observation.py",
    "bots_sdk/engine/outcome.py",
    "bots_sdk/engine/determinize.py",
    "bots_sdk/engine/history.py",
    "bots_sdk/bots/strong.py",
)
"""What is compiled: the step function and what it calls per decision, and the strong bot's search.
Cards and actions stay Python: they are interned, built once at import, and only read afterwards. Rules
stay Python too: a compiled dataclass checks its field types itself, before ``Rules`` can name the bad option."""

GROUP = "bots_sdk.engine._native"
"""The shared library of the compiled modules lives inside the package (not a top-level module), so
copying ``bots_sdk/`` (the sandbox runtime does) takes it along."""

BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def _why_pure() -> str | None:
    """Why this build installs pure Python only, or None when it can compile."""
    if os.environ.get("DURAK_PURE_PYTHON") == "1":
        return "DURAK_PURE_PYTHON=1 is set"
    if sys.implementation.name != "cpython":
        return f"{sys.implementation.name} is not CPython"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers} is missing: apt-get install python3-dev)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} is not on PATH: apt-get install gcc)"
    return None


def _say_pure(reason: str) -> None:
    print(f"durak-arena: installing the pure-Python engine only: {reason}", file=sys.stderr)


class BuildExt(build_ext):
    """``build_ext`` that falls back to pure Python, with a message, if compiling fails after all.

    Its outputs get the build's time even where setuptools found them up to date: ``bots_sdk.native``
    runs the sources instead of a build older than them."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any compiler failure: the pure-Python engine stays usable
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []
            _say_pure(f"compiling the native engine failed ({error})")
            return
        for output in self.get_outputs():
            if Path(output).exists():
                os.utime(output)


def _extensions() -> list[object]:
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []  # metadata and sdists need no compiling
    reason = _why_pure()
    if reason is not None:
        _say_pure(reason)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say_pure("mypyc is not installed (it comes with mypy)")
        return []
    # The repository's mypy configuration is for checking (it loads the Django plugin); compiling needs
    # none: ``--config-file=`` reads no file.
    return list(mypycify(["--config-file=", *NATIVE_MODULES], opt_level="3", debug_level="0", group_name=GROUP))


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
