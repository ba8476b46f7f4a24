"""A withdrawal mid-tournament: its remaining tables are not created, its played games still count."""

from __future__ import annotations

import pytest

from arena.bots.models import BotVersion
from arena.matches.models import GameSeat, Match
from arena.tournaments.models import Tournament, TournamentEntry, TournamentTable
from arena.tournaments.selectors import tournament_standings
from arena.tournaments.services import TournamentError, tournament_advance, tournament_create, tournament_withdraw
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import finish_by_strength, run_to_end

pytestmark = pytest.mark.django_db


def test_a_round_robin_goes_on_without_a_withdrawn_bot_and_keeps_its_games(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(4)
    strength = {v.pk: -i for i, v in enumerate(versions)}
    tournament = tournament_create(name="Leaver", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    finish_by_strength(tournament, strength)  # round 1 played, round 2 opened
    leaver = TournamentEntry.objects.get(tournament=tournament, version=versions[3])
    played_before = GameSeat.objects.filter(version=versions[3], game__match__kind="tournament").count()
    assert played_before == 2
    tournament_withdraw(entry=leaver, reason="author asked")
    run_to_end(tournament, strength)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    skipped = TournamentTable.objects.filter(round__tournament=tournament, status=TournamentTable.Status.SKIPPED)
    assert skipped.count() == 1  # round 3's table against it; round 2's match was already created and played
    assert all(t.match_id is None and "withdrew" in t.notes for t in skipped)
    assert Match.objects.filter(kind="tournament", entries__version=versions[3]).count() == 2
    assert Match.objects.filter(kind="tournament").count() == 5
    rows = {r.entry.version_id: r for r in tournament_standings(tournament)}
    assert rows[versions[3].pk].games == 4 and rows[versions[3].pk].stage == "withdrawn in round 2: author asked"
    assert rows[versions[0].pk].games == 6 and rows[versions[0].pk].rank == 1
    assert "withdrew: author asked" in tournament.notes


def test_a_knockout_entrant_who_withdraws_does_not_go_on(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(4)
    strength = {v.pk: -i for i, v in enumerate(versions)}
    tournament = tournament_create(name="Cup", format="knockout", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    tournament_withdraw(entry=TournamentEntry.objects.get(tournament=tournament, version=versions[0]),
                        reason="crashing")
    run_to_end(tournament, strength)  # seed 1 still wins its first table on the board, but cannot go on
    rows = tournament_standings(tournament)
    assert rows[0].entry.version == versions[1]
    assert TournamentTable.objects.filter(round__number=2, round__tournament=tournament,
                                          seats__entry__version=versions[0]).count() == 0


def test_withdrawals_before_the_start_that_leave_too_few_cancel_it(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    tournament = tournament_create(name="Thin", format="round_robin", preset="classic", players=3, deals=1,
                                   versions=versions)
    tournament_withdraw(entry=TournamentEntry.objects.get(tournament=tournament, version=versions[2]), reason="x")
    assert tournament_advance(tournament.pk) == "cancelled"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert tournament.error == "not started: 2 entrants cannot fill a table of 3: enter at least 3"
    assert not Match.objects.exists()
    with pytest.raises(TournamentError, match="cancelled"):
        tournament_withdraw(entry=TournamentEntry.objects.get(tournament=tournament, version=versions[0]), reason="")


def test_a_version_rejected_before_the_start_is_withdrawn_at_the_start(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    tournament = tournament_create(name="Rejects", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    BotVersion.objects.filter(pk=versions[1].pk).update(status=BotVersion.Status.REJECTED)
    tournament_advance(tournament.pk)
    entry = TournamentEntry.objects.get(tournament=tournament, version=versions[1])
    assert entry.withdrawn and "rejected" in entry.withdrawn_reason
    assert not TournamentTable.objects.filter(seats__entry=entry).exists()
    assert Match.objects.filter(kind="tournament").count() == 1
