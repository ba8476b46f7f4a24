"""Asking for a match's analysis, and an analysis's progress and verdicts as JSON for the replay viewer."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from arena.analysis.selectors import analysis_for_game
from arena.analysis.services import analysis_request_match
from arena.matches.models import Game, Match
from arena.ops.throttle import throttled


@throttled("analysis")
@require_POST
def match_analyse(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue every game of a finished match before all other analyses (a game already analysed stays so); the
    requests count against the visitor's ``ARENA_RATE_ANALYSES``, since they jump the queue of every other."""
    match = get_object_or_404(Match, pk=pk, status=Match.Status.DONE)
    analysis_request_match(match=match)
    return redirect(reverse("match", args=[match.pk]) + "#analysis")


def game_analysis(request: HttpRequest, pk: int) -> JsonResponse:
    """``{"status", "done", "decisions", "reviews"}``: the replay viewer polls it while the analysis runs."""
    game = get_object_or_404(Game, pk=pk)
    analysis = analysis_for_game(game)
    if analysis is None:
        return JsonResponse({"status": None, "done": 0, "decisions": 0, "reviews": []})
    return JsonResponse({
        "status": analysis.status, "done": analysis.done, "decisions": analysis.decisions,
        "reviews": analysis.reviews if analysis.status == analysis.Status.DONE else [],
    })
