"""A visitor's tour in a real browser: no page logs a console error (the favicon is there), the 404 page is the
site's, a bot rated on two ladders gets one rating chart per ladder, and the statistics of a small arena read
plainly (a chart without enough data says so). A visitor asks for a game's analysis on the match page, a real
worker on the `analysis` queue runs it, and the replay shows the value chart, the mistake and the best move."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from playwright.sync_api import Page, expect

from arena.ratings.models import Rating, RatingPoint
from arena.ratings.services import ladder_for
from tests.analysis.games import missed_win
from tests.arena.conftest import ROOT, shoot
from tests.arena.visitors import stored_game, version_of
from tests.worker.test_celery_task import start_worker, stop

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


def test_a_visitor_asks_for_an_analysis_and_the_replay_marks_the_mistake_and_the_best_move(
    page: Page, live_server: Any, alice: User, tmp_path: Path
) -> None:
    game = missed_win()
    sly, fox = version_of(alice, "sly"), version_of(alice, "fox")
    match = stored_game([sly, fox], record=game.record)
    stored = match.games.get()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    url = str(live_server)

    page.goto(f"{url}/matches/{match.pk}/")
    page.click("#analysis button")
    expect(page.locator(".analysis-cell")).to_contain_text("analysis queued")
    database = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.django_settings", "PYTHONPATH": str(ROOT),
           "DATABASE_URL": "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(**database)}
    worker = start_worker(env, tmp_path / "worker.log", queues="analysis")
    try:
        page.goto(f"{url}/games/{stored.pk}/")  # the replay polls the progress and reloads once it is done
        expect(page.locator("#rp-value-chart")).to_be_visible(timeout=90_000)
    finally:
        stop(worker)
    frame = game.step + 1  # the viewer's step 0 is the deal
    mistake = page.locator(f"#move-list li[data-step='{frame}']")
    expect(mistake).to_have_class(re.compile("is-mistake"))
    expect(mistake.locator(".rp-mv-mistake")).to_have_text("??")
    assert page.evaluate("() => Object.keys(window.Chart.instances).length") == 1

    mistake.locator("a").click()
    best = page.locator("#rp-best")
    expect(best).to_be_visible()
    winning = game.winning.split()[-1]
    expect(best).to_contain_text("Mistake:")
    expect(best).to_contain_text("Best: attack " + winning[0].replace("T", "10"))
    expect(page.locator(f"[data-seat='{game.seat}'] [data-card='{winning}']")).to_have_class(re.compile("is-best"))
    shoot(page, "visitor-04-replay-analysis")

    page.keyboard.press("ArrowRight")  # an unflagged step hides it again
    expect(best).to_be_hidden()

    page.goto(f"{url}/matches/{match.pk}/")
    expect(page.locator(".analysis-cell")).to_contain_text("1 mistake")
    expect(page.locator("#analysis")).to_have_count(0)  # nothing left to ask for
    shoot(page, "visitor-06-match-analysis")
    loser = (sly, fox)[game.seat].bot.name
    page.goto(f"{url}/bots/{loser}/")
    expect(page.locator("#costly-games")).to_contain_text(f"game 1 of match #{match.pk}")
    shoot(page, "visitor-05-bot-costly-games")
    assert errors == []
