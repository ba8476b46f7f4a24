"""The names of the sandboxes a referee plays bots in: one list for every place that takes one.

The settings (``ARENA_SANDBOX``), ``python -m worker.referee --sandbox``, the Celery task and the
health check all accept a name; this module imports nothing, so the site's settings can check the name
without loading gRPC or the sandbox code.
"""

from __future__ import annotations

from typing import Final

BACKENDS: Final = ("bwrap", "process")
"""The isolating backends of ``worker/sandbox/`` (bwrap in production; process where namespaces are missing)."""
SANDBOXES: Final = (*BACKENDS, "none")
"""Every choice: ``none`` plays bots as plain processes, for a developer's trusted bots only."""
