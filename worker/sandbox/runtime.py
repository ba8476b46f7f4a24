"""The Python runtime a sandboxed bot runs on: a small read-only venv the worker builds, bound at ``/bot/venv``.

How a bot gets its runtime (decided here, see also bwrap.py):

* The interpreter is the host's system Python of the worker's minor version
  (``/usr/bin/python3.11`` on Debian 12), reached through the read-only ``/usr``
  bind. The worker's own interpreter may live where a slot uid cannot even look
  (pyenv under ``/root``, mode 0700), and ``/usr`` is bound anyway.
* Its packages are a *copy*, made once per worker start and cached by content:
  the distributions ``grpcio``, ``protobuf`` and ``hpack`` (the SDK's HTTP/2 headers) with their dependency closure
  (from their installed RECORDs) and the Python files of the installed
  ``bots_sdk`` package with its compiled engine, if built (not its examples, their ``node_modules``, templates or
  caches, so ``npm ci`` in an example changes nothing), all byte-compiled
  (the venv is read-only inside, so a bot must not pay for compiling grpc at
  every start). The copy is root-owned and world-readable,
  laid out as a venv (``pyvenv.cfg`` with ``home = /usr/bin``), so
  ``/bot/venv/bin/python`` inside the sandbox is an ordinary venv interpreter.
* Why not bind the worker's venv: it holds the dev tools, its editable install
  points into the repository (tests, secrets in a checkout), and its python is
  a symlink into ``/root``. A copy exposes exactly the SDK and its dependencies.

It is built in the worker's main process before it takes work
(``worker.health.prepare``, from a Celery start-up signal), never inside a
task: a task runs in a daemonic pool process, where ``compileall`` cannot fork
its workers, and a build there would make every match wait on it. Once a
process has called ``forbid_builds`` (every task-running process does),
``ensure_runtime`` raises ``RuntimeStale`` for a missing or stale runtime; the
match goes back to the queue and the worker's health check says why.

Per-bot venvs (``requirements`` in ``bot.toml``) come from the install phase
(docs/sandbox.md section 6) and will be bound at the same path instead of this one.

Every change of the SDK or its packages makes a new runtime (about 25 MB), and the old ones are removed
when nothing uses them: a process that uses a runtime holds a shared ``flock`` on its ``pyvenv.cfg`` for
as long as it lives (its forks, the Celery pool's processes, share it), and a worker at start removes every
other runtime whose lock it can take exclusively (``prune_runtimes``). A worker of the last release still
running during a rolling upgrade keeps its runtime whatever its age. The lock is what makes a removal safe;
a day without use (``KEEP_UNUSED_S``, from the ``pyvenv.cfg``'s time, which each new user touches) is only
what makes it worth it: two checkouts or releases taking turns on one host do not rebuild each other's.
"""

from __future__ import annotations

import compileall
import contextlib
import fcntl
import hashlib
import importlib.metadata
import os
import re
import shutil
import sys
import tempfile
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import bots_sdk

RUNTIME_DISTRIBUTIONS = ("grpcio", "protobuf", "hpack")
IN_SANDBOX = "/bot/venv"


class RuntimeUnavailable(RuntimeError):
    """No interpreter the sandbox can run, or the packages cannot be found."""


class RuntimeStale(RuntimeUnavailable):
    """The runtime is missing or out of date in a process that must not build it (a task's)."""


_builds_allowed = True
_held: dict[Path, int] = {}
"""The runtimes this process uses, each with the descriptor of its ``pyvenv.cfg`` that holds the shared lock
(never closed: it goes with the process, and a fork inherits it)."""
KEEP_UNUSED_S = 86400.0
"""How long a runtime no process holds is kept after its last use began."""
LEFTOVER_S = 3600.0
"""How old a build or a removal under way (``.building-*``, ``.removing-*``) must be to count as one that died."""


def forbid_builds() -> None:
    """From now on this process (and its forks) never builds a runtime: ``ensure_runtime`` raises instead."""
    global _builds_allowed
    _builds_allowed = False


def sandbox_python() -> Path:
    """The host interpreter a bot runs on: under /usr (bound into the sandbox), same minor version as ours."""
    major, minor = sys.version_info[:2]
    candidates = [Path(sys.base_prefix) / "bin" / f"python{major}.{minor}", Path(f"/usr/bin/python{major}.{minor}"),
                  Path(f"/usr/local/bin/python{major}.{minor}")]
    for candidate in candidates:
        resolved = candidate.resolve()
        if resolved.is_file() and str(resolved).startswith("/usr/") and os.access(resolved, os.X_OK):
            return resolved
    raise RuntimeUnavailable(
        f"no python{major}.{minor} under /usr for the sandbox (the worker's own is {sys.executable}); "
        f"install python{major}.{minor} from the distribution (apt-get install -y python{major}.{minor})"
    )


def _requirement_names(requires: list[str] | None) -> list[str]:
    names = []
    for requirement in requires or []:
        if "extra ==" in requirement.replace('"', " ").replace("'", " ") or "extra==" in requirement:
            continue
        match = re.match(r"[A-Za-z0-9._-]+", requirement)
        if match:
            names.append(match.group(0))
    return names


def _distribution_files(names: tuple[str, ...]) -> list[tuple[Path, str]]:
    """(absolute source, path relative to site-packages) for the closure of ``names``."""
    seen: set[str] = set()
    todo = list(names)
    files: list[tuple[Path, str]] = []
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            raise RuntimeUnavailable(f"{name} is not installed in the worker's environment") from None
        todo.extend(_requirement_names(dist.requires))
        for file in dist.files or []:
            relative = str(file)
            if relative.startswith(("..", "/")) or "__pycache__" in relative:
                continue
            files.append((Path(str(file.locate())), relative))
    return files


def _sdk_dir() -> Path:
    return Path(bots_sdk.__file__).parent


SKIPPED_SDK_DIRS = frozenset({"__pycache__", "examples", "node_modules", "templates"})


def sdk_files() -> list[Path]:
    """The SDK's Python files a bot imports and the native engine's extensions (setup.py), relative to its
    package folder (sorted): what the runtime holds, so a sandboxed bot runs the engine build the worker has."""
    sdk = _sdk_dir()
    return sorted(
        path.relative_to(sdk) for path in sdk.rglob("*")
        if path.name.endswith((".py", EXTENSION_SUFFIXES[0]))
        and not SKIPPED_SDK_DIRS.intersection(path.relative_to(sdk).parts[:-1]) and path.is_file()
    )


def _fingerprint(python: Path, files: list[tuple[Path, str]]) -> str:
    """The interpreter, the installed distributions (by path, size and time) and the SDK's Python files (by
    content: a checkout that only touches them changes nothing)."""
    digest = hashlib.sha256(f"{python}\n{sys.version_info[:2]}".encode())
    for source, label in files:
        info = os.stat(source)
        digest.update(f"{label}\0{source}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    sdk = _sdk_dir()
    for relative in sdk_files():
        digest.update(f"sdk\0{relative}\0".encode())
        digest.update(hashlib.sha256((sdk / relative).read_bytes()).digest())
    return digest.hexdigest()[:16]


def runtime_path(cache_dir: Path) -> Path:
    """Where the current runtime lives (or would) under ``cache_dir``; it exists once ``pyvenv.cfg`` does."""
    return cache_dir / f"runtime-{_fingerprint(sandbox_python(), _distribution_files(RUNTIME_DISTRIBUTIONS))}"


def runtime_current(cache_dir: Path) -> bool:
    """Whether the runtime of the code installed now is built (the health check asks this)."""
    return (runtime_path(cache_dir) / "pyvenv.cfg").exists()


def ensure_runtime(cache_dir: Path) -> Path:
    """The runtime venv for this worker under ``cache_dir``, built here unless ``forbid_builds`` was called
    (then a missing or stale one raises ``RuntimeStale``); returns its host path."""
    if not _builds_allowed:
        target = runtime_path(cache_dir)
        if not hold(target):
            raise RuntimeStale(
                f"the sandbox runtime {target.name} is missing or stale (the SDK or its packages changed since the "
                "worker started); a worker builds it only at start: restart it, or run python -m worker.health "
                "--prepare"
            )
        return target
    return build_runtime(cache_dir)


def build_runtime(cache_dir: Path) -> Path:
    """Build the runtime under ``cache_dir`` unless it is there already; returns its host path. Call it from a
    main process (``compileall`` forks workers, which a daemonic pool process may not)."""
    python = sandbox_python()
    files = _distribution_files(RUNTIME_DISTRIBUTIONS)
    target = cache_dir / f"runtime-{_fingerprint(python, files)}"
    if hold(target):
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(cache_dir, 0o755)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=cache_dir))
    try:
        major, minor = sys.version_info[:2]
        site = building / "lib" / f"python{major}.{minor}" / "site-packages"
        site.mkdir(parents=True)
        (building / "bin").mkdir()
        for name in ("python", "python3", f"python{major}.{minor}"):
            (building / "bin" / name).symlink_to(python)
        (building / "pyvenv.cfg").write_text(
            f"home = {python.parent}\ninclude-system-site-packages = false\nversion = {major}.{minor}\n"
        )
        for source, relative in files:
            destination = site / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
        sdk = _sdk_dir()
        for module in sdk_files():
            copied = site / "bots_sdk" / module
            copied.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(sdk / module, copied)
        compileall.compile_dir(site, quiet=2, workers=0)
        for path in [building, *building.rglob("*")]:
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
        os.replace(building, target)
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    if not hold(target):
        raise RuntimeUnavailable(f"the sandbox runtime {target} was removed as soon as it was built")
    return target


def hold(target: Path) -> bool:
    """Take the shared lock that keeps ``target`` from being pruned, for the rest of this process's life;
    False if it is not a complete runtime (missing, or removed while this waited for the lock)."""
    config = target / "pyvenv.cfg"
    if target in _held:
        if config.exists():
            return True
        os.close(_held.pop(target))  # removed by hand: as if it had never been built
    try:
        fd = os.open(config, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    fcntl.flock(fd, fcntl.LOCK_SH)  # waits only while a prune holds it, and that prune then removes it
    try:
        current = os.stat(config).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        current = False
    if not current:
        os.close(fd)
        return False
    with contextlib.suppress(OSError):  # its last use began now (a runtime another user built may refuse it)
        os.utime(config)
    _held[target] = fd
    return True


def prune_runtimes(cache_dir: Path) -> list[str]:
    """Remove every runtime under ``cache_dir`` that no process holds and none began to use for
    ``KEEP_UNUSED_S``, and builds or removals that died; the names removed. Call it after building this
    worker's own (which it then holds)."""
    removed = [path.name for path in sorted(cache_dir.glob("runtime-*"))
               if path not in _held and path.is_dir() and _remove_unused(path)]
    for leftover in [*cache_dir.glob(".building-*"), *cache_dir.glob(".removing-*")]:
        with contextlib.suppress(FileNotFoundError):
            if time.time() - leftover.stat().st_mtime > LEFTOVER_S:
                shutil.rmtree(leftover, ignore_errors=True)
                removed.append(leftover.name)
    return removed


def _remove_unused(path: Path) -> bool:
    """Remove the runtime at ``path`` if nothing holds it and nothing began to use it for a while; whether it did.
    A folder without ``pyvenv.cfg`` is no runtime anything can use, and would block a build of that name."""
    try:
        fd: int | None = os.open(path / "pyvenv.cfg", os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        fd = None
    try:
        if fd is not None:
            if time.time() - os.fstat(fd).st_mtime < KEEP_UNUSED_S:
                return False
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False  # in use
        # Out of its name first, under the lock: whoever opens it from now on finds nothing and builds anew.
        doomed = Path(tempfile.mkdtemp(prefix=f".removing-{path.name}-", dir=path.parent))
        os.replace(path, doomed / path.name)
    finally:
        if fd is not None:
            os.close(fd)
    shutil.rmtree(doomed, ignore_errors=True)
    return True
