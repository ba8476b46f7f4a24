"""Modules a bot's start imports but does not use, run at their first use instead.

A Python bot's cold start to SERVING is mostly imports (docs/sandbox.md, section 3), and some of them run
only because another module names them at its top for a path that a served bot never takes:

- ``inspect`` (with ``ast``, ``dis`` and ``tokenize``): ``dataclasses`` calls it for one thing, a
  docstring for a dataclass that has none;
- ``google.protobuf.internal.python_message`` (with ``text_format``, its decoder and its encoder):
  protobuf's pure-Python backend, which ``descriptor_pool`` and ``builder`` import whichever backend
  runs; under upb, the one the runtime has, nothing calls it;
- ``calendar`` (with ``locale``): protobuf's ``Timestamp`` helpers call it inside functions only;
- ``linecache`` (with ``tokenize``) and ``textwrap``: ``traceback`` (which ``logging`` imports) calls them
  to print a traceback, and not before.

``defer()``, run when ``bots_sdk/__init__.py`` imports this module (first of all), puts a finder first on
``sys.meta_path``: the first ``import`` of one of these names gets a module that runs its code at its first
attribute access. Nothing changes but when that code runs. Any later ``import NAME`` of an already imported
module reads its ``__spec__`` (CPython checks whether it is still initialising), so the deferral lasts only
until a second module imports it; a process that imported them before ``bots_sdk`` keeps them as they are.

Why not ``importlib.util.LazyLoader``, which does the same: in Python 3.11 its module turns into a plain
module before its code has run, so a second thread that touches it meanwhile finds it half empty (CPython
issue gh-114763, fixed in 3.12.3). Here the first access runs the code under a lock and the module changes
its class only when the code has run; another thread waits for it.
"""

from __future__ import annotations

import importlib.machinery
import sys
import threading
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import importlib.abc

DEFERRED = frozenset({"inspect", "calendar", "linecache", "textwrap", "google.protobuf.internal.python_message"})

_locks: dict[str, threading.RLock] = {}
"""Each deferred module's lock, held while its code runs: other threads' first accesses wait, the running one's
pass (one lock per module, so that two deferred modules never wait for each other)."""
_running: set[str] = set()
"""The deferred modules whose code is running (in the thread that holds the module's lock)."""


class _Deferred(types.ModuleType):
    """A module whose code has not run yet: the first attribute access runs it, then it is a plain module."""

    def __getattribute__(self, name: str) -> object:
        spec = object.__getattribute__(self, "__dict__")["__spec__"]
        with _locks[spec.name]:
            # Its own code's accesses while it runs (the loader reads __name__ and __dict__) see what has run
            # so far, as in any import; a failed run leaves it deferred, to run again at the next access.
            if type(self) is _Deferred and spec.name not in _running:
                _running.add(spec.name)
                try:
                    spec.loader.exec_module(self)
                    self.__class__ = types.ModuleType  # type: ignore[assignment]
                finally:
                    _running.discard(spec.name)
        return object.__getattribute__(self, name)


class _DeferringLoader:
    """Creates the module as its own loader would and leaves running its code to the first access.

    (Neither this nor the finder derives from ``importlib.abc``: importing it imports ``importlib.resources``,
    ``pathlib``, ``tempfile`` and more, which cost more than what is deferred here.)"""

    def __init__(self, loader: importlib.machinery.SourceFileLoader | importlib.machinery.SourcelessFileLoader):
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        """The default module, as for any module loaded from a Python file."""

    def exec_module(self, module: types.ModuleType) -> None:
        assert module.__spec__ is not None
        module.__spec__.loader = module.__loader__ = self.loader
        _locks[module.__spec__.name] = threading.RLock()
        module.__class__ = _Deferred


class _DeferringFinder:
    """Finds ``names`` as the finders after it would, and defers the ones loaded from Python files."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        for finder in sys.meta_path[sys.meta_path.index(self) + 1:]:
            find = getattr(finder, "find_spec", None)
            spec: importlib.machinery.ModuleSpec | None = find(fullname, path, target) if find else None
            if spec is not None:
                if isinstance(spec.loader, (importlib.machinery.SourceFileLoader,
                                            importlib.machinery.SourcelessFileLoader)):
                    spec.loader = cast("importlib.abc.Loader", _DeferringLoader(spec.loader))
                return spec
        return None


def defer(names: frozenset[str] = DEFERRED) -> None:
    """Defer the first import of each of ``names`` in this process (those already imported stay as they are)."""
    if not any(isinstance(finder, _DeferringFinder) and finder.names == names for finder in sys.meta_path):
        sys.meta_path.insert(0, _DeferringFinder(names))


def not_run() -> list[str]:
    """The deferred modules imported in this process whose code has not run (none has been used)."""
    return sorted(name for name, module in sys.modules.items() if type(module) is _Deferred)


defer()
