"""The bot build step: an uploaded archive (or a folder) becomes a stored, read-only, ready-to-play bot.

``build(upload, store_dir)``:

1. unpacks the upload safely (worker/builds/archive.py: format by content,
   every entry checked before and while extracting, links/devices refused,
   size/count/depth limits) or copies a folder under the same rules, and
   validates ``bot.toml`` with ``bots_sdk.botdir.load_spec``;
2. for a language of worker/builds/languages.py, fetches its dependencies on the host (no script runs)
   and runs its build steps in a bwrap sandbox without network (worker/builds/compile.py) on a copy of
   the folder, which then becomes ``src/``; a build log is stored as ``build.log``;
   for Python, if the manifest names ``requirements``, runs the install phase
   (worker/builds/install.py): wheels downloaded on the host, binary only,
   then installed offline inside a bwrap sandbox into a venv that lives at
   ``/bot/venv`` in the sandbox, seeded with the runtime (grpcio, protobuf, hpack,
   bots_sdk). A bot without requirements gets no venv: it plays on the shared
   runtime (worker/sandbox/runtime.py);
3. stores the result as ``<store>/<name>/<version>-<hash>/`` holding ``src/``,
   ``venv/`` (if any), ``build.json`` and ``install.log`` or ``build.log``, root-owned and
   read-only (``chmod -R a-w``), directories a+rX so slot uids can bind them.

The hash covers the uploaded files (and the runtime of a venv, the toolchain's version of a language build),
so a rebuild of the same upload is a cache hit, and a changed upload under the
same version never overwrites the stored one. Everything is built in a hidden
``.building-*`` dir inside the store and renamed into place at the end: a failed
build leaves nothing, a concurrent identical build is harmless.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from pathlib import Path

from bots_sdk.botdir import BotSpec
from worker.builds import BuildError, BuildLimits
from worker.builds.archive import check_manifest, copy_folder, unpack
from worker.builds.compile import run_steps
from worker.builds.install import (
    IndexUnreachable,
    download_wheels,
    run_install,
    runtime_constraints,
    sanitize_requirements,
    seal,
)
from worker.builds.languages import RECIPES, Recipe
from worker.builds.space import capped, sweep_stale
from worker.sandbox.base import Sandbox, SandboxError
from worker.sandbox.bwrap import BwrapSandbox
from worker.sandbox.runtime import RuntimeUnavailable

BUILD_INFO = "build.json"
STALE_MARGIN_S = 600.0
"""A ``.building-*`` folder untouched for the download and install limits plus this is abandoned."""


@dataclasses.dataclass(frozen=True)
class BuiltBot:
    """A stored bot: bind ``src`` at /bot/src and ``venv`` (or the shared runtime when None) at /bot/venv."""

    name: str
    version: str
    digest: str
    path: Path
    """The store entry ``<store>/<name>/<version>-<hash>``."""
    src: Path
    venv: Path | None
    spec: BotSpec
    """The manifest, with ``folder`` = ``src`` and ``venv`` = ``venv``: ready for the sandbox."""
    requirements: tuple[str, ...] = ()
    wheels: tuple[str, ...] = ()
    cached: bool = False
    """True when an identical build was already in the store."""


def content_digest(folder: Path, extra: str = "") -> str:
    """sha256 over the relative paths, executable bits and bytes of every file of ``folder`` (plus ``extra``)."""
    digest = hashlib.sha256(extra.encode())
    for path in sorted(folder.rglob("*")):
        if path.is_dir():
            continue
        info = path.lstat()
        relative = path.relative_to(folder).as_posix()
        digest.update(f"\0{relative}\0{info.st_mode & 0o111:o}\0{info.st_size}\0".encode())
        with open(path, "rb") as file:
            while chunk := file.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def version_slug(version: str) -> str:
    """A file-name-safe form of the free-text version (the hash beside it keeps entries distinct)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", version).lstrip(".")[:40]
    return slug or "_"


def _check_reachable(path: Path) -> None:
    """The install sandbox runs as a slot uid, which must be able to traverse every parent of ``path``."""
    for parent in [path, *path.parents]:
        if not parent.stat().st_mode & stat.S_IXOTH:
            raise SandboxError(
                f"{path}: the sandbox's uids cannot reach it ({parent} is not o+x); "
                "keep the bot store under world-traversable folders"
            )


def load_stored(entry: Path) -> BuiltBot:
    """A built bot from its store entry (a folder holding ``build.json``, ``src/`` and maybe ``venv/``)."""
    info = json.loads((entry / BUILD_INFO).read_text())
    spec, _ = check_manifest(entry / "src", entry.name)
    venv = entry / "venv" if (entry / "venv").is_dir() else None
    return BuiltBot(
        name=info["name"], version=info["version"], digest=info["digest"], path=entry, src=entry / "src",
        venv=venv, spec=dataclasses.replace(spec, venv=venv), requirements=tuple(info["requirements"]),
        wheels=tuple(info["wheels"]), cached=True,
    )


def _build_sandbox(sandbox: Sandbox | None, what: str) -> BwrapSandbox:
    if sandbox is None:
        return BwrapSandbox()
    if not isinstance(sandbox, BwrapSandbox):
        raise SandboxError(f"{what} only in the bwrap sandbox, not {sandbox.name!r}")
    return sandbox


def build(
    upload: Path, store_dir: Path, sandbox: Sandbox | None = None, limits: BuildLimits | None = None,
) -> BuiltBot:
    """Build the bot ``upload`` (a zip, a tar.gz or a folder) into ``store_dir``; see the module docstring.

    ``sandbox`` runs the install phase of a bot with requirements and the build steps of another language
    (default: ``BwrapSandbox()`` with the worker's default dirs; its slot pool, runtime and seccomp setting
    are reused). Raises ``BuildError``
    for anything wrong with the bot (``IndexUnreachable`` when the package index cannot be reached)."""
    limits = limits or BuildLimits()
    upload = Path(upload)
    store_dir = Path(store_dir)
    store_dir.mkdir(parents=True, exist_ok=True)
    sweep_stale(store_dir, limits.download_s + limits.install_s + STALE_MARGIN_S)
    work = Path(tempfile.mkdtemp(prefix=".building-", dir=store_dir))
    try:
        work.chmod(0o755)
        src = work / "src"
        if upload.is_dir():
            copy_folder(upload, src, limits)
        else:
            unpack(upload, src, limits)
        spec, requirements_file = check_manifest(src, upload.name, built=False)
        recipe = RECIPES.get(spec.language)
        lines: list[str] = []
        wheels: list[str] = []
        runtime_tag = ""
        install_sandbox: BwrapSandbox | None = None
        if requirements_file is not None:
            text = (src / requirements_file).read_text(encoding="utf-8", errors="replace")
            lines = sanitize_requirements(text, limits, f"{upload.name}: {requirements_file}")
        if lines:
            install_sandbox = _build_sandbox(sandbox, "requirements are installed")
            runtime_tag = install_sandbox.runtime.name
        if recipe is not None:
            recipe.check_tools()
            install_sandbox = _build_sandbox(sandbox, f"{spec.language} bots are built")
            runtime_tag = recipe.toolchain_tag()
        digest = content_digest(src, extra=runtime_tag)
        entry = store_dir / spec.name / f"{version_slug(spec.version)}-{digest[:16]}"
        if (entry / BUILD_INFO).is_file():
            return load_stored(entry)
        if install_sandbox is not None and recipe is not None:
            _compile(install_sandbox, work, recipe, limits)
            _check_unchanged(spec, check_manifest(src, upload.name)[0])
        elif install_sandbox is not None:
            wheels = _install(install_sandbox, work, lines, limits)
        (work / BUILD_INFO).write_text(json.dumps({
            "name": spec.name, "version": spec.version, "language": spec.language, "entry": list(spec.entry),
            "digest": digest, "requirements": lines, "wheels": wheels,
            "runtime": None if recipe is not None else runtime_tag or None,
            "toolchain": runtime_tag if recipe is not None else None,
            "python": "{}.{}".format(*sys.version_info[:2]),
        }, indent=1) + "\n")
        if (work / "venv").exists():
            seal(work / "venv", limits.venv_bytes, label="venv")
        seal(work)
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.parent.chmod(0o755)
        try:
            os.rename(work, entry)
        except OSError:
            if (entry / BUILD_INFO).is_file():  # the same bot was built meanwhile by another worker
                return load_stored(entry)
            raise
        built = load_stored(entry)
        return dataclasses.replace(built, cached=False)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def _compile(sandbox: BwrapSandbox, work: Path, recipe: Recipe, limits: BuildLimits) -> None:
    """Fetch the dependencies on the host, run the build steps in the sandbox on a copy of ``work/src``, and
    make the built copy ``work/src``. The dependencies and the copy being built each live in a folder capped
    at its limit, as the wheels and the venv of a Python build do."""
    src = work / "src"
    with (capped(work / "deps", limits.wheelhouse_bytes) as deps,
          capped(work / "build-space", limits.venv_bytes) as space):
        if recipe.fetch is not None:
            recipe.fetch(src, deps, limits)
        shutil.copytree(src, space, dirs_exist_ok=True)  # ``space`` may be a capped mount point
        _check_reachable(work)
        run_steps(sandbox, recipe, space, deps, limits, work / "build.log")
        shutil.rmtree(src)
        shutil.copytree(space, src)


def _check_unchanged(before: BotSpec, after: BotSpec) -> None:
    """The build may add files, not rename the bot or change how it starts."""
    if (before.name, before.version, before.language, before.entry) != (after.name, after.version, after.language,
                                                                         after.entry):
        raise BuildError("the build changed bot.toml; the arena stores the bot the uploaded bot.toml describes")


def _install(sandbox: BwrapSandbox, work: Path, lines: list[str], limits: BuildLimits) -> list[str]:
    """Download the wheels, install them in the sandbox, copy the venv to ``work/venv``; returns the wheels.

    The wheels, pip's temporary files and the venv being installed each live in a folder capped at its limit
    (worker/builds/space.py), so a requirement too large for the build stops while it is written."""
    requirements_dir = work / "req"
    requirements_dir.mkdir(mode=0o755)
    (requirements_dir / "requirements.txt").write_text("\n".join(lines) + "\n")
    (requirements_dir / "constraints.txt").write_text("\n".join(runtime_constraints(sandbox.runtime)) + "\n")
    try:
        with (capped(work / "wheels", limits.wheelhouse_bytes) as wheelhouse,
              capped(work / "pip-tmp", limits.wheelhouse_bytes) as pip_tmp,
              capped(work / "venv-space", limits.venv_bytes) as venv_space):
            wheels = download_wheels(requirements_dir / "requirements.txt", requirements_dir / "constraints.txt",
                                     wheelhouse, limits, pip_tmp)
            for path in [*requirements_dir.iterdir(), *wheelhouse.iterdir()]:
                path.chmod(0o644)
            _check_reachable(work)
            run_install(sandbox, venv_space, wheelhouse, requirements_dir, limits, work / "install.log")
            shutil.copytree(venv_space, work / "venv", symlinks=True)
    finally:
        shutil.rmtree(requirements_dir, ignore_errors=True)
    return wheels


def main(argv: list[str] | None = None) -> int:
    """``python -m worker.build``: the arena's build, by hand; prints the stored entry's path last."""
    parser = argparse.ArgumentParser(
        prog="python -m worker.build", description="Build a bot folder or archive exactly as the arena does "
        "(dependencies fetched on this host, every build step in the bwrap sandbox without network; run as root) "
        "and print the stored entry's path as the last line, which `python -m worker.referee` plays and "
        "`durak check` checks.")
    parser.add_argument("upload", type=Path, metavar="FOLDER_OR_ARCHIVE")
    parser.add_argument("--store", type=Path, required=True, help="the bot store to build into")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        built = build(args.upload, args.store)
    except (BuildError, SandboxError, RuntimeUnavailable, OSError) as error:
        print(f"python -m worker.build: {args.upload}: {error}", file=sys.stderr)
        return 1
    how = "already in the store" if built.cached else f"built in {time.perf_counter() - started:.1f} s"
    print(f"{built.name} {built.version} ({built.spec.language}): {how}", file=sys.stderr)
    print(built.path)
    return 0


__all__ = ["BuildError", "BuildLimits", "BuiltBot", "IndexUnreachable", "build", "content_digest", "unpack"]

if __name__ == "__main__":
    sys.exit(main())
