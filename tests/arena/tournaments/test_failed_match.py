"""A failed match does not hang the tournament; a failing version's forfeits show as faults."""

from __future__ import annotations

import pytest

from arena.notices import shown
from arena.tournaments.models import Tournament, TournamentTable
from arena.tournaments.selectors import tournament_progress, tournament_standings
from arena.tournaments.services import tournament_advance, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import fail, finish, playing, run_to_end, spec_versions

pytestmark = pytest.mark.django_db


def test_a_failed_match_is_recorded_and_the_round_robin_moves_on(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    tournament = tournament_create(name="Flaky", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (table,) = playing(tournament)
    assert table.match is not None
    fail(table.match, "build: bot.toml requirements: no matching wheel\nmore detail")
    table.refresh_from_db()
    assert table.status == TournamentTable.Status.FAILED
    assert shown(table.notes) == "match failed: build: bot.toml requirements: no matching wheel"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.current_round == 2
    assert f"match #{table.match.pk} failed" in shown(tournament.notes)
    run_to_end(tournament, {v.pk: 0 for v in versions})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    progress = tournament_progress(tournament)
    assert (progress.done, progress.failed, progress.total, progress.percent) == (2, 1, 3, 100)
    assert sum(r.games for r in tournament_standings(tournament)) == 2 * 2 * 2


def test_a_failed_knockout_match_sends_the_better_seed_on(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(2)
    tournament = tournament_create(name="Final", format="knockout", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (table,) = playing(tournament)
    assert table.match is not None
    fail(table.match)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert "the match failed: the better seed goes on (the last resort)" in shown(tournament.notes)
    assert tournament_standings(tournament)[0].entry.version == versions[0]


def test_forfeits_of_a_failing_version_count_as_duraks_and_show_as_faults(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(2)
    tournament = tournament_create(name="Timeouts", format="round_robin", preset="classic", players=2, deals=2,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (table,) = playing(tournament)
    assert table.match is not None
    failing = spec_versions(table.match).index(versions[1].pk)
    finish(table.match, [failing, 1 - failing, failing, failing], faults=[2, 3])
    rows = {r.entry.version_id: r for r in tournament_standings(tournament)}
    assert (rows[versions[1].pk].duraks, rows[versions[1].pk].faults, rows[versions[1].pk].points) == (3, 2, 1)
    assert (rows[versions[0].pk].duraks, rows[versions[0].pk].faults, rows[versions[0].pk].points) == (1, 0, 3)
