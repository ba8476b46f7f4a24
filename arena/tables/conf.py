"""The tables' settings, read from Django settings with these defaults (``settings.py`` reads the first four
from the environment).

- ``ARENA_TABLE_MOVE_S`` / ``ARENA_TABLE_BANK_S``: a person's clock, per decision and a per-game bank (120 s
  and 300 s). A person who walks away forfeits by timeout once both are spent; until then the table's worker
  process waits, so these bound how long an abandoned table holds a referee process.
- ``ARENA_TABLE_PACE_S``: a bot waits this long before it moves (0.6 s), so a person can follow each move.
- ``ARENA_TABLE_HINT_BOT``: the reference bot behind the hint button (``gentle``: instant; ``strong`` thinks for
  ``ARENA_TABLE_HINT_MS``).
- ``ARENA_TABLE_STALL_S``: a table whose worker has not been heard of for this long (90 s) is handed to another
  worker, which resumes the game from its saved decisions. Longer than a bot may think or take to start.
- ``ARENA_TABLE_TIME_LIMIT_S``: the longest a table game may run (2 h); after it the table fails.
- ``ARENA_TABLES_PER_PLAYER``: unfinished tables one browser or account may sit at (3), so a visitor cannot
  tie up every referee process.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    "ARENA_TABLE_MOVE_S": 120.0,
    "ARENA_TABLE_BANK_S": 300.0,
    "ARENA_TABLE_PACE_S": 0.6,
    "ARENA_TABLE_HINT_BOT": "gentle",
    "ARENA_TABLE_HINT_MS": 300.0,
    "ARENA_TABLE_STALL_S": 90.0,
    "ARENA_TABLE_TIME_LIMIT_S": 2 * 3600,
    "ARENA_TABLES_PER_PLAYER": 3,
}


def setting(name: str) -> Any:
    """The setting ``name`` of this app, or its default."""
    return getattr(settings, name, DEFAULTS[name])
