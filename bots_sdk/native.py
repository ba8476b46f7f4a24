"""Which engine build runs: the native core (mypyc-compiled extensions, see setup.py) or pure Python.

The compiled modules sit beside their sources, and Python imports an extension module before a
source file of the same name. With ``DURAK_PURE_PYTHON=1`` in the environment, ``use_pure_python``
(run when ``bots_sdk.engine`` imports this module, before its submodules) puts a finder first on ``sys.meta_path``
that loads the ``.py`` source of every compiled module instead: the fallback behaves identically, and
the tests run the engine on both builds. It does the same, with a warning, when a source is newer than
the compiled engine: an editable install's extensions do not follow edits to the engine until rebuilt, and
running them would silently ignore the edit. The check is a few ``stat`` calls, once per process.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    def mypyc_attr(*_names: str, **_attrs: object):
        """The compiler reads ``@mypyc_attr`` and drops it from the compiled module; the source keeps a no-op."""
        return lambda cls: cls

PURE_ENV = "DURAK_PURE_PYTHON"
COMPILED_PACKAGES = ("bots_sdk.engine.", "bots_sdk.bots.", "bots_sdk.analysis.")
"""The packages whose modules setup.py may compile (its ``NATIVE_MODULES``)."""
_SUFFIX = EXTENSION_SUFFIXES[0]
_SLACK_S = 2.0
"""How much newer than the compiled engine a source may be and still count as its source: installing a wheel
writes both in one go, in either order."""


class _SourceFirst:
    """A meta-path finder that loads these packages' modules from their ``.py`` files."""

    @staticmethod
    def find_spec(
        fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(COMPILED_PACKAGES) or not path:
            return None
        name = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, name + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _build() -> tuple[float | None, list[str]]:
    """The compiled engine's build time (None: there is none) and the sources of its compiled modules."""
    root = os.path.dirname(os.path.abspath(__file__))
    built = None
    sources = []
    for package in ("engine", "bots", "analysis"):
        with os.scandir(os.path.join(root, package)) as entries:
            for entry in entries:
                if entry.name.endswith(_SUFFIX):
                    if "__mypyc" in entry.name:
                        built = entry.stat().st_mtime
                    else:
                        sources.append(os.path.join(root, package, entry.name[: -len(_SUFFIX)] + ".py"))
    return built, sources


def compiled_sources() -> list[str]:
    """The sources whose compiled module runs instead of them in this process (none on the pure-Python engine).
    Their doctests cannot be collected from the source file here; CI runs them on its pure-Python pass."""
    return _build()[1] if engine_build() == "native" else []


def edited_source() -> str | None:
    """The first compiled module's source newer than the compiled engine, or None when the build is current.

    The compiled code of every module is in one shared library (a module's own extension is a small shim
    that a rebuild may leave alone), so that library's time is the build's. All or none: compiled modules
    call each other's native code, so one stale module means source for all."""
    built, sources = _build()
    if built is None:
        return None
    for source in sources:
        if os.path.exists(source) and os.stat(source).st_mtime > built + _SLACK_S:
            return source
    return None


def use_pure_python() -> None:
    """Load the pure-Python modules under ``DURAK_PURE_PYTHON=1`` or when an extension is stale (once)."""
    if any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return
    if os.environ.get(PURE_ENV) != "1":
        edited = edited_source()
        if edited is None:
            return
        warnings.warn(
            f"{edited} is newer than the compiled engine: running the pure-Python engine (rebuild: pip install -e .)",
            stacklevel=2,
        )
    sys.meta_path.insert(0, _SourceFirst())


def engine_build() -> str:
    """``"native"`` if the engine's step function runs compiled, else ``"pure Python"``."""
    from bots_sdk.engine import game

    return "pure Python" if game.__file__ is None or game.__file__.endswith(".py") else "native"


use_pure_python()
