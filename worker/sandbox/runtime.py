"""The Python runtime a sandboxed bot runs on: a small read-only venv the worker builds, bound at ``/bot/venv``.

How a bot gets its runtime (decided here, see also bwrap.py):

* The interpreter is the host's system Python of the worker's minor version
  (``/usr/bin/python3.11`` on Debian 12), reached through the read-only ``/usr``
  bind. The worker's own interpreter may live where a slot uid cannot even look
  (pyenv under ``/root``, mode 0700), and ``/usr`` is bound anyway.
* Its packages are a *copy*, made once per worker start and cached by content:
  the distributions ``grpcio`` and ``protobuf`` with their dependency closure
  (from their installed RECORDs) and the installed ``bots_sdk`` package, all
  byte-compiled (the venv is read-only inside, so a bot must not pay for
  compiling grpc at every start). The copy is root-owned and world-readable,
  laid out as a venv (``pyvenv.cfg`` with ``home = /usr/bin``), so
  ``/bot/venv/bin/python`` inside the sandbox is an ordinary venv interpreter.
* Why not bind the worker's venv: it holds the dev tools, its editable install
  points into the repository (tests, secrets in a checkout), and its python is
  a symlink into ``/root``. A copy exposes exactly the SDK and its dependencies.

Per-bot venvs (``requirements`` in ``bot.toml``) come from the install phase
(docs/sandbox.md section 6) and will be bound at the same path instead of this one.
"""

from __future__ import annotations

import compileall
import hashlib
import importlib.metadata
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import bots_sdk

RUNTIME_DISTRIBUTIONS = ("grpcio", "protobuf")
IN_SANDBOX = "/bot/venv"


class RuntimeUnavailable(RuntimeError):
    """No interpreter the sandbox can run, or the packages cannot be found."""


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


def _fingerprint(python: Path, files: list[tuple[Path, str]]) -> str:
    digest = hashlib.sha256(f"{python}\n{sys.version_info[:2]}".encode())
    sdk = _sdk_dir()
    entries = [(str(src), rel) for src, rel in files]
    entries += [(str(p), "sdk") for p in sorted(sdk.rglob("*")) if "__pycache__" not in p.parts and p.is_file()]
    for source, label in entries:
        info = os.stat(source)
        digest.update(f"{label}\0{source}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def ensure_runtime(cache_dir: Path) -> Path:
    """The runtime venv for this worker under ``cache_dir`` (built on first use); returns its host path."""
    python = sandbox_python()
    files = _distribution_files(RUNTIME_DISTRIBUTIONS)
    target = cache_dir / f"runtime-{_fingerprint(python, files)}"
    if (target / "pyvenv.cfg").exists():
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
        shutil.copytree(_sdk_dir(), site / "bots_sdk", ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(site, quiet=2, workers=0)
        for path in [building, *building.rglob("*")]:
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
        os.replace(building, target)
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    return target
