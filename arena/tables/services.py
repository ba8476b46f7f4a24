"""Writes of the tables app: opening a table, taking a seat, a person's move, the worker's claim and saves.

The page never changes the game itself: a click is checked by the engine here
(``why_illegal``, whose reason goes back to the person) and a legal move is left
on the person's seat for the decision it answers; the table's worker, the only
writer of ``actions``, reads it there. The worker holds the table by a claim
(``task_id``) renewed by a heartbeat; every save is conditional on the claim, so
a worker that lost the table to another (after a stall) can no longer write,
and the finished game is stored once, whole, as an unrated match of kind
``table`` that the replay viewer opens.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import DateTimeField, F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from arena.bots.models import PERSON_LANGUAGE, Bot, BotVersion
from arena.bots.services import ARENA_USER
from arena.jobs import enqueue_on_commit
from arena.matches.fault_words import why_illegal_text
from arena.matches.models import Match, MatchEntry
from arena.matches.services import match_store_result
from arena.tables.board import hint, intended, move_json, rebuild
from arena.tables.conf import setting
from arena.tables.models import Table, TableSeat
from arena.tables.selectors import Player, player_tables, seat_of
from bots_sdk.engine import PRESETS, Action, Card, DurakError, Rules
from worker.referee.match import GameResult
from worker.referee.table import Decision, TableGame

HUMAN_BOT = "(human)"
"""The bot row that stands for people in stored games (a name no upload can take: it is not a bot.toml name)."""


class TableError(ValueError):
    """A table that cannot be opened or joined as asked; the message says why."""


class MoveError(ValueError):
    """A click that is not played; the message is the engine's reason (or why the table cannot take it)."""


class TableLost(RuntimeError):
    """This worker no longer holds the table (another took it over after a stall, or it ended)."""


def human_version_ensure() -> BotVersion:
    """The version that stands for a person in a stored game's seats (a ``GameSeat`` needs one): retired, so no
    ladder, challenge or strength test ever picks it."""
    owner, _ = get_user_model().objects.get_or_create(username=ARENA_USER, defaults={"is_active": False})
    bot, _ = Bot.objects.get_or_create(
        name=HUMAN_BOT, defaults={"owner": owner, "description": "People who played at a table, in the browser."}
    )
    version, _ = BotVersion.objects.get_or_create(
        bot=bot, number=1, defaults={"label": "1", "language": PERSON_LANGUAGE, "status": BotVersion.Status.RETIRED},
    )
    return version


# ---------------------------------------------------------------------- opening and joining


def _check_room(player: Player) -> None:
    limit = int(setting("ARENA_TABLES_PER_PLAYER"))
    if player_tables(player.token, player.user).filter(status__in=(Table.Status.OPEN, Table.Status.QUEUED,
                                                                   Table.Status.RUNNING)).count() >= limit:
        raise TableError(_("You already sit at %(limit)s unfinished tables: finish one (or let it time out) first.")
                         % {"limit": limit})


def table_create(
    *, preset: str, seats: Sequence[BotVersion | None], player: Player, my_seat: int | None = None
) -> Table:
    """A table of ``len(seats)``: ``None`` is a person's seat, a version a bot's. The player sits at ``my_seat``
    (default: the first person's seat); once every person's seat is taken, the game is queued."""
    if preset not in PRESETS:
        raise TableError(_("preset '%(preset)s' is not one of %(presets)s") % {"preset": preset,
                                                                             "presets": ", ".join(PRESETS)})
    try:
        Rules.preset(preset, players=len(seats))
    except DurakError as error:
        raise TableError(str(error)) from None
    people = [i for i, version in enumerate(seats) if version is None]
    if not people:
        raise TableError(_("Seat at least one person: a table is where people play the bots."))
    mine = people[0] if my_seat is None else my_seat
    if mine not in people:
        raise TableError(_("Seat %(seat)s is a bot's seat.") % {"seat": mine})
    for version in seats:
        if version is not None and version.status != BotVersion.Status.ACTIVE:
            raise TableError(_("%(version)s is %(status)s, not active.") % {
                "version": version.display, "status": version.get_status_display()})
    _check_room(player)
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(
            key=secrets.token_urlsafe(8), preset=preset, players=len(seats), seed=secrets.token_hex(8),
            created_by=player.user, move_s=float(setting("ARENA_TABLE_MOVE_S")),
            bank_s=float(setting("ARENA_TABLE_BANK_S")),
        )
        TableSeat.objects.bulk_create(
            TableSeat(
                table=table, seat=i, kind=TableSeat.Kind.HUMAN if version is None else TableSeat.Kind.BOT,
                version=version,
                **({"token": player.token, "user": player.user, "name": player.name, "claimed": now} if i == mine
                   else {}),
            )
            for i, version in enumerate(seats)
        )
        if len(people) == 1:
            _start(table)
    return table


def table_join(*, table: Table, seat: int, player: Player) -> TableSeat:
    """Take the free person's seat ``seat``; the last one taken starts the game."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)  # joiners of one table go one at a time
        if locked.status != Table.Status.OPEN:
            raise TableError(_("The game has started: no seat is free any more."))
        if seat_of(locked, player) is not None:
            raise TableError(_("You already sit at this table."))
        _check_room(player)
        taken = TableSeat.objects.filter(
            table=locked, seat=seat, kind=TableSeat.Kind.HUMAN, token="", user__isnull=True
        ).update(token=player.token, user=player.user, name=player.name, claimed=timezone.now())
        if taken != 1:
            raise TableError(_("Seat %(seat)s is not free.") % {"seat": seat})
        Table.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        if not TableSeat.objects.filter(table=locked, kind=TableSeat.Kind.HUMAN, token="", user__isnull=True).exists():
            _start(locked)
    return TableSeat.objects.select_related("version__bot").get(table=locked, seat=seat)


def table_again(*, table: Table, player: Player) -> Table:
    """A new table like ``table`` (same rules and bots); the player keeps their seat, other people's seats open."""
    seats = list(table.seats.select_related("version__bot").order_by("seat"))
    mine = seat_of(table, player)
    return table_create(
        preset=table.preset, seats=[s.version for s in seats], player=player,
        my_seat=mine.seat if mine is not None else None,
    )


def _start(table: Table) -> None:
    """Every person is seated: queue the game (after the commit, so the worker finds the rows)."""
    started = Table.objects.filter(pk=table.pk, status=Table.Status.OPEN).update(
        status=Table.Status.QUEUED, heartbeat=timezone.now(), version=F("version") + 1
    )
    if started:
        _enqueue(table.pk)


def _enqueue(table_id: int) -> None:
    enqueue_on_commit("arena.tables.tasks.play_table", table_id)


# ---------------------------------------------------------------------- a person's moves


def table_move(*, table: Table, seat: TableSeat, action: str = "", card: str = "") -> Action:
    """Check a click with the engine and leave a legal move for the worker; ``MoveError`` says why not.

    ``action`` is a move's text; ``card`` a card clicked that no legal move uses (the engine explains it)."""
    if table.status != Table.Status.RUNNING:
        raise MoveError(_("The game is not being played now (the table is %(status)s).")
                        % {"status": table.get_status_display()})
    game = rebuild(table.preset, table.players, table.seed, table.actions)
    try:
        move = Action.parse(action) if action else intended(game, seat.seat, Card.parse(card))
    except DurakError as error:
        raise MoveError(str(error)) from None
    why = game.why_illegal(move, seat.seat)
    if why:
        raise MoveError(why_illegal_text(why))
    decision = len(table.actions)
    left = TableSeat.objects.filter(pk=seat.pk).exclude(pending_for=decision).update(
        pending_action=str(move), pending_for=decision
    )
    if not left:
        raise MoveError(_("Your move for this turn is already on its way."))
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    return move


def table_hint(*, table: Table, seat: TableSeat) -> dict[str, Any]:
    """The hint bot's move for the person to act, as the page's moves are (``board.move_json``); counted."""
    game = rebuild(table.preset, table.players, table.seed, table.actions)
    if table.status != Table.Status.RUNNING or game.to_act != seat.seat:
        raise MoveError(_("A hint is for your turn."))
    move = hint(game, seat.seat, str(setting("ARENA_TABLE_HINT_BOT")))
    TableSeat.objects.filter(pk=seat.pk).update(hints=F("hints") + 1)
    return {**move_json(move, game.observation(seat.seat)), "bot": str(setting("ARENA_TABLE_HINT_BOT"))}


# ---------------------------------------------------------------------- the worker's side


def table_budget() -> timedelta:
    """How long after its start a table's game is overdue: its time limit and the deadline margin."""
    return timedelta(seconds=float(setting("ARENA_TABLE_TIME_LIMIT_S")) + settings.ARENA_DEADLINE_MARGIN_S)


def table_claim(*, table_id: int, task_id: str, worker: str) -> Table | None:
    """Take the table for this task: a queued one, or a running one whose worker has not been heard of for
    ``ARENA_TABLE_STALL_S``; None if it is over, gone, or alive elsewhere."""
    now = timezone.now()
    stale = now - timedelta(seconds=float(setting("ARENA_TABLE_STALL_S")))
    claimable = Q(status=Table.Status.QUEUED) | Q(status=Table.Status.RUNNING, heartbeat__lt=stale)
    taken = Table.objects.filter(claimable, pk=table_id).update(
        status=Table.Status.RUNNING, task_id=task_id, worker=worker[:255], heartbeat=now,
        started=Coalesce(F("started"), Value(now, output_field=DateTimeField())), version=F("version") + 1,
        deadline=Coalesce(F("started"), Value(now, output_field=DateTimeField())) + table_budget(),
    )
    if taken != 1:
        return None
    return Table.objects.get(pk=table_id)


def _held(table_id: int, task_id: str) -> Q:
    return Q(pk=table_id, status=Table.Status.RUNNING, task_id=task_id)


def _save(table_id: int, task_id: str, **fields: object) -> None:
    if Table.objects.filter(_held(table_id, task_id)).update(heartbeat=timezone.now(), **fields) != 1:
        raise TableLost(f"table {table_id} is no longer held by task {task_id}")


def table_progress(*, table_id: int, task_id: str, decisions: Sequence[Decision]) -> None:
    """The decisions so far (the page rebuilds the game from them); raises ``TableLost`` without the claim."""
    _save(table_id, task_id, actions=[d.to_list() for d in decisions], turn_deadline=None,
          version=F("version") + 1)


def table_turn(*, table_id: int, task_id: str, seconds: float) -> None:
    """A person is to act and has ``seconds`` (the page counts down)."""
    _save(table_id, task_id, turn_deadline=timezone.now() + timedelta(seconds=seconds), version=F("version") + 1)


def table_heartbeat(*, table_id: int, task_id: str) -> None:
    """The worker is alive (while it waits on a person); raises ``TableLost`` without the claim."""
    _save(table_id, task_id)


def table_fail(*, table_id: int, task_id: str, error: str) -> None:
    """End the game as failed; ``error`` is shown on the table's page, so it must hold no host details."""
    Table.objects.filter(_held(table_id, task_id)).update(
        status=Table.Status.FAILED, error=error[:5000], finished=timezone.now(), turn_deadline=None,
        version=F("version") + 1,
    )


def table_finish(*, table: Table, task_id: str, played: TableGame) -> bool:
    """Store the finished game as an unrated match of kind ``table`` and close the table: all or nothing.

    False (and nothing written) if this task no longer holds the table."""
    outcome = played.game.outcome
    assert outcome is not None
    record = played.record
    seats = list(table.seats.select_related("version").order_by("seat"))
    human = human_version_ensure()
    now = timezone.now()
    with transaction.atomic():
        closed = Table.objects.filter(_held(table.pk, task_id)).update(
            status=Table.Status.DONE, finished=now, turn_deadline=None, result=record["result"],
            actions=[[a["seat"], a["action"], a.get("ms")] for a in record["actions"]], version=F("version") + 1,
        )
        if closed != 1:
            transaction.set_rollback(True)
            return False
        match = Match.objects.create(
            kind=Match.Kind.TABLE, status=Match.Status.RUNNING, task_id=task_id, worker=table.worker,
            preset=table.preset, players=table.players, deals=1, seed=table.seed, rated=False,
            move_s=table.move_s, bank_s=table.bank_s, start_s=settings.ARENA_START_S,
            requested_by=table.created_by, started=table.started,
        )
        MatchEntry.objects.bulk_create(
            MatchEntry(match=match, index=s.seat, version=s.version or human) for s in seats
        )
        result = GameResult(
            deal=0, rotation=0, seats=tuple(range(table.players)), durak=outcome.durak, draw=outcome.draw,
            reason=outcome.reason.value, offender=outcome.offender, detail=outcome.detail, record=record,
            bouts=played.game.bout,
        )
        match_store_result(match=match, task_id=task_id, results=[result])
        Table.objects.filter(pk=table.pk).update(match=match)
    return True


def table_kick(*, table: Table) -> bool:
    """Hand a stalled table (queued or running, its worker unheard of for ``ARENA_TABLE_STALL_S``) to a worker
    again; the page's poll calls this, so a dead worker's game goes on by itself. At most once a stall period."""
    if table.status not in (Table.Status.QUEUED, Table.Status.RUNNING):
        return False
    now = timezone.now()
    stale = now - timedelta(seconds=float(setting("ARENA_TABLE_STALL_S")))
    kicked = Table.objects.filter(
        Q(heartbeat__lt=stale) | Q(heartbeat__isnull=True), Q(kicked__lt=stale) | Q(kicked__isnull=True),
        pk=table.pk, status__in=(Table.Status.QUEUED, Table.Status.RUNNING),
    ).update(kicked=now)
    if kicked:
        _enqueue(table.pk)
    return bool(kicked)
