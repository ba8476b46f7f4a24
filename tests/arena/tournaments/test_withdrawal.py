"""A withdrawal mid-tournament: its queued matches are cancelled, its played games still count, and the others
are compensated so that each counts the same number of tables."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_claim, match_store_result
from arena.notices import shown
from arena.tournaments.models import Tournament, TournamentEntry, TournamentTable
from arena.tournaments.selectors import tournament_standings
from arena.tournaments.services import (
    TournamentError,
    tournament_advance,
    tournament_create,
    tournament_match_done,
    tournament_withdraw,
)
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import finish_by_strength, playing, results, run_to_end, spec_versions

pytestmark = pytest.mark.django_db


def test_a_withdrawal_cancels_the_queued_match_and_the_others_still_count_equal_tables(
    make_entrants: MakeEntrants,
) -> None:
    versions = make_entrants(4)
    strength = {v.pk: -i for i, v in enumerate(versions)}
    tournament = tournament_create(name="Leaver", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    finish_by_strength(tournament, strength)  # round 1 played, round 2 opened
    leaver = TournamentEntry.objects.get(tournament=tournament, version=versions[3])
    queued = Match.objects.get(kind="tournament", entries__version=versions[3], status=Match.Status.QUEUED)
    tournament_withdraw(entry=leaver, reason="author asked")
    queued.refresh_from_db()
    assert queued.status == Match.Status.CANCELLED  # a worker that picks it up now finds nothing to claim
    assert match_claim(match_id=queued.pk, task_id="late", worker="w") is None
    run_to_end(tournament, strength)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    skipped = TournamentTable.objects.filter(round__tournament=tournament, status=TournamentTable.Status.SKIPPED)
    assert skipped.count() == 2 and all("withdrew" in shown(t.notes) for t in skipped)
    rows = {r.entry.version_id: r for r in tournament_standings(tournament)}
    assert rows[versions[3].pk].games == 2 and rows[versions[3].pk].stage == "withdrawn in round 2: author asked"
    # The withdrawal rule: every entrant still in counts three tables, played or scored as a bye.
    for version in versions[:3]:
        row = rows[version.pk]
        assert row.games // 2 + row.byes == 3, (row.games, row.byes)
        assert row.bye_points == row.byes * 1
    assert rows[versions[0].pk].rank == 1
    assert "withdrew: author asked" in shown(tournament.notes)


def test_a_match_running_at_the_withdrawal_finishes_but_does_not_count(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    tournament = tournament_create(name="Running", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    table = playing(tournament)[0]
    assert table.match is not None
    claimed = match_claim(match_id=table.match.pk, task_id="t1", worker="w")
    assert claimed is not None
    leaver = TournamentEntry.objects.get(tournament=tournament, version_id=spec_versions(table.match)[1])
    tournament_withdraw(entry=leaver, reason="broken")
    assert match_store_result(match=claimed, task_id="t1", results=results(table.match, [1, 1]))
    tournament_match_done(table.match.pk)
    table.refresh_from_db()
    assert table.status == TournamentTable.Status.SKIPPED and "does not count" in shown(table.notes)
    rows = {r.entry.pk: r for r in tournament_standings(tournament)}
    assert rows[leaver.pk].games == 0  # recorded on the match page, not counted here
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "it finishes and is recorded, but does not count" in page


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
    assert shown(tournament.error) == "not started: 2 entrants cannot fill a table of 3: enter at least 3"
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
    assert entry.withdrawn and "rejected" in shown(entry.withdrawn_reason)
    assert not TournamentTable.objects.filter(seats__entry=entry).exists()
    assert Match.objects.filter(kind="tournament").count() == 1
