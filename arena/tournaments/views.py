"""Tournament pages: the list, the live page (and its JSON), and the staff-only creation form and actions."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena.tournaments.forms import TournamentForm
from arena.tournaments.models import TournamentEntry
from arena.tournaments.selectors import (
    StandingRow,
    bye_points,
    tournament_crosstable,
    tournament_get,
    tournament_live,
    tournament_progress,
    tournament_round_list,
    tournament_sections,
    tournament_standings,
)
from arena.tournaments.services import (
    TournamentError,
    entrant_clashes,
    tournament_cancel,
    tournament_create,
    tournament_withdraw,
)

View = Callable[..., HttpResponse]


def staff_only(view: View) -> View:
    """Anonymous visitors go to the login page; a signed-in author who is not staff gets 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            return HttpResponseForbidden("Only staff run tournaments.")
        return view(request, *args, **kwargs)

    return wrapper


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"sections": tournament_sections(drafts=request.user.is_staff)})


def _interval_bars(rows: list[StandingRow]) -> list[dict[str, Any]]:
    """Each row's performance rating as a bar over a shared axis (the ladder page's interval bars)."""
    rated = [r for r in rows if r.rating is not None and r.rating_low is not None and r.rating_high is not None]
    if not rated:
        return [{"row": r, "bar": None} for r in rows]
    low = min(r.rating_low for r in rated if r.rating_low is not None)
    high = max(r.rating_high for r in rated if r.rating_high is not None)
    pad = max(20.0, (high - low) * 0.05)
    low, high = low - pad, high + pad
    span = high - low
    bars: list[dict[str, Any]] = []
    for row in rows:
        if row.rating is None or row.rating_low is None or row.rating_high is None:
            bars.append({"row": row, "bar": None})
            continue
        bars.append({
            "row": row,
            "bar": f"left: {100 * (row.rating_low - low) / span:.2f}%; "
                   f"width: {100 * (row.rating_high - row.rating_low) / span:.2f}%",
            "mark": f"left: {100 * (row.rating - low) / span:.2f}%",
            "text": f"{row.rating:.0f} ({row.rating_low:.0f} – {row.rating_high:.0f})",
        })
    return bars


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_get(pk, drafts=request.user.is_staff)
    standings = tournament_standings(tournament)
    crosstable = tournament_crosstable(tournament, [row.entry for row in standings])
    return render(request, "tournaments/detail.html", {
        "tournament": tournament,
        "progress": tournament_progress(tournament),
        "standings": _interval_bars(standings),
        "crosstable": list(zip(standings, crosstable)),
        "rounds": tournament_round_list(tournament),
        "staff": request.user.is_staff,
        "bye_points": bye_points(tournament),
    })


def tournament_live_json(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(tournament_live(tournament_get(pk, drafts=request.user.is_staff)))


@staff_only
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            user = request.user
            try:
                tournament = tournament_create(
                    name=data["name"], format=data["format"], preset=data["preset"], players=data["players"],
                    deals=data["deals"], rounds=data["rounds"], rated=data["rated"], starts_at=data["starts_at"],
                    versions=list(data["entrants"]), created_by=user if isinstance(user, User) else None,
                    allow_overlap=data["allow_overlap"], seed_order=data["seed_order"],
                )
            except TournamentError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("“%(name)s” is scheduled.") % {"name": tournament.name})
                return redirect("tournament", pk=tournament.pk)
    clashes = entrant_clashes(list(form.cleaned_data.get("entrants", []))) if form.is_bound and form.is_valid() else {}
    return render(request, "tournaments/new.html", {"form": form, "clashes": clashes}, status=status)


@staff_only
@require_POST
def tournament_withdraw_view(request: HttpRequest, pk: int, entry_pk: int) -> HttpResponse:
    entry = get_object_or_404(TournamentEntry.objects.select_related("version__bot"), pk=entry_pk, tournament_id=pk)
    try:
        tournament_withdraw(entry=entry, reason=request.POST.get("reason", ""))
    except TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("%(version)s withdrawn.") % {"version": entry.version.display})
    return redirect("tournament", pk=pk)


@staff_only
@require_POST
def tournament_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        user = request.user
        tournament_cancel(tournament=tournament_get(pk, drafts=True), reason=request.POST.get("reason", ""),
                          by=user if isinstance(user, User) else None)
    except TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Tournament cancelled."))
    return redirect("tournament", pk=pk)
