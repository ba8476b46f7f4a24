"""The tournament pages: list, live page and its JSON, the staff form and actions, the admin; names escaped."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, Match
from arena.notices import shown
from arena.tournaments.models import Tournament, TournamentEntry
from arena.tournaments.services import tournament_advance, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import finish_by_strength, playing, run_to_end

pytestmark = pytest.mark.django_db

EVIL = "<b onmouseover=alert(1)>&\"'"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def played(make_entrants: MakeEntrants) -> Tournament:
    """A finished three-bot round robin, one bot with a hostile name, and a scheduled and a running one."""
    versions = make_entrants(3)
    Bot.objects.filter(pk=versions[2].bot_id).update(name=EVIL)
    tournament = tournament_create(name="<script>alert('t')</script> Open", format="round_robin", preset="classic",
                                   players=2, deals=1, versions=versions)
    tournament_advance(tournament.pk)
    run_to_end(tournament, {v.pk: -i for i, v in enumerate(versions)})
    tournament.refresh_from_db()
    return tournament


def test_the_list_shows_running_scheduled_and_finished(played: Tournament, make_entrants: MakeEntrants) -> None:
    running = tournament_create(name="Running cup", format="knockout", preset="classic", players=2, deals=1,
                                versions=make_entrants(2))
    tournament_advance(running.pk)
    from datetime import timedelta

    from django.utils import timezone

    tournament_create(name="Next week", format="swiss", preset="classic", players=2, deals=1, rounds=3,
                      versions=make_entrants(2), starts_at=timezone.now() + timedelta(days=7))
    html = Client().get("/tournaments/").content.decode()
    sections = html.split("<h2>")
    assert "Running cup" in sections[1] and "Next week" in sections[2] and "Open" in sections[3]
    assert "&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt; Open" in html and "<script>alert(" not in html
    assert f'href="/tournaments/{played.pk}/"' in html
    assert "New tournament" not in html


def test_the_live_page_shows_standings_crosstable_rounds_and_links_every_match_and_game(played: Tournament) -> None:
    response = Client().get(f"/tournaments/{played.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<script>alert(" not in html and "<b onmouseover" not in html
    assert "&lt;b onmouseover=alert(1)&gt;&amp;&quot;&#x27;" in html
    for match in Match.objects.filter(tournament_table__round__tournament=played):
        assert f'href="/matches/{match.pk}/"' in html
    games = Game.objects.filter(match__tournament_table__round__tournament=played)
    assert games.count() == 6
    for game in games:
        assert f'href="/games/{game.pk}/"' in html
    page = text(html)
    assert "3 of 3 matches" in page and "Standings" in page and "Crosstable" in page and "Round 3" in page
    standings = html.split('class="table standings"')[1].split("</table>")[0]
    assert standings.count("<tr") == 4 and 'class="bar"' in standings
    crosstable = html.split('class="table compact crosstable"')[1].split("</table>")[0]
    assert crosstable.count('class="self"') == 3 and "2–0" in crosstable
    assert "live.js" in html and 'data-status="finished"' in html
    assert "/withdraw/" not in page and "Cancel the tournament" not in page


def test_live_json_reports_progress_and_standings(played: Tournament) -> None:
    data = Client().get(f"/tournaments/{played.pk}/live.json").json()
    assert data["status"] == "finished" and data["progress"]["percent"] == 100
    assert [row["points"] for row in data["standings"]] == [4, 2, 0]
    assert data["standings"][2]["bot"] == EVIL
    top = data["standings"][0]
    # Its opponents' points (2 and 0); Sonneborn-Berger: both games won against each, weighted by their points.
    assert top["byes"] == 0 and top["tiebreaks"]["buchholz"] == 2 and top["tiebreaks"]["sonneborn_berger"] == 4


def test_unknown_tournaments_are_404(db: None) -> None:
    assert Client().get("/tournaments/999/").status_code == 404
    assert Client().get("/tournaments/999/live.json").status_code == 404


def test_the_match_page_links_its_tournament(played: Tournament) -> None:
    match = Match.objects.filter(tournament_table__round__tournament=played).first()
    assert match is not None
    html = Client().get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/tournaments/{played.pk}/"' in html and "&lt;script&gt;" in html
    ladder = Match.objects.create(kind="ladder", preset="classic", players=2, deals=1, seed="x", move_s=1, bank_s=1,
                                  start_s=1)
    assert "of the tournament" not in Client().get(f"/matches/{ladder.pk}/").content.decode()


def test_only_staff_may_create(staff: User, author: User) -> None:
    assert Client().get("/tournaments/new/").status_code == 302
    assert client_of(author).get("/tournaments/new/").status_code == 403
    assert client_of(staff).get("/tournaments/new/").status_code == 200
    assert "New tournament" in client_of(staff).get("/tournaments/").content.decode()


def test_the_form_creates_a_scheduled_tournament_of_active_versions(staff: User,
                                                                    make_entrants: MakeEntrants) -> None:
    versions = make_entrants(4)
    BotVersion.objects.filter(pk=versions[3].pk).update(status=BotVersion.Status.RETIRED)
    client = client_of(staff)
    form = client.get("/tournaments/new/").content.decode()
    assert versions[0].bot.name in form and versions[3].bot.name not in form
    response = client.post("/tournaments/new/", {
        "name": "Staff cup", "format": "swiss", "preset": "classic", "players": "2", "deals": "3", "rounds": "2",
        "rated": "on", "starts_at": "2031-05-01T18:30", "entrants": [v.pk for v in versions[:3]],
    })
    tournament = Tournament.objects.get(name="Staff cup")
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.format, tournament.rounds, tournament.deals, tournament.rated, tournament.status) == (
        "swiss", 2, 3, True, "scheduled")
    assert tournament.starts_at.isoformat() == "2031-05-01T18:30:00+00:00"
    assert tournament.created_by == staff and tournament.entries.count() == 3
    page = text(client.get(f"/tournaments/{tournament.pk}/").content.decode())
    assert "starts 2031-05-01 18:30 UTC" in page and "drawn when it starts" in page


def test_the_form_explains_what_is_wrong(staff: User, make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    client = client_of(staff)
    post = {"name": "Too big a table", "format": "round_robin", "preset": "classic", "players": "4", "deals": "1",
            "entrants": [v.pk for v in versions]}
    response = client.post("/tournaments/new/", post)
    assert response.status_code == 400
    assert "3 entrants cannot fill a table of 4: enter at least 4" in response.content.decode()
    response = client.post("/tournaments/new/", {**post, "players": "2", "format": "swiss"})
    assert response.status_code == 400 and "Swiss: say how many rounds" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_refuses_an_overlap_until_it_is_allowed(staff: User, make_entrants: MakeEntrants) -> None:
    versions = make_entrants(2)
    tournament_create(name="Earlier", format="round_robin", preset="classic", players=2, deals=1, versions=versions)
    client = client_of(staff)
    post = {"name": "Later", "format": "round_robin", "preset": "classic", "players": "2", "deals": "1",
            "entrants": [v.pk for v in versions]}
    response = client.post("/tournaments/new/", post)
    assert response.status_code == 400 and "already entered elsewhere" in response.content.decode()
    assert client.post("/tournaments/new/", {**post, "allow_overlap": "on"}).status_code == 302
    assert Tournament.objects.filter(name="Later").exists()


def test_staff_withdraw_and_cancel_from_the_page(staff: User, author: User, make_entrants: MakeEntrants) -> None:
    versions = make_entrants(4)
    tournament = tournament_create(name="Live", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    finish_by_strength(tournament, {v.pk: 0 for v in versions})
    entry = TournamentEntry.objects.get(tournament=tournament, version=versions[1])
    url = f"/tournaments/{tournament.pk}/entries/{entry.pk}/withdraw/"
    assert client_of(author).post(url, {"reason": "no"}).status_code == 403
    page = client_of(staff).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert url in page and "Cancel the tournament" in page
    assert client_of(staff).post(url, {"reason": "keeps timing out"}).status_code == 302
    entry.refresh_from_db()
    assert entry.withdrawn and entry.withdrawn_reason == "keeps timing out"
    assert "withdrawn in round 2: keeps timing out" in text(Client().get(f"/tournaments/{tournament.pk}/").content
                                                             .decode())
    assert client_of(staff).post(f"/tournaments/{tournament.pk}/cancel/", {"reason": "server move"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.error == "server move"
    # Nothing is left half-alive: the queued matches are cancelled, the rounds and tables closed, and the
    # notes say who cancelled and when.
    assert not playing(tournament)
    assert not Match.objects.filter(tournament_table__round__tournament=tournament, status=Match.Status.QUEUED)
    assert not tournament.tournament_rounds.filter(status__in=("planned", "running"))
    assert "cancelled by sam at " in shown(tournament.notes) and "server move" in shown(tournament.notes)


def test_every_tournaments_model_has_an_admin_whose_pages_render(played: Tournament) -> None:
    superuser = User.objects.create_superuser("root", password="root-password-123")
    client = client_of(superuser)
    from arena.tournaments.models import TournamentSeries
    from arena.tournaments.services import series_save

    series_save(TournamentSeries(name="Weekly", format="knockout", preset="classic", players=2, deals=1))
    for model in apps.get_app_config("tournaments").get_models():
        assert model in admin.site._registry, f"{model.__name__} has no admin"
        meta = model._meta
        listing = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert listing.status_code == 200, meta.label
        row = model._default_manager.first()
        assert row is not None, meta.label
        page = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk]))
        assert page.status_code == 200, meta.label
    assert client.get(reverse("admin:tournaments_tournament_add")).status_code == 200
