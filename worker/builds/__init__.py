"""Pieces of the bot build step (worker/build.py): archive unpacking and the sandboxed install phase.

Kept apart from ``worker.build`` so each half can be read (and reviewed for
safety) on its own: ``archive`` never runs anything, ``install`` never parses
untrusted archives.
"""

from __future__ import annotations

import dataclasses

MB = 1000 * 1000


class BuildError(ValueError):
    """A bot that cannot be built; the message says what was wrong and where, for the bot's author."""


@dataclasses.dataclass(frozen=True)
class BuildLimits:
    """Limits of one build; the archive ones are checked before extracting and again while writing."""

    archive_bytes: int = 50 * MB
    """The archive file itself (compressed)."""
    total_bytes: int = 50 * MB
    """Sum of the uncompressed sizes of every file."""
    file_bytes: int = 20 * MB
    """One uncompressed file."""
    entries: int = 2000
    """Entries of the archive (files and directories), or of a bot folder."""
    depth: int = 16
    """Path components of one entry (``a/b/c.py`` is 3)."""
    name_chars: int = 255
    """One path component."""
    requirement_lines: int = 200
    requirements_bytes: int = 64 * 1024
    download_s: float = 300.0
    """``pip download`` on the host (network)."""
    wheelhouse_bytes: int = 500 * MB
    install_s: float = 300.0
    """The sandboxed ``pip install`` (no network)."""
    venv_bytes: int = 1500 * MB
    """The built venv, the runtime copy included."""
    memory_mb: int = 2048
    """The memory cgroup of a build step (MiB): every process of it together, and what it writes to its tmpfs
    folders (``/tmp``, the capped ``/bot/src``). A compiler's or a build script's allocation past it ends the
    step (the OOM killer, inside the group only) and the build fails saying so."""
    install_memory_mb: int = 2048
    """RLIMIT_AS of each process of a build step, a backstop (pip resolving and unzipping large wheels)."""
    install_file_mb: int = 1024
    """RLIMIT_FSIZE of the install: one installed file (numpy's bundled BLAS is ~30 MB)."""
    install_tmp_mb: int = 512


__all__ = ["MB", "BuildError", "BuildLimits"]
