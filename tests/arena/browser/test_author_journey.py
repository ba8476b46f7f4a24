"""A new author in a real browser: sign up, upload a bot, see it admitted, open the ladder, watch a replay
step by step and from each seat's point of view (and on a phone)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from arena.matches.models import Game
from tests.arena.conftest import shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def counter(page: Page) -> int:
    text = page.locator("#step-counter").inner_text()
    match = re.search(r"step (\d+) / (\d+)", text)
    assert match, text
    return int(match.group(1))


def test_sign_up_upload_admission_ladder_and_replay(
    page: Page, live_server: Any, references: Any, make_archive: Callable[..., bytes], run_tasks: None,
    tmp_path: Path,
) -> None:
    url = str(live_server)
    page.goto(url + "/accounts/signup/")
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", "a-Long-pass-4-durak")
    page.fill("#id_password2", "a-Long-pass-4-durak")
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/submit/$"))
    shoot(page, "01-submit-form")

    archive = tmp_path / "browserbot.tar.gz"
    archive.write_bytes(make_archive("browserbot"))
    page.set_input_files("#id_archive", str(archive))
    page.fill("#id_description", "Submitted from a browser")
    page.click("button[type=submit]")  # the admission runs in the request here (tasks in-process)
    expect(page.locator("#version-status")).to_have_text("active")
    shoot(page, "02-version-admitted")

    page.goto(url + "/ladders/classic-2/")
    row = page.locator("tr", has=page.locator("a[href='/bots/browserbot/']"))
    expect(row).to_have_count(1)
    expect(row.locator(".interval .bar")).to_be_visible()
    expect(row.locator(".rank-provisional")).to_be_visible()  # a new bot is ranked, marked provisional
    shoot(page, "03-ladder")

    page.goto(url + "/bots/browserbot/")
    expect(page.locator("canvas.rating-chart[data-ladder='classic-2']")).to_be_visible()
    assert page.evaluate("() => Object.keys(window.Chart.instances).length") == 1
    shoot(page, "04-bot-page")

    game = Game.objects.filter(seats__version__bot__name="browserbot").order_by("-decisions").first()
    assert game is not None
    page.goto(f"{url}/matches/{game.match_id}/")
    page.click(f"a[href='/games/{game.pk}/']")
    expect(page.locator("#step-counter")).to_contain_text("step 0 /")
    steps = int(page.locator("#step-slider").get_attribute("max") or 0)
    assert steps >= len(game.record["actions"])

    page.click("#btn-forward")
    page.click("#btn-forward")
    assert counter(page) == 2
    page.keyboard.press("ArrowRight")
    assert counter(page) == 3
    page.keyboard.press("ArrowLeft")
    assert counter(page) == 2
    page.keyboard.press("End")
    assert counter(page) == steps
    page.keyboard.press("Home")
    assert counter(page) == 0
    page.locator("#step-slider").fill("5")
    assert counter(page) == 5
    expect(page).to_have_url(re.compile(r"#step=5"))
    shoot(page, "05-replay-all-hands")

    # All hands open: no face-down card in any hand. Seat 0's view: the opponent's hand is face down.
    page.select_option("#perspective", "all")
    assert page.locator("[data-seat] [data-card='back']").count() == 0
    for seat in (0, 1):
        page.select_option("#perspective", str(seat))
        other = 1 - seat
        expect(page.locator(f"[data-seat='{seat}'] [data-card]:not([data-card='back'])").first).to_be_visible()
        hidden = page.locator(f"[data-seat='{other}'] [data-card='back']").count()
        assert hidden > 0, f"seat {seat} sees seat {other}'s cards"
        shoot(page, f"06-replay-seat-{seat}")

    # A deep link opens the same step from the same seat's view.
    page.goto(f"{url}/games/{game.pk}/#step=7&view=1")
    assert counter(page) == 7
    assert page.locator("#perspective").input_value() == "1"
    assert page.locator("[data-seat='0'] [data-card='back']").count() > 0

    page.click("#btn-play")
    page.wait_for_function("() => /step ([1-9]\\d*) /.test(document.querySelector('#step-counter').textContent) &&"
                           " !/step 7 /.test(document.querySelector('#step-counter').textContent)")
    page.click("#btn-play")
    assert counter(page) > 7


def test_the_replay_viewer_fits_a_phone(phone: Page, live_server: Any, admitted: Any) -> None:
    game = Game.objects.filter(match__kind="admission").first()
    assert game is not None
    phone.goto(f"{live_server}/games/{game.pk}/#step=10")
    expect(phone.locator("#btn-forward")).to_be_visible()
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    phone.locator("#btn-forward").tap()
    assert counter(phone) == 11
    shoot(phone, "07-replay-phone")
    phone.goto(f"{live_server}/ladders/classic-2/")
    shoot(phone, "08-ladder-phone")
