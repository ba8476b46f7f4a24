"""Broker transport options: Redis in production, a folder when no broker is configured (a first run).

Redis gets the redelivery settings the referee depends on (a running match is
never handed to a second worker; a dead worker's matches come back). The
filesystem transport (kombu's, no server) keeps messages as files in one
folder shared by the web process, the workers and beat on one machine; it has
no redelivery, which is acceptable for a laptop arena and never used in
production (compose sets ``CELERY_BROKER_URL``).
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

from kombu.transport import filesystem

MATCH_TIME_LIMIT_S = int(os.environ.get("DURAK_MATCH_TIME_LIMIT_S", 30 * 60))
VISIBILITY_TIMEOUT_S = int(os.environ.get("DURAK_VISIBILITY_TIMEOUT_S", 2 * MATCH_TIME_LIMIT_S))
RESTORE_INTERVAL_S = int(os.environ.get("DURAK_RESTORE_INTERVAL_S", 60))
FILESYSTEM = "filesystem://localhost/"


def transport_options(broker_url: str, folder: Path | None = None) -> dict[str, Any]:
    """The ``broker_transport_options`` for ``broker_url``; ``folder`` holds a filesystem broker's messages."""
    if broker_url.startswith("filesystem://"):
        if folder is None:
            raise ValueError("a filesystem broker needs a folder for its messages")
        queue, control = folder / "queue", folder / "control"  # kombu's default control folder is the cwd
        queue.mkdir(parents=True, exist_ok=True)
        control.mkdir(parents=True, exist_ok=True)
        return {"data_folder_in": str(queue), "data_folder_out": str(queue), "store_processed": False,
                "control_folder": str(control)}
    return {
        "visibility_timeout": VISIBILITY_TIMEOUT_S,
        # Unacked matches of a dead worker are swept back every interval x throttle seconds
        # (kombu's default: 10 x 10 s); lower it to recover faster.
        "unacked_restore_interval": RESTORE_INTERVAL_S,
        "unacked_restore_throttle": 1,
    }


class _FolderChannel(filesystem.Channel):
    """kombu's folder channel, with each exchange table read and written under its lock from the moment it exists.

    kombu's own creates a table's file, then locks it, then writes it: a second process binding a queue to the same
    exchange in between reads an empty file, fails to parse it, and its worker dies at start. ``durak-arena``
    starts its workers at once, and they bind to the same exchanges (the ``tournament`` queue, remote control's
    ``celery.pidbox``); one of its first runs died of it.
    """

    def _table(self, exchange: str) -> Path:
        """The exchange's table file, named and checked as kombu does (its type stubs leave the method out)."""
        path: Path = self._exchange_file(exchange)  # type: ignore[attr-defined]
        return path

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str | None, queue: str) -> None:
        self.control_folder.mkdir(exist_ok=True)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        descriptor = os.open(self._table(exchange), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        with os.fdopen(descriptor, "rb+", buffering=0) as table:
            fcntl.flock(table, fcntl.LOCK_EX)  # released when the file is closed
            queues = [filesystem.exchange_queue_t(*bound) for bound in json.loads(table.read() or b"[]")]
            if entry not in queues:
                queues.insert(0, entry)
                table.seek(0)
                table.truncate()
                table.write(json.dumps(queues).encode())

    def get_table(self, exchange: str) -> list[Any]:
        try:
            with open(self._table(exchange), "rb") as table:
                fcntl.flock(table, fcntl.LOCK_SH)
                return [filesystem.exchange_queue_t(*bound) for bound in json.loads(table.read() or b"[]")]
        except FileNotFoundError:
            return []


class FolderTransport(filesystem.Transport):
    """The folder broker's transport (``broker_transport`` wherever the broker URL is ``filesystem://``)."""

    Channel = _FolderChannel


def transport_class(broker_url: str) -> str | None:
    """Celery's ``broker_transport`` for ``broker_url``: ours for a folder broker, else the URL's own."""
    return f"{__name__}:FolderTransport" if broker_url.startswith("filesystem://") else None
