"""The table task: a thin layer over the tables services and ``worker.referee.table``.

It runs on the referee queue (bots at a table are started in the sandbox like a
match's) and holds one worker process for the whole game, most of it waiting on
people. Late acks as for matches; a redelivered or repeated task is harmless,
since only the holder of the table's claim plays and writes. When a worker dies,
the page's poll notices the silence (``table_kick``) and queues the task again,
which resumes the game from its saved decisions.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from arena.bots.builds import version_bot_argument
from arena.matches.failures import classify
from arena.notices import as_param, notice
from arena.tables.conf import setting
from arena.tables.link import SeatLink, TableLink
from arena.tables.models import Table, TableSeat
from arena.tables.services import TableLost, table_claim, table_fail, table_finish
from bots_sdk.engine import Rules
from bots_sdk.remote import Limits
from worker.referee.human import HumanClock, HumanSeat
from worker.referee.launch import launcher_for
from worker.referee.table import Decision, Player
from worker.referee.table import play_table as play_table_game

log = logging.getLogger(__name__)
TIME_LIMIT_S = int(setting("ARENA_TABLE_TIME_LIMIT_S"))


def _player(seat: TableSeat, table: Table, link: TableLink) -> Player:
    """A seat as the referee takes it: a person's ``HumanSeat``, or what a match spec names for the bot."""
    if seat.version is None:
        clock = HumanClock(move_s=table.move_s, bank_s=table.bank_s)
        return HumanSeat(SeatLink(link, seat.pk).answer, name=seat.label, clock=clock, on_turn=link.on_turn)
    return version_bot_argument(seat.version)


@shared_task(
    bind=True, name="arena.tables.play_table", acks_late=True, reject_on_worker_lost=True,
    time_limit=TIME_LIMIT_S + 120, soft_time_limit=TIME_LIMIT_S + 60,  # people play longer than a match lasts
)
def play_table(self: Any, table_id: int) -> str:
    task_id = self.request.id or f"local-{table_id}"
    table = table_claim(table_id=table_id, task_id=task_id, worker=self.request.hostname or "local")
    if table is None:
        return "not claimed: over, gone, or alive on another worker"
    if table.started is not None and timezone.now() - table.started > timedelta(seconds=TIME_LIMIT_S):
        table_fail(table_id=table_id, task_id=task_id,
                   error=notice("table_game.overtime", minutes=TIME_LIMIT_S // 60).stored())
        return "failed"
    try:
        return _play(table, task_id)
    except TableLost:
        log.info("table %s: lost its claim to another worker", table.key)
        return "lost claim"
    except Exception as error:
        # A table's game waits on people: it is not worth replaying on another worker, it fails at once.
        failure = classify(error, "table")
        log.error("table %s: %s", table.key, failure.staff)
        table_fail(table_id=table_id, task_id=task_id,
                   error=notice("table_game.stopped", reason=as_param(failure.public)).stored())
        return "failed"


def _play(table: Table, task_id: str) -> str:
    link = TableLink(table.pk, task_id)
    seats = list(table.seats.select_related("version__bot").order_by("seat"))
    players = [_player(seat, table, link) for seat in seats]
    sandboxed = any(seat.version is not None and not seat.version.reference for seat in seats)
    launcher = launcher_for(settings.ARENA_SANDBOX) if sandboxed else None
    limits = Limits(start_s=settings.ARENA_START_S, move_s=settings.ARENA_MOVE_S, bank_s=settings.ARENA_BANK_S)
    log.info("table %s: playing (%d decisions saved)", table.key, len(table.actions))
    played = play_table_game(
        Rules.preset(table.preset, players=table.players), table.seed, players, launcher=launcher, limits=limits,
        resume=[Decision.from_list(a) for a in table.actions], on_progress=link.progress,
        pace_s=float(setting("ARENA_TABLE_PACE_S")),
    )
    stored = table_finish(table=table, task_id=task_id, played=played)
    log.info("table %s: %s", table.key, "stored" if stored else "lost its claim, not storing")
    return "stored" if stored else "lost claim"
