"""Seeding: by rating, a provisional rating by its estimate, a bot unrated here by its rating elsewhere, a bot never
rated at the prior mean (not last); staff may set the order on the form; the page shows each seed's basis."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.notices import shown
from arena.ratings.models import Ladder, Rating
from arena.tournaments.models import TournamentEntry
from arena.tournaments.services import TournamentError, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants

pytestmark = pytest.mark.django_db


def _rate(version_id: int, players: int, rating: float, provisional: bool) -> None:
    ladder, _ = Ladder.objects.get_or_create(preset="classic", players=players)
    Rating.objects.create(ladder=ladder, version_id=version_id, rating=rating, se=80, provisional=provisional)


def test_seeds_follow_the_best_estimate_of_each_and_unrated_bots_are_not_last(make_entrants: MakeEntrants) -> None:
    low, fresh, provisional, elsewhere = make_entrants(4)
    _rate(low.pk, 3, 1350, provisional=False)
    _rate(provisional.pk, 3, 1700, provisional=True)
    _rate(elsewhere.pk, 2, 1600, provisional=False)
    tournament = tournament_create(name="Seeds", format="knockout", preset="classic", players=3, deals=1,
                                   versions=[low, fresh, provisional, elsewhere])
    entries = list(TournamentEntry.objects.filter(tournament=tournament).order_by("seed"))
    assert [e.version_id for e in entries] == [provisional.pk, elsewhere.pk, fresh.pk, low.pk]
    assert [shown(e.seed_note) for e in entries] == ["rating classic 3p (provisional)", "estimate from classic 2p",
                                              "not rated yet: the prior mean", "rating classic 3p"]
    html = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'title="estimate from classic 2p"' in html and "1700" in html


def test_staff_set_the_seed_order_on_the_form(make_entrants: MakeEntrants, staff: User) -> None:
    versions = make_entrants(3)
    _rate(versions[0].pk, 2, 1800, provisional=False)
    client = Client()
    client.force_login(staff)
    form = {"name": "Set", "format": "round_robin", "preset": "classic", "players": 2, "deals": 1,
            "entrants": [v.pk for v in versions]}
    bad = client.post("/tournaments/new/", {**form, "seeds": "nobody"})
    assert bad.status_code == 400 and "&#x27;nobody&#x27; is not one of the chosen entrants" in bad.content.decode()
    response = client.post("/tournaments/new/", {**form, "seeds": f"{versions[2].bot.name}, {versions[1].bot.name}"})
    assert response.status_code == 302
    entries = TournamentEntry.objects.filter(tournament__name="Set").order_by("seed")
    assert [e.version_id for e in entries] == [versions[2].pk, versions[1].pk, versions[0].pk]
    assert [shown(e.seed_note) for e in entries][:2] == ["set by staff", "set by staff"]
    with pytest.raises(TournamentError, match="not among the entrants"):
        tournament_create(name="X", format="round_robin", preset="classic", players=2, deals=1,
                          versions=versions[:2], seed_order=[versions[2]])
