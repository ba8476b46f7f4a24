"""Broker transport options: Redis in production, a folder when no broker is configured (a first run).

Redis gets the redelivery settings the referee depends on (a running match is
never handed to a second worker; a dead worker's matches come back). The
filesystem transport (kombu's, no server) keeps messages as files in one
folder shared by the web process, the workers and beat on one machine; it has
no redelivery, which is acceptable for a laptop arena and never used in
production (compose sets ``CELERY_BROKER_URL``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

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
