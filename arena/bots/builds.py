"""A version's bot on this worker host: built from the archive in the database into the local store.

The store is per host and keyed by content hash (worker/build.py), so the first
match of a version on a new worker host builds it and every later one finds it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.conf import settings

from arena.bots.models import BotVersion, VersionArchive
from worker.build import BuiltBot, build
from worker.builds import BuildLimits


def version_build(version: BotVersion) -> BuiltBot:
    """Build (or find) ``version`` in ``ARENA_BOT_STORE``; raises ``worker.builds.BuildError`` for a bad bot."""
    archive = VersionArchive.objects.filter(version=version).first()
    if archive is None:
        raise ValueError(f"{version}: a reference bot has nothing to build")
    store = Path(settings.ARENA_BOT_STORE)
    store.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="durak-version-") as scratch:
        upload = Path(scratch) / (version.archive_name or f"version-{version.pk}.zip")
        upload.write_bytes(bytes(archive.data))
        return build(upload, store, limits=BuildLimits(archive_bytes=settings.ARENA_MAX_UPLOAD_BYTES,
                                                        memory_mb=settings.ARENA_BUILD_MEMORY_MB))


def version_bot_argument(version: BotVersion) -> str:
    """What the referee's match spec names for ``version``: a reference bot's name or its store entry."""
    if version.reference:
        return version.reference
    return str(version_build(version).path)
