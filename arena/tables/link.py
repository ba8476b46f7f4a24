"""The arena's side of a table's worker: the callables ``play_table`` and ``HumanSeat`` work through.

The referee knows nothing of Django; it is handed these: ``progress`` saves the
decisions so far, ``answer`` reads a person's move from their seat (renewing the
worker's heartbeat every few seconds while the person thinks, so no other worker
takes the table over), ``on_turn`` starts the person's clock on the page.
"""

from __future__ import annotations

import time

from arena.tables.selectors import pending_move
from arena.tables.services import table_heartbeat, table_progress, table_turn
from worker.referee.table import Decision

HEARTBEAT_S = 5.0
"""How often a worker waiting on a person says it is alive (well under ``ARENA_TABLE_STALL_S``)."""


class TableLink:
    """One table held by one task."""

    def __init__(self, table_id: int, task_id: str) -> None:
        self.table_id = table_id
        self.task_id = task_id
        self._beat = time.monotonic()

    def progress(self, decisions: list[Decision]) -> None:
        table_progress(table_id=self.table_id, task_id=self.task_id, decisions=decisions)
        self._beat = time.monotonic()

    def on_turn(self, decision: int, seconds: float) -> None:
        table_turn(table_id=self.table_id, task_id=self.task_id, seconds=seconds)

    def keep_alive(self) -> None:
        """Renew the heartbeat if it is due; raises ``TableLost`` if another worker has taken the table."""
        if time.monotonic() - self._beat >= HEARTBEAT_S:
            table_heartbeat(table_id=self.table_id, task_id=self.task_id)
            self._beat = time.monotonic()


class SeatLink:
    """A person's seat of a held table: where ``HumanSeat`` finds the person's move."""

    def __init__(self, table: TableLink, seat_id: int) -> None:
        self.table = table
        self.seat_id = seat_id

    def answer(self, decision: int) -> str | None:
        self.table.keep_alive()
        return pending_move(self.seat_id, decision)
