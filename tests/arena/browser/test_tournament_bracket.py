"""A tournament organiser's pages in a real browser: the knockout bracket says who went on and by which rule, and
a Swiss event's standings show byes and the tie-break columns."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from arena.bots.models import Bot, BotVersion
from arena.matches.tasks import play_match
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_advance, tournament_create
from tests.arena.conftest import shoot
from tests.arena.tournaments.helpers import finish, playing, run_to_end, spec_versions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def entrants(monkeypatch: pytest.MonkeyPatch) -> list[BotVersion]:
    """Six active versions; their matches are finished by hand, so nothing is sent to a broker."""
    monkeypatch.setattr(play_match, "apply_async", lambda *args, **kwargs: None)
    owner = User.objects.create_user("olga", password="olga-password-123")
    return [BotVersion.objects.create(bot=Bot.objects.create(owner=owner, name=f"bot-{'abcdef'[i]}"), number=1,
                                      label="1", language="python", status=BotVersion.Status.ACTIVE)
            for i in range(6)]


def test_the_bracket_shows_rounds_tables_and_why_each_went_on(page: Page, live_server: Any,
                                                              entrants: list[BotVersion]) -> None:
    tournament = tournament_create(name="Cup of three", format="knockout", preset="classic", players=3, deals=1,
                                   versions=entrants)
    tournament_advance(tournament.pk)
    for _ in range(3):
        tables = playing(tournament)
        if not tables:
            break
        for table in tables:
            assert table.match is not None
            spec = spec_versions(table.match)
            games = table.match.deals * table.match.players
            # The last in spec order is the durak every game; the others go out in reverse spec order.
            finish(table.match, [len(spec) - 1] * games, outs=[list(range(len(spec) - 2, -1, -1))] * games)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    page.goto(f"{live_server}/tournaments/{tournament.pk}/")
    bracket = page.locator("#bracket")
    expect(bracket.locator(".bracket-round")).to_have_count(2)
    expect(bracket.locator(".bracket-round").nth(0).locator(".bracket-table")).to_have_count(2)
    expect(bracket.locator(".bracket-round").nth(0)).to_contain_text("decided by finishing order in the match")
    expect(bracket.locator("li.advanced")).to_have_count(3 + 1)  # three into the final, one champion
    expect(page.locator(".standings")).to_contain_text("winner")
    expect(page.get_by_text("goes to the better seed, the last resort")).to_be_visible()
    shoot(page, "tournament-01-knockout-bracket")


def test_swiss_standings_show_byes_and_the_tie_break_columns(page: Page, live_server: Any,
                                                            entrants: list[BotVersion]) -> None:
    tournament = tournament_create(name="Swiss of five", format="swiss", preset="classic", players=2, deals=1,
                                   rounds=3, versions=entrants[:5])
    tournament_advance(tournament.pk)
    run_to_end(tournament, {v.pk: -i for i, v in enumerate(entrants)})

    page.goto(f"{live_server}/tournaments/{tournament.pk}/")
    headers = page.locator(".standings thead th")
    for name in ("Byes", "Points", "Bu", "MBu", "SB", "DE", "FP"):
        expect(headers.filter(has_text=name).first).to_be_visible()
    byes = page.locator(".standings td.byes")
    expect(byes.filter(has_text="(+1)")).to_have_count(3)  # three rounds of five: three different bots sat out
    expect(page.get_by_text("Byes count as FIDE counts them")).to_be_visible()
    shoot(page, "tournament-02-swiss-tie-breaks")
