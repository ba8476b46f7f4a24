"""Match pages: what was played, how each game ended and why, and how fast each bot answered."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.matches.models import Match
from arena.matches.selectors import match_games, match_get, match_latency


def match_list(request: HttpRequest) -> HttpResponse:
    matches = Match.objects.prefetch_related("entries__version__bot").order_by("-created")
    page = Paginator(matches, 30).get_page(request.GET.get("page"))
    return render(request, "web/match_list.html", {"page": page})


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_get(pk)
    return render(request, "web/match.html", {
        "match": match, "entries": match.entries.all(), "games": match_games(match), "latency": match_latency(match),
    })
