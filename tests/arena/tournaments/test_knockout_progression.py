"""Knockout: tables by seed, the table's best goes on, ties play extra deals and then go to the better seed."""

from __future__ import annotations

from arena.matches.models import Match
from arena.notices import shown
from arena.tournaments.formats import knockout_round
from arena.tournaments.models import Tournament, TournamentEntry, TournamentRound, TournamentTable
from arena.tournaments.selectors import tournament_standings
from arena.tournaments.services import MAX_TIEBREAKS, tournament_advance, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import finish, playing, run_to_end, spec_versions


def test_pairings_follow_the_seeds_and_top_seeds_get_the_byes() -> None:
    assert knockout_round(list(range(8)), 2).tables == [(0, 7), (1, 6), (2, 5), (3, 4)]
    five = knockout_round(list(range(5)), 2)
    assert five.byes == [0] and five.tables == [(1, 4), (2, 3)]
    assert knockout_round(list(range(8)), 4).tables == [(0, 3, 4, 7), (1, 2, 5, 6)]


def test_every_field_reaches_a_single_winner_through_full_tables() -> None:
    for k in range(2, 7):
        for n in range(k, 40):
            alive, rounds = n, 0
            while alive > 1:
                plan = knockout_round(list(range(alive)), k)
                assert all(len(t) == min(k, alive) for t in plan.tables)
                assert all(0 < a < len(t) for a, t in zip(plan.advance, plan.tables))
                alive = len(plan.byes) + sum(plan.advance)
                rounds += 1
            assert alive == 1 and rounds < 12, (n, k)


def test_the_winners_advance_round_by_round_to_a_champion(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(5)
    strength = {versions[0].pk: 1, versions[1].pk: 5, versions[2].pk: 4, versions[3].pk: 3, versions[4].pk: 2}
    tournament = tournament_create(name="Cup", format="knockout", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    first = TournamentRound.objects.get(tournament=tournament, number=1)
    assert [e.seed for e in first.byes.all()] == [1]
    run_to_end(tournament, strength)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    standings = tournament_standings(tournament)
    assert standings[0].entry.version == versions[1]
    assert standings[0].stage == "winner"
    out = {e.version_id: e.eliminated_round for e in TournamentEntry.objects.filter(tournament=tournament)}
    # Seeds follow the entry order (nobody is rated). Round 1: seed 1 has a bye, 2 beats 5, 3 beats 4; round 2:
    # seed 1 had its bye, so seed 2 has this one, and 3 beats 1; round 3 (the final): 2 beats 3.
    second = TournamentRound.objects.get(tournament=tournament, number=2)
    assert [e.seed for e in second.byes.all()] == [2]
    assert out == {versions[1].pk: None, versions[2].pk: 3, versions[0].pk: 2, versions[3].pk: 1, versions[4].pk: 1}
    assert [row.entry.version for row in standings] == [versions[i] for i in (1, 2, 0, 3, 4)]
    assert [row.stage for row in standings[1:]] == ["out in round 3", "out in round 2", "out in round 1",
                                                      "out in round 1"]


def test_four_player_tables_send_the_best_two_on_when_one_would_leave_the_final_short(
    make_entrants: MakeEntrants,
) -> None:
    versions = make_entrants(6)
    strength = {v.pk: i for i, v in enumerate(versions)}  # the last entered is the strongest
    tournament = tournament_create(name="Six at four", format="knockout", preset="classic", players=4, deals=2,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (table,) = playing(tournament)
    assert table.advance == 2
    run_to_end(tournament, strength)
    final = TournamentRound.objects.get(tournament=tournament, number=2).tables.get()
    finalists = {s.entry.version_id for s in final.seats.all()}
    assert finalists == {versions[0].pk, versions[1].pk, versions[4].pk, versions[5].pk}
    assert tournament_standings(tournament)[0].entry.version == versions[5]


def test_a_tie_plays_extra_deals_then_goes_to_the_better_seed(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(2)
    tournament = tournament_create(name="Tied final", format="knockout", preset="classic", players=2, deals=2,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (main,) = playing(tournament)
    assert main.match is not None
    finish(main.match, [0, 1, 1, 0])  # two duraks each
    for extra in range(1, MAX_TIEBREAKS + 1):
        (tiebreak,) = playing(tournament)
        assert tiebreak.tiebreak_of_id == main.pk and tiebreak.deals == 1
        assert tiebreak.match is not None and tiebreak.match.deals == 1
        finish(tiebreak.match, [0, 1])
        assert TournamentTable.objects.filter(tiebreak_of=main).count() == min(extra + 1, MAX_TIEBREAKS)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert "the better seed goes on" in shown(tournament.notes)
    assert tournament_standings(tournament)[0].entry.seed == 1


def test_a_tie_break_decides_when_it_is_not_tied(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(2)
    tournament = tournament_create(name="Decided", format="knockout", preset="classic", players=2, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (main,) = playing(tournament)
    assert main.match is not None
    finish(main.match, [0, 1])
    (tiebreak,) = playing(tournament)
    assert tiebreak.match is not None
    loser = spec_versions(tiebreak.match).index(versions[0].pk)  # the top seed loses both games of the deal
    finish(tiebreak.match, [loser, loser])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament_standings(tournament)[0].entry.version == versions[1]
    assert Match.objects.filter(tournament_table__round__tournament=tournament).count() == 2
