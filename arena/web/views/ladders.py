"""Ladder pages: standings with each rating's 95 % interval drawn as a bar."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.ratings.selectors import Standing, ladder_get, ladder_languages, ladder_list, ladder_standings


def _scale(standings: list[Standing]) -> tuple[float, float]:
    """The rating range the interval bars share, padded so no bar touches the edge."""
    if not standings:
        return 1000.0, 2000.0
    low = min(s.rating.low for s in standings)
    high = max(s.rating.high for s in standings)
    pad = max(20.0, (high - low) * 0.05)
    return low - pad, high + pad


def ladder_index(request: HttpRequest) -> HttpResponse:
    return render(request, "web/ladder_list.html", {
        "ladders": [(ladder, ladder_standings(ladder, limit=3)) for ladder in ladder_list()]
    })


def ladder_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings; ``?language=typescript`` keeps that language's bots, at their ranks on the whole ladder."""
    ladder = ladder_get(slug)
    language = request.GET.get("language") or None
    standings = ladder_standings(ladder, language=language)
    low, high = _scale(standings)
    span = high - low
    # Numbers formatted here, once: a ladder of hundreds of rows spent most of its time in floatformat.
    def at(value: float) -> str:
        return f"{100 * (value - low) / span:.2f}%"

    rows = [
        {"standing": s, "rating": f"{s.rating.rating:.0f}", "interval": f"{s.rating.low:.0f} – {s.rating.high:.0f}",
         "bar": f"left: {at(s.rating.low)}; width: {100 * (s.rating.high - s.rating.low) / span:.2f}%",
         "mark": f"left: {at(s.rating.rating)}"}
        for s in standings
    ]
    return render(request, "web/ladder.html", {"ladder": ladder, "rows": rows, "axis_low": low, "axis_high": high,
                                               "language": language, "languages": ladder_languages(ladder)})

