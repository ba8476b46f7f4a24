"""Reads of the tables app: a table and its seats, whose seat a browser holds, and the page's JSON state."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from arena.bots.models import BotVersion
from arena.matches.fault_words import fault_text
from arena.matches.models import Game
from arena.matches.replay import reason_text
from arena.notices import shown
from arena.ops.redact import strip_host_paths
from arena.tables.board import captions, rebuild, table_view
from arena.tables.conf import setting
from arena.tables.models import Table, TableSeat

QUEUE_WAIT_S = 5.0
"""A queued table older than this says it waits for a free referee worker."""


@dataclasses.dataclass(frozen=True)
class Player:
    """A person at the site: their browser's token (kept in the session) and their account, if logged in."""

    token: str
    user: User | None = None

    @property
    def name(self) -> str:
        return self.user.get_username() if self.user is not None else "guest"


def table_get(key: str) -> Table:
    return get_object_or_404(Table.objects.select_related("created_by"), key=key)


def table_seats(table: Table) -> list[TableSeat]:
    return list(table.seats.select_related("version__bot").order_by("seat"))


def _holder(token: str, user: AbstractBaseUser | AnonymousUser | None) -> Q:
    """Seats held by this browser's token, or by this account."""
    q = Q(token=token) if token else Q(pk__in=[])
    if user is not None and user.is_authenticated:
        q |= Q(user_id=user.pk)
    return q


def seat_of(table: Table, player: Player) -> TableSeat | None:
    """The person's seat ``player`` holds at ``table``, if any."""
    return (
        TableSeat.objects.filter(_holder(player.token, player.user), table=table, kind=TableSeat.Kind.HUMAN)
        .select_related("version__bot").order_by("seat").first()
    )


def player_tables(token: str, user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Table]:
    """Tables at which this browser or account holds a seat, newest first."""
    held = TableSeat.objects.filter(_holder(token, user), kind=TableSeat.Kind.HUMAN).values("table")
    return Table.objects.filter(pk__in=held).order_by("-created")


def open_tables(limit: int = 20) -> QuerySet[Table]:
    """Tables waiting for people, newest first."""
    return Table.objects.filter(status=Table.Status.OPEN).prefetch_related("seats__version__bot")[:limit]


def finished_tables(limit: int = 20) -> QuerySet[Table]:
    return (
        Table.objects.filter(status=Table.Status.DONE).prefetch_related("seats__version__bot")
        .order_by("-finished")[:limit]
    )


def seat_choices() -> QuerySet[BotVersion]:
    """The bots a table may seat: every active version, the reference bots first."""
    first = Case(When(reference="", then=Value(1)), default=Value(0), output_field=IntegerField())
    return BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot").order_by(
        first, "bot__name", "-number"
    )


def pending_move(seat_id: int, decision: int) -> str | None:
    """The move a person left for decision number ``decision``, if any."""
    return TableSeat.objects.filter(pk=seat_id, pending_for=decision).values_list("pending_action", flat=True).first()


def table_version(key: str) -> dict[str, Any] | None:
    """What a poll needs to see whether anything changed: one indexed read."""
    head = Table.objects.filter(key=key).values("pk", "version", "status", "heartbeat").first()
    return dict(head) if head is not None else None


def is_stalled(heartbeat: datetime | None) -> bool:
    """Whether a table's worker (or the queue) has been silent for longer than ``ARENA_TABLE_STALL_S``."""
    return heartbeat is None or timezone.now() - heartbeat > timedelta(seconds=float(setting("ARENA_TABLE_STALL_S")))


def replay_url(table: Table, me: TableSeat | None) -> str | None:
    """The stored game in the replay viewer, from the person's own seat."""
    if table.match_id is None:
        return None
    pk = Game.objects.filter(match_id=table.match_id).order_by("number").values_list("pk", flat=True).first()
    if pk is None:
        return None
    return reverse("game", args=[pk]) + (f"#view={me.seat}" if me is not None else "")


def _result_text(result: dict[str, Any], names: list[str], me: int | None) -> str:
    def who(seat: int) -> str:
        return _("You") if seat == me else _("%(name)s (seat %(seat)s)") % {"name": names[seat], "seat": seat}

    durak = result.get("durak")
    if result.get("offender") is not None:
        offender = result["offender"]
        return _("%(who)s forfeited (%(reason)s: %(detail)s) and lost.") % {
            "who": who(offender), "reason": reason_text(str(result.get("reason"))),
            "detail": fault_text(str(result.get("detail", "")))}
    if durak is None:
        return _("A draw: nobody is the durak.")
    losers = result.get("losers")
    if losers:  # a team game: the team left holding cards lost together
        team = _(" and ").join(who(seat) for seat in losers)
        if me in losers:
            return _("Your team lost.")
        return (_("Team %(team)s lost; your team is safe.") if me is not None else _("Team %(team)s lost.")) % {
            "team": team}
    text = _("You are the durak.") if durak == me else _("%(who)s is the durak.") % {"who": who(durak)}
    out = result.get("out_order") or []
    if me is not None and durak != me and me in out:
        place = out.index(me) + 1
        places = {1: _("You went out first: well played!"), 2: _("You went out 2nd."), 3: _("You went out 3rd."),
                  4: _("You went out 4th."), 5: _("You went out 5th.")}  # a table seats at most six
        text += " " + places[place]
    return text


def _status_line(table: Table, seats: list[TableSeat], view: dict[str, Any], me: TableSeat | None) -> str:
    names = [s.label for s in seats]
    if table.status == Table.Status.OPEN:
        free = [s.seat for s in seats if s.is_open]
        return ngettext("Waiting for people: seat %(seats)s free. Share this table's link.",
                        "Waiting for people: seats %(seats)s free. Share this table's link.", len(free)) % {
            "seats": ", ".join(map(str, free))}
    if table.status == Table.Status.QUEUED:
        waited = (timezone.now() - (table.heartbeat or table.created)).total_seconds()
        return _("Waiting for a free referee worker…") if waited > QUEUE_WAIT_S else _("Dealing…")
    if table.status == Table.Status.FAILED:
        # shown to every spectator
        return _("The table failed: %(error)s") % {"error": strip_host_paths(shown(table.error))}
    if table.status == Table.Status.DONE:
        return _result_text(table.result or {}, names, me.seat if me else None)
    if view["sent"]:
        return _("Your move is on its way…")
    return str(view["headline"])


def table_state(table: Table, me: TableSeat | None) -> dict[str, Any]:
    """Everything the table page draws, from ``me``'s seat (None: a spectator's view), JSON-friendly."""
    seats = table_seats(table)
    names = [s.label for s in seats]
    game = rebuild(table.preset, table.players, table.seed, table.actions)
    mine = me.seat if me is not None else None
    view = table_view(game, mine, names)
    playing = table.status == Table.Status.RUNNING
    view["sent"] = me is not None and playing and view["my_turn"] and me.pending_for == len(table.actions)
    if not playing or view["sent"]:  # nothing to click until the worker has played the move
        view.update(my_turn=False, legal=[])
    for seat, row in zip(view["seats"], seats):
        seat.update(kind=row.kind, open=row.is_open, hints=row.hints,
                    version=row.version.display if row.version is not None else "")
    deadline = None
    if playing and table.turn_deadline is not None:
        deadline = max(0.0, (table.turn_deadline - timezone.now()).total_seconds())
    return {
        **view,
        "key": table.key, "version": table.version, "decisions": len(table.actions), "status": table.status,
        "status_text": table.get_status_display(), "preset": table.preset, "players": table.players,
        "line": _status_line(table, seats, view, me),
        "deadline_s": deadline,
        "log": captions(game, names, table.result if table.status == Table.Status.DONE else None),
        "result": table.result, "replay_url": replay_url(table, me), "live": table.is_live,
    }
