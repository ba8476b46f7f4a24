"""Size-capped scratch folders for the install phase, so that no build can fill the worker's disk.

The wheels ``pip download`` streams, pip's temporary files, and the venv the sandboxed install fills each live
on a tmpfs mounted with ``size=`` the build's limit: the kernel stops the write that would cross it (ENOSPC),
while the file is still being streamed, whatever wrote it. Only the finished venv is copied into the bot store.

Mounting needs root (CAP_SYS_ADMIN; compose's worker is privileged). Where the mount is refused the folders
are plain ones on the store's disk: the build still works, the limits are then checked only after each step
(and per file by RLIMIT_FSIZE), and a warning says so once per process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger("worker.build")
SOURCE = "durak-build"
"""The source name of the capped mounts, how ``sweep_stale`` tells them from anything else mounted."""
NO_SPACE = "No space left on device"
"""How pip (and anything else) reports the write the cap refused (ENOSPC)."""
_warned: list[str] = []


def _mount(path: Path, limit_bytes: int) -> str | None:
    """Mount a tmpfs of ``limit_bytes`` on ``path``; None, or why it could not."""
    if os.geteuid() != 0:
        return "not root"
    options = f"size={max(limit_bytes, 4096)},mode=0755,nosuid,nodev"
    try:
        result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, SOURCE, str(path)],
                                capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    return None if result.returncode == 0 else (result.stderr.strip() or f"mount exited {result.returncode}")


def _unmount(path: Path) -> None:
    """Unmount ``path`` (lazily if a straggler still holds it: the memory goes with its last user)."""
    if subprocess.run(["umount", str(path)], capture_output=True, timeout=30, check=False).returncode != 0:
        subprocess.run(["umount", "--lazy", str(path)], capture_output=True, timeout=30, check=False)


@contextlib.contextmanager
def capped(path: Path, limit_bytes: int) -> Iterator[Path]:
    """Create the folder ``path``, capped at ``limit_bytes`` when the host allows (else a warning); yields it.

    On exit the folder and all it holds are gone (copy out what is to be kept before)."""
    path.mkdir(mode=0o755)
    problem = _mount(path, limit_bytes)
    if problem is not None and problem not in _warned:
        _warned.append(problem)
        log.warning("build folders are not size-capped on this host (mounting a tmpfs failed: %s); a build's "
                    "downloads and venv are measured only after each step", problem)
    try:
        yield path
    finally:
        if problem is None:
            _unmount(path)
        shutil.rmtree(path, ignore_errors=True)


def _capped_mounts() -> list[Path]:
    """The mount points of this mount namespace's capped build folders (``/proc/self/mountinfo``)."""
    found = []
    with open("/proc/self/mountinfo") as mounts:
        for line in mounts:
            mine, _, fs = line.partition(" - ")
            fields = fs.split()
            if len(fields) >= 2 and fields[0] == "tmpfs" and fields[1] == SOURCE:
                found.append(Path(mine.split()[4].replace("\\040", " ")))
    return found


def sweep_stale(store_dir: Path, older_than_s: float) -> list[Path]:
    """Remove the ``.building-*`` folders of ``store_dir`` untouched for ``older_than_s`` (longer than any build
    may run), unmounting their capped folders first; returns what was removed.

    A worker killed mid-build (SIGKILL, a crash) leaves its build folder behind, and with it a tmpfs that holds
    memory until it is unmounted: the next build on the store clears them."""
    cutoff = time.time() - older_than_s
    stale = [path for path in store_dir.glob(".building-*") if path.lstat().st_mtime < cutoff]
    for work in stale:
        for mount in _capped_mounts():
            if mount.is_relative_to(work):
                _unmount(mount)
        shutil.rmtree(work, ignore_errors=True)
    if stale:
        log.warning("removed %d abandoned build folder(s) from %s", len(stale), store_dir)
    return stale
