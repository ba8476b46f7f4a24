"""The front page: every ladder's top at a glance, and the latest matches."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.matches.selectors import recent_matches
from arena.ratings.selectors import ladder_list, ladder_standings


def home(request: HttpRequest) -> HttpResponse:
    ladders = [(ladder, ladder_standings(ladder, limit=5)) for ladder in ladder_list()]
    return render(request, "web/home.html", {"ladders": ladders, "matches": recent_matches(15)})
