"""Pages of the tables: the list with the form that opens one, a table's page, its JSON, a move, a hint, a seat.

Thin: the form checks the shape, services decide and write, selectors read. Anyone
may play, logged in or not: a person's seat is held by a token in their browser's
session (and by their account when they have one), so a reload, a new tab or
logging in keeps it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena.ops.throttle import throttled
from arena.tables.forms import TableForm
from arena.tables.models import Table, TableSeat
from arena.tables.selectors import (
    Player,
    finished_tables,
    is_stalled,
    open_tables,
    player_tables,
    seat_of,
    table_get,
    table_seats,
    table_state,
    table_version,
)
from arena.tables.services import (
    MoveError,
    TableError,
    table_again,
    table_create,
    table_hint,
    table_join,
    table_kick,
    table_move,
)

TOKEN = "tables_token"
"""The session key of the browser's seat token."""


def _player(request: HttpRequest) -> Player:
    """The visitor as a player; gives the browser its token on first need."""
    token = request.session.get(TOKEN)
    if not token:
        token = secrets.token_urlsafe(24)
        request.session[TOKEN] = token
    user = request.user if request.user.is_authenticated else None
    return Player(str(token), user)


def _visitor(request: HttpRequest) -> Player:
    """The visitor as a player without giving a token (a spectator stays a spectator)."""
    user = request.user if request.user.is_authenticated else None
    return Player(str(request.session.get(TOKEN, "")), user)


@throttled("table")
def table_list(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = table_create(preset=form.cleaned_data["preset"], seats=form.seats, player=_player(request))
        except TableError as error:
            form.add_error(None, str(error))
        else:
            return redirect("tables:table", key=table.key)
    visitor = _visitor(request)
    mine = list(player_tables(visitor.token, visitor.user).prefetch_related("seats__version__bot")[:20])
    return render(request, "tables/list.html", {
        "form": form, "mine": mine, "open": open_tables(), "finished": finished_tables(),
    })


def table_page(request: HttpRequest, key: str) -> HttpResponse:
    table = table_get(key)
    me = seat_of(table, _visitor(request))
    return render(request, "tables/table.html", {
        "table": table, "seats": table_seats(table), "me": me, "state": table_state(table, me),
    })


def table_state_json(request: HttpRequest, key: str) -> JsonResponse:
    """The page's poll: ``?v=N`` answers ``{"version": N, "same": true}`` while nothing changed (one read)."""
    seen = request.GET.get("v", "")
    head = table_version(key)
    if head is None:
        return JsonResponse({"error": "no such table"}, status=404)
    if head["status"] in (Table.Status.QUEUED, Table.Status.RUNNING) and is_stalled(head["heartbeat"]):
        table_kick(table=table_get(key))  # its worker went silent: another one resumes the game
    if seen.isdigit() and int(seen) == head["version"]:
        return JsonResponse({"version": head["version"], "same": True})
    table = table_get(key)
    return JsonResponse(table_state(table, seat_of(table, _visitor(request))))


def _body(request: HttpRequest) -> dict[str, Any]:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
    return request.POST.dict()


def _seated(request: HttpRequest, key: str, play: Callable[[Table, TableSeat], dict[str, Any]]) -> JsonResponse:
    """Run ``play`` for the visitor's seat at the table: 403 without a seat, 400 with the reason it refuses."""
    table = table_get(key)
    me = seat_of(table, _visitor(request))
    if me is None:
        return JsonResponse({"error": "You have no seat at this table."}, status=403)
    try:
        return JsonResponse(play(table, me))
    except MoveError as error:
        return JsonResponse({"error": str(error)}, status=400)


@require_POST
def table_act(request: HttpRequest, key: str) -> JsonResponse:
    """A click: ``{"action": "attack 7H"}`` or ``{"card": "9S"}``; 400 with the engine's reason if not played."""
    data = _body(request)

    def play(table: Table, seat: TableSeat) -> dict[str, Any]:
        action, card = str(data.get("action") or ""), str(data.get("card") or "")
        move = table_move(table=table, seat=seat, action=action, card=card)
        return {"ok": True, "action": str(move)}

    return _seated(request, key, play)


@require_POST
def table_hint_json(request: HttpRequest, key: str) -> JsonResponse:
    """The hint bot's move for the visitor, who must be the one to act."""
    return _seated(request, key, lambda table, seat: table_hint(table=table, seat=seat))


@require_POST
def table_take_seat(request: HttpRequest, key: str) -> HttpResponse:
    table = table_get(key)
    seat = request.POST.get("seat", "")
    try:
        if not seat.isdigit():
            raise TableError(_("Pick a seat."))
        table_join(table=table, seat=int(seat), player=_player(request))
    except TableError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You sit in seat %(seat)s.") % {"seat": seat})
    return redirect("tables:table", key=table.key)


@require_POST
@throttled("table")
def table_play_again(request: HttpRequest, key: str) -> HttpResponse:
    table = table_get(key)
    try:
        new = table_again(table=table, player=_player(request))
    except TableError as error:
        messages.error(request, str(error))
        return redirect("tables:table", key=table.key)
    return redirect("tables:table", key=new.key)
