"""A visitor's tour in a real browser: no page logs a console error (the favicon is there), the 404 page is the
site's, a bot rated on two ladders gets one rating chart per ladder, and the statistics of a small arena read
plainly (a chart without enough data says so)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from arena.ratings.models import Rating, RatingPoint
from arena.ratings.services import ladder_for
from tests.arena.conftest import shoot
from tests.arena.visitors import stored_game, version_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_visitors_tour_logs_no_error_and_charts_each_ladder_apart(
    page: Page, live_server: Any, alice: User
) -> None:
    sly = version_of(alice, "sly", "Uses `minimax` to depth *3*.")
    fox = version_of(alice, "fox")
    now = timezone.now()
    for preset, base in (("classic", 1500.0), ("transfer", 1900.0)):  # two scales: one axis would flatten both
        ladder = ladder_for(preset, 2)
        Rating.objects.create(ladder=ladder, version=sly, rating=base, se=120, games=6, provisional=True)
        RatingPoint.objects.bulk_create(
            RatingPoint(ladder=ladder, version=sly, at=now + timedelta(minutes=i), rating=base + 10 * i, se=150 - i,
                        games=2 * i, source="game") for i in range(1, 4))
    match = stored_game([sly, fox])
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    url = str(live_server)
    for path in ("/", "/ladders/classic-2/", "/bots/", "/matches/", f"/matches/{match.pk}/",
                 f"/games/{match.games.get().pk}/", "/stats/", "/bots/sly/"):
        page.goto(url + path)
    assert errors == []

    expect(page.locator("canvas.rating-chart")).to_have_count(2)
    expect(page.locator("canvas.rating-chart[data-ladder='transfer-2']")).to_be_visible()
    assert page.evaluate("() => Object.keys(window.Chart.instances).length") == 2
    expect(page.locator(".description code")).to_have_text("minimax")
    shoot(page, "visitor-01-bot-two-ladders")

    page.goto(url + "/stats/")  # one game: plain words first, and a chart with too little data says so
    expect(page.locator("#summary")).to_contain_text("attacks first")
    expect(page.locator("#trumps .chart-empty")).to_contain_text("10 seat-games")
    expect(page.locator("#duplicate details.how")).not_to_have_attribute("open", "")
    shoot(page, "visitor-03-stats-small-arena")

    response = page.goto(url + "/no/such/page/")
    assert response is not None and response.status == 404
    expect(page.locator("h1")).to_have_text("Page not found")
    expect(page.locator(".topbar")).to_be_visible()
    shoot(page, "visitor-02-not-found")
