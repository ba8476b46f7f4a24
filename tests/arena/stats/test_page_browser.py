"""The statistics page in a real browser: every chart is drawn, the partnerships chart included."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from arena.bots.models import BotVersion
from tests.arena.conftest import shoot
from tests.arena.stats.factories import Played, duplicate, played, store, versions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_chart_is_drawn_the_partnerships_one_included(
    page: Page, live_server: Any, references: dict[str, BotVersion]
) -> None:
    a, b = versions("a", "b")
    duplicate([a, b], [[0, 1], [1, 0], [0, 0], [1, 1]] * 5)
    store([a, b, references["gentle"]], [Played(durak=d % 3, trumps=(d % 4, 1, 2), first=d % 3, deal=d)
                                         for d in range(12)])
    played([references["gentle"], references["random"]], "pagat-pairs", deals=20)
    page.goto(str(live_server) + "/stats/")
    expect(page.locator("#partnerships h2")).to_have_text("Partnerships: how much a team's seats matter")
    canvases = page.locator("canvas").count()
    assert canvases == 6  # trumps, first attacker, length, duplicate, partnerships, team trumps
    expect(page.locator("#draws .chart-empty")).to_have_text("No draw yet: every game so far had a durak.")
    assert page.evaluate("() => Object.keys(window.Chart.instances).length") == canvases
    labels = page.evaluate(
        "() => window.Chart.getChart('chart-partnerships').data.datasets.map(d => d.label)")
    assert labels == ["first attacker's side", "first attacker's side 95 %", "first defender's side",
                      "first defender's side 95 %", "fair share"]
    assert page.evaluate("() => window.Chart.getChart('chart-team-trumps').data.datasets.length") == 4
    shoot(page, "stats-partnerships")
    page.goto(str(live_server) + "/stats/?preset=pagat-pairs")
    expect(page.locator("#individual")).to_contain_text("No games of individual play for this filter")
    assert page.evaluate("() => Object.keys(window.Chart.instances).length") == page.locator("canvas").count() == 2
