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
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger("worker.build")
NO_SPACE = "No space left on device"
"""How pip (and anything else) reports the write the cap refused (ENOSPC)."""
_warned: list[str] = []


def _mount(path: Path, limit_bytes: int) -> str | None:
    """Mount a tmpfs of ``limit_bytes`` on ``path``; None, or why it could not."""
    if os.geteuid() != 0:
        return "not root"
    options = f"size={max(limit_bytes, 4096)},mode=0755,nosuid,nodev"
    try:
        result = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "durak-build", str(path)],
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
