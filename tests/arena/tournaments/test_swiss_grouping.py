"""Swiss: tables grouped by points after each round, no rematch where one can be avoided, byes rotate and score."""

from __future__ import annotations

import itertools

from arena.tournaments.formats import pair, pair_counts, swiss_byes, swiss_tables
from arena.tournaments.models import Tournament, TournamentEntry, TournamentRound, TournamentSeat
from arena.tournaments.selectors import entry_points
from arena.tournaments.services import tournament_advance, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import finish_by_strength, run_to_end


def test_tables_are_score_brackets() -> None:
    points = {0: 9.0, 1: 9.0, 2: 9.0, 3: 5.0, 4: 5.0, 5: 5.0, 6: 1.0, 7: 1.0, 8: 1.0}
    assert swiss_tables(list(range(9)), 3, points, {}) == [(0, 1, 2), (3, 4, 5), (6, 7, 8)]


def test_a_rematch_is_avoided_at_the_cost_of_a_wider_bracket() -> None:
    points = {0: 4.0, 1: 4.0, 2: 2.0, 3: 2.0}
    tables = swiss_tables([0, 1, 2, 3], 2, points, {(0, 1): 1})
    assert (0, 1) not in tables
    assert tables == [(0, 2), (1, 3)]


def test_a_rematch_that_cannot_be_avoided_is_kept_small() -> None:
    met = {pair(a, b): 1 for a, b in itertools.combinations(range(3), 2)}  # 0, 1, 2 all met; 3 met nobody
    tables = swiss_tables([0, 1, 2, 3], 2, dict.fromkeys(range(4), 0.0), met)
    assert sum(met.get(pair(*t), 0) for t in tables) == 1


def test_byes_go_to_the_lowest_ranked_who_had_the_fewest() -> None:
    assert swiss_byes([0, 1, 2, 3, 4, 5, 6], 3, {}) == [6]
    assert swiss_byes([0, 1, 2, 3, 4, 5, 6], 3, {6: 1}) == [5]
    assert swiss_byes([0, 1, 2, 3, 4, 5, 6, 7], 3, {7: 1}) == [5, 6]


def test_a_swiss_tournament_groups_winners_with_winners_and_never_repeats_a_pairing(
    make_entrants: MakeEntrants,
) -> None:
    versions = make_entrants(8)
    strength = {v.pk: -i for i, v in enumerate(versions)}  # the first entered is the strongest
    tournament = tournament_create(name="Swiss eight", format="swiss", preset="classic", players=2, deals=1, rounds=3,
                                   versions=versions)
    tournament_advance(tournament.pk)
    finish_by_strength(tournament, strength)  # round 1 played; round 2 drawn by points
    second = TournamentRound.objects.get(tournament=tournament, number=2)
    points = entry_points(tournament)
    for table in second.tables.all():
        table_points = {points[s.entry_id] for s in table.seats.all()}
        assert len(table_points) == 1, f"round 2 table {table.number} mixes scores {table_points}"
    run_to_end(tournament, strength)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert TournamentRound.objects.filter(tournament=tournament).count() == 3
    tables: dict[int, list[int]] = {}
    for table_id, entry_id in TournamentSeat.objects.filter(table__round__tournament=tournament).values_list(
            "table_id", "entry_id"):
        tables.setdefault(table_id, []).append(entry_id)
    assert set(pair_counts(list(tables.values())).values()) == {1}
    best = TournamentEntry.objects.get(tournament=tournament, version=versions[0])
    assert entry_points(tournament)[best.pk] == 3 * 2  # won every game of its three tables


def test_an_odd_field_rotates_the_bye_and_scores_it_as_an_average_seat(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(5)
    strength = {v.pk: -i for i, v in enumerate(versions)}
    tournament = tournament_create(name="Swiss five", format="swiss", preset="classic", players=2, deals=2, rounds=3,
                                   versions=versions)
    tournament_advance(tournament.pk)
    run_to_end(tournament, strength)
    rounds = TournamentRound.objects.filter(tournament=tournament).prefetch_related("byes").order_by("number")
    byes = [[e.pk for e in r.byes.all()] for r in rounds]
    assert all(len(b) == 1 for b in byes)
    assert len({b[0] for b in byes}) == 3, "nobody sits out twice while others have not"
    for entry in TournamentEntry.objects.filter(tournament=tournament):
        assert entry.bye_points == entry.byes * 2 * (2 - 1)
