"""A team game in a real browser: the replay viewer badges every seat with its team, says who plays for an out
partner, and ends naming the losing team; the match page lists the teams; both fit a 390 px phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from arena.bots.models import BotVersion
from arena.matches.models import Game
from arena.matches.replay import replay_frames
from tests.arena.conftest import shoot
from tests.arena.teams import team_match_store

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def stand_in_step(game: Game) -> tuple[int, str]:
    """The first step at which a partner starts to play an out player's position, and its caption."""
    frames = replay_frames(game.record)
    for index, step in enumerate(frames["steps"]):
        if "plays for seat" in step["caption"]:
            return index, step["caption"]
    raise AssertionError(f"game {game.pk} has no stand-in")


def team_game(references: dict[str, BotVersion]) -> Game:
    match = team_match_store([references["gentle"], references["random"]], "pagat-pairs")
    return next(g for g in Game.objects.filter(match=match).order_by("number")
                if g.durak_seat is not None and any("plays for seat" in s["caption"]
                                                    for s in replay_frames(g.record)["steps"]))


def test_a_team_replay_shows_teams_stand_ins_and_the_losing_team(
    page: Page, live_server: Any, references: dict[str, BotVersion],
) -> None:
    game = team_game(references)
    lost = sorted(seat.seat for seat in game.seats.all() if seat.durak)
    letter, label = ("A", "0+2") if lost == [0, 2] else ("B", "1+3")
    loser_name = game.seats.get(seat=lost[0]).version.bot.name

    page.goto(f"{live_server}/matches/{game.match_id}/")
    expect(page.locator("#match-teams")).to_contain_text("seats 0+2 vs 1+3")
    expect(page.locator("td.teams").first.locator(".team-badge")).to_have_text(["A", "B"])
    shoot(page, "team-01-match")

    page.click(f"a[href='/games/{game.pk}/']")
    expect(page.locator("#step-counter")).to_contain_text("step 0 /")
    # Every seat panel carries its team's letter; partners share it.
    for seat in range(4):
        expect(page.locator(f"[data-seat='{seat}'] .team-badge")).to_have_text("AB"[seat % 2])
    expect(page.locator(".rp-team-group")).to_have_count(2)
    expect(page.locator(".rp-team-group").nth(0).locator(".rp-seat-no")).to_have_text(["0", "2"])
    expect(page.locator("#rp-roles")).to_contain_text("attacks")
    shoot(page, "team-02-replay-deal")

    index, caption = stand_in_step(game)
    page.goto(f"{live_server}/games/{game.pk}/#step={index}&view=all")
    expect(page.locator("#caption")).to_have_text(caption)
    match = re.search(r"Seat (\d) \(([^)]*)\) plays for seat (\d) and (attacks|defends)", caption)
    assert match, caption
    stand_in, place = match.group(1), match.group(3)
    expect(page.locator("#rp-roles")).to_contain_text(f"Seat {stand_in} ({match.group(2)}) plays for seat {place}")
    expect(page.locator(f"[data-seat='{stand_in}'] .rp-chips")).to_contain_text(f"for {place}", ignore_case=True)
    expect(page.locator(f"[data-seat='{place}'] .rp-chips")).to_contain_text(f"played by {stand_in}",
                                                                               ignore_case=True)
    shoot(page, "team-03-replay-stand-in")

    page.keyboard.press("End")
    final = f"Team {letter} (seats {label}, {loser_name}) lost."
    expect(page.locator("#rp-roles")).to_have_text(final)
    expect(page.locator(".rp-table-note")).to_have_text(f"Team {letter} ({loser_name}) lost")
    expect(page.locator("#caption")).to_contain_text(f"Team {letter} (seats {label}, {loser_name})")
    expect(page.locator("#rp-result")).to_have_text(f"Team {letter} (seats {label}, {loser_name}) lost")
    for seat in lost:
        expect(page.locator(f"[data-seat='{seat}'] .rp-chip-durak")).to_have_text("lost", ignore_case=True)
    shoot(page, "team-04-replay-end")

    # A seat's view still hides everyone else's cards, its partner's included.
    page.select_option("#perspective", "0")
    page.keyboard.press("Home")
    assert page.locator("[data-seat='2'] [data-card='back']").count() == 6
    assert page.locator("[data-seat='0'] [data-card='back']").count() == 0
    shoot(page, "team-05-replay-seat-0")


def test_a_team_replay_fits_a_phone(phone: Page, live_server: Any, references: dict[str, BotVersion]) -> None:
    game = team_game(references)
    index, _ = stand_in_step(game)
    phone.goto(f"{live_server}/games/{game.pk}/#step={index}")
    expect(phone.locator("#btn-forward")).to_be_visible()
    expect(phone.locator("[data-seat] .team-badge")).to_have_count(4)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    shoot(phone, "team-06-replay-phone")
    phone.locator("#btn-last").tap()
    expect(phone.locator("#rp-roles")).to_contain_text("lost.")
    shoot(phone, "team-07-replay-phone-end")
    phone.goto(f"{live_server}/matches/{game.match_id}/")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the match page is {width} px wide on a 390 px phone"
    shoot(phone, "team-08-match-phone")
