"""In a browser (Debian's chromium via Playwright): the live page draws the LLR between its bounds and follows the test.

The page polls its JSON while the test runs: a pair counted meanwhile shows up in
the figures and the chart without a reload, and the decision reloads the page
with the verdict. A screenshot is kept in ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from arena.bots.models import BotVersion
from arena.matches.tasks import play_match
from arena.sprt.services import strength_test_start
from tests.arena.conftest import shoot
from tests.arena.sprt.pairs import play_bins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def chart_points(page: Page) -> Any:
    return page.evaluate("() => window.Chart.getChart(document.getElementById('sprt-chart'))"
                         ".data.datasets.map(d => d.data.length)")


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Queued pairs stay queued: this test ends them itself, and must not leave tasks in a shared broker."""
    monkeypatch.setattr(play_match, "delay", lambda *args, **kwargs: None)


def test_the_live_page_charts_and_follows_the_test(
    page: Page, live_server: Any, alice: User, mine: tuple[BotVersion, BotVersion], no_broker: None
) -> None:
    b, a = mine
    test = play_bins(strength_test_start(author=alice, version_b=b, version_a=a, elo1=100), [4, 3, 2])
    page.goto(f"{live_server}/sprt/{test.pk}/")
    expect(page.locator("[data-field=pairs]")).to_have_text("3")
    page.wait_for_function("() => window.Chart && window.Chart.getChart(document.getElementById('sprt-chart'))")
    assert chart_points(page) == [4, 2, 2]  # the LLR after 0-3 pairs, and the two bounds

    test = play_bins(test, [4])
    expect(page.locator("[data-field=pairs]")).to_have_text("4", timeout=12_000)  # the next poll, no reload
    expect(page.locator("[data-field=penta-4]")).to_have_text("2")
    page.wait_for_function("() => window.Chart.getChart(document.getElementById('sprt-chart'))"
                           ".data.datasets[0].data.length === 5")
    shoot(page, "sprt-live")

    while test.is_running:
        test = play_bins(test, [4])
    expect(page.locator(".verdict")).to_contain_text("mybot v2 is stronger than mybot v1 by at least 100 Elo",
                                                     timeout=12_000)
    shoot(page, "sprt-decided")
