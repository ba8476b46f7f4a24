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
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

NATIVE_MODULES = (
    "bots_sdk/engine/actions.py",
    "bots_sdk/engine/game.py",
    "bots_sdk/engine/observation.py",
    "bots_sdk/engine/outcome.py",
    "bots_sdk/engine/determinize.py",
    "bots_sdk/engine/history.py",
    "bots_sdk/bots/strong.py",
    "bots_sdk/analysis/solver.py",
)
"""What is compiled: the step function, the actions it reads per decision, the exact endgame solver and
the strong bot's search.
Cards stay Python (the engine works on their indexes and bitmasks, not on ``Card`` objects). Rules stay
Python too: a compiled dataclass checks its field types itself, before ``Rules`` can name the bad option."""

GROUP = "bots_sdk.engine._native"
"""The shared library of the compiled modules lives inside the package (not a top-level module), so
copying ``bots_sdk/`` (the sandbox runtime does) takes it along."""

ROOT = Path(__file__).resolve().parent
IN_PLACE_COMMANDS = {"editable_wheel", "develop"}
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
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} is not on PATH: apt-get install gcc)"
    return None


def _say_pure(reason: str, in_place: bool) -> None:
    print(f"durak-arena: installing the pure-Python engine only: {reason}", file=sys.stderr)
    _remove_stale_extensions(ROOT / "bots_sdk" if in_place else None, keep=set())


def _remove_stale_extensions(tree: Path | None, keep: set[Path]) -> None:
    """Remove extension files this build did not make from ``tree`` (an editable install's package) and from
    build/: an earlier build's, or one of a module no longer compiled, would be imported before its source
    or land in a wheel beside extensions it does not match."""
    folders = [*ROOT.glob("build/lib*/bots_sdk"), *([tree] if tree is not None else [])]
    for folder in folders:
        for path in folder.rglob(f"*{EXTENSION_SUFFIXES[0]}"):
            if path.resolve() not in keep:
                path.unlink()


class BuildExt(build_ext):
    """``build_ext`` that falls back to pure Python, with a message, if compiling fails after all.

    Its outputs get the build's time even where setuptools found them up to date: ``bots_sdk.native``
    runs the sources instead of a build older than them."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any compiler failure: the pure-Python engine stays usable
            self.extensions = []
            _say_pure(f"compiling the native engine failed ({error})", bool(self.inplace))
            return
        outputs = {Path(self.get_ext_fullpath(ext.name)).resolve() for ext in self.extensions}
        for output in outputs:
            os.utime(output)
        _remove_stale_extensions(ROOT / "bots_sdk" if self.inplace else None, keep=outputs)


def _extensions() -> list[object]:
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []  # metadata and sdists need no compiling
    in_place = bool(IN_PLACE_COMMANDS.intersection(sys.argv[1:]))
    reason = _why_pure()
    if reason is not None:
        _say_pure(reason, in_place)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say_pure("mypyc is not installed (it comes with mypy)", in_place)
        return []
    # The repository's mypy configuration is for checking (it loads the Django plugin); compiling needs
    # none: ``--config-file=`` reads no file. The compiled modules are checked strictly by CI's mypy; what
    # they import but is not compiled (the SDK's gRPC side, generated stubs) is not this build's business,
    # and the build environment need not have grpc installed.
    flags = ["--config-file=", "--follow-imports=silent", "--ignore-missing-imports",
             "--disable-error-code=overload-cannot-match"]
    try:
        return list(mypycify([*flags, *NATIVE_MODULES], opt_level="3", debug_level="0", group_name=GROUP))
    except (Exception, SystemExit) as error:  # mypyc exits on a type error: the pure-Python engine still works
        _say_pure(f"mypyc refused the engine ({error})", in_place)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
