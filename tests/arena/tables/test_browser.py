"""A new visitor in a real browser: opens the site, starts a table against two random bots, plays a whole game
by clicking highlighted cards and buttons (a real Celery worker plays the bots), uses the hint, clicks a card
that does not fit and reads why, reloads mid-game and goes on, then watches the replay, which shows the hand
in the table's order. And on a phone."""

from __future__ import annotations

import json
import re
import subprocess
import time
from typing import Any

import pytest
from playwright.sync_api import Page, Position, expect

from arena.matches.replay import split_cards
from arena.tables.models import Table
from bots_sdk.engine import Card, Suit, sort_hand
from tests.arena.conftest import shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Null-safe: the predicate may run while the page is still being replaced (a navigation or a reload), when
# the elements are not there yet; it must then say "not yet" rather than throw.
MY_TURN_OR_OVER = ("() => !!document.querySelector('#tb-line')?.classList.contains('is-mine')"
                   " || document.querySelector('#tb-result')?.hidden === false")
SENT_OR_REFUSED = ("() => document.querySelector('#tb-line')?.classList.contains('is-mine') === false"
                   " || document.querySelector('#tb-reason')?.hidden === false"
                   " || document.querySelector('#tb-result')?.hidden === false")

WATCH_HAND = """() => {
  // Counts redraws of the person's hand that changed nothing a person sees: the card under the cursor must stay.
  window.needlessRedraws = 0;
  const looks = (hand) => [...hand.querySelectorAll('[data-card]')].map((c) => c.dataset.card + c.className).join();
  new MutationObserver((records) => {
    const now = document.getElementById('tb-hand');
    for (const record of records) for (const gone of record.removedNodes) {
      const old = gone.id === 'tb-hand' ? gone : gone.querySelector && gone.querySelector('#tb-hand');
      if (old && now && old !== now && looks(old) === looks(now)) window.needlessRedraws++;
    }
  }).observe(document.getElementById('tb-home'), { childList: true, subtree: true });
}"""

CORNER: Position = {"x": 8, "y": 14}
"""Where a person clicks a card of a fanned hand: its visible corner (the next card covers its middle)."""


def cards_shown(page: Page, hand: str) -> list[str]:
    """The faces of the hand at ``hand``, left to right."""
    codes: list[str] = page.locator(f"{hand} [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    return codes


def over(page: Page) -> bool:
    return page.locator("#tb-result").is_visible()


def play_one(page: Page) -> None:
    """Click what is highlighted: a playable card (and the first choice, if it has several moves), else a button."""
    playable = page.locator("#tb-hand .tb-playable")
    if playable.count():
        playable.first.click(position=CORNER)
        choice = page.locator("#tb-actions .tb-choice")
        if choice.count():
            choice.first.click()
    else:
        page.locator("#tb-actions .tb-move").first.click()
    page.wait_for_function(SENT_OR_REFUSED)
    assert page.locator("#tb-reason").is_hidden(), page.locator("#tb-reason").inner_text()


def open_table_from_home(page: Page, url: str) -> None:
    page.goto(url + "/")
    page.get_by_role("link", name="Play").click()
    expect(page).to_have_url(re.compile(r"/tables/$"))
    expect(page.locator("#id_seat_0")).to_have_value("person")
    expect(page.locator("#id_seat_3")).to_be_hidden()  # three seats for the default table of three
    page.click("#open-table")
    expect(page).to_have_url(re.compile(r"/tables/[\w-]+/$"))


def test_a_new_visitor_plays_a_whole_game_by_clicking(
    page: Page, live_server: Any, references: Any, table_worker: subprocess.Popen[bytes]
) -> None:
    url = str(live_server)
    page.goto(url + "/tables/")
    shoot(page, "tables-01-list")
    open_table_from_home(page, url)
    expect(page.locator("#tb-hand [data-card]").first).to_be_visible()
    expect(page.locator("#tb-opponents .rp-seat")).to_have_count(2)
    expect(page.locator("#tb-opponents [data-card='back']").first).to_be_visible()
    expect(page.locator("#tb-deck .rp-trump-card")).to_be_visible()
    key = page.url.rstrip("/").rsplit("/", 1)[-1]
    page.evaluate(WATCH_HAND)

    page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
    shoot(page, "tables-02-my-turn")
    first_hand = cards_shown(page, "#tb-hand")
    # The hint: a highlighted suggestion, which is then played.
    page.click("#hint-btn")
    expect(page.locator("#tb-hint")).to_contain_text("Hint (gentle):")
    hinted = page.locator(".tb-hinted")
    expect(hinted).to_have_count(1)
    shoot(page, "tables-03-hint")
    hinted.click(position=CORNER)
    if page.locator("#tb-actions .tb-choice").count():
        page.locator("#tb-actions .tb-choice").first.click()
    page.wait_for_function(SENT_OR_REFUSED)

    moves, reloaded, explained = 1, False, False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
        if over(page):
            break
        dimmed = page.locator("#tb-hand .tb-dim")
        if not explained and dimmed.count():
            dimmed.first.click(position=CORNER)  # a card that fits nothing: the engine says why, nothing is played
            expect(page.locator("#tb-reason")).to_be_visible()
            assert page.locator("#tb-reason").inner_text().strip()
            shoot(page, "tables-04-why-not")
            explained = True
            assert page.locator("#tb-line").get_attribute("class") == "tb-line is-mine"
        play_one(page)
        moves += 1
        if moves >= 4 and not reloaded:
            page.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
            if over(page):
                break
            hand = sorted(cards_shown(page, "#tb-hand"))
            assert page.evaluate("window.needlessRedraws") == 0, "a poll re-drew the hand though nothing changed"
            page.reload()  # mid-game, on the person's turn: the same seat, the same cards, still to act
            page.evaluate(WATCH_HAND)
            expect(page.locator("#tb-home .rp-seat-name")).to_contain_text("(you)")
            expect(page.locator("#tb-line")).to_have_class("tb-line is-mine")
            after = cards_shown(page, "#tb-hand")
            assert sorted(after) == hand
            shoot(page, "tables-05-after-reload")
            reloaded = True
    assert over(page), "the game did not end in time"
    assert reloaded and moves >= 4
    expect(page.locator("#tb-result-text")).to_contain_text(re.compile(r"durak|draw|forfeit"))
    expect(page.locator("#tb-status")).to_have_text("finished")
    expect(page.locator("#hint-btn")).to_be_hidden()  # no hint once the game is over
    assert page.evaluate("window.needlessRedraws") == 0, "a poll re-drew the hand though nothing changed"
    shoot(page, "tables-06-finished")

    table = Table.objects.get(key=key)
    assert table.status == Table.Status.DONE and table.match is not None and not table.match.rated
    page.click("#replay-link")
    expect(page).to_have_url(re.compile(r"/games/\d+/#view=0"))
    expect(page.locator("#step-counter")).to_contain_text("step 0 /")
    expect(page.locator("#perspective")).to_have_value("0")  # the link opens the replay from the person's seat
    # The replay shows that very hand in the table's order, the one sort_hand gives (trumps last).
    frames = json.loads(page.locator("#replay-frames").text_content() or "{}")
    step = next(i for i, state in enumerate(frames["steps"])
                if sorted(split_cards(state["hands"][0])) == sorted(first_hand))
    page.evaluate(f"location.hash = '#step={step}&view=0'")
    expect(page.locator("#step-counter")).to_contain_text(f"step {step} /")
    assert cards_shown(page, "#replay .rp-seat[data-seat='0'] .rp-hand") == first_hand
    trump = Suit.parse(frames["trump"])
    assert first_hand == [str(c) for c in sort_hand(map(Card.parse, first_hand), trump)]
    page.locator("#btn-last").click()
    if frames["steps"][-1]["discard"]:  # the discard pile opens in the same order
        page.locator(".rp-discard-pile").click()
        pile = cards_shown(page, ".rp-discard-list")
        assert len(pile) == frames["steps"][-1]["discard"]
        assert pile == [str(c) for c in sort_hand(map(Card.parse, pile), trump)]
    shoot(page, "tables-07-replay")


def test_the_table_fits_a_phone(
    phone: Page, live_server: Any, references: Any, table_worker: subprocess.Popen[bytes]
) -> None:
    url = str(live_server)
    open_table_from_home(phone, url)
    phone.wait_for_function(MY_TURN_OR_OVER, timeout=60_000)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the table is {width} px wide on a 390 px phone"
    expect(phone.locator("#tb-hand [data-card]").first).to_be_visible()
    shoot(phone, "tables-08-phone")
    playable = phone.locator("#tb-hand .tb-playable")
    if playable.count():
        playable.first.tap(position=CORNER)
        if phone.locator("#tb-actions .tb-choice").count():
            phone.locator("#tb-actions .tb-choice").first.tap()
        phone.wait_for_function(SENT_OR_REFUSED)
        assert phone.locator("#tb-reason").is_hidden()
    phone.goto(url + "/tables/")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    shoot(phone, "tables-09-list-phone")
