"""Round-robin schedules: every 2-player pairing once; tables of 3-6 balanced so every pair meets about equally."""

from __future__ import annotations

import doctest
import itertools

import pytest

from arena.bots.models import BotVersion
from arena.tournaments import formats
from arena.tournaments.formats import circle_rounds, pair_counts, round_robin_schedule
from arena.tournaments.models import Tournament, TournamentSeat, TournamentTable
from arena.tournaments.services import tournament_advance, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants


def check_rounds(rounds: list[list[tuple[int, ...]]], n: int, k: int) -> None:
    for tables in rounds:
        seated = [p for table in tables for p in table]
        assert len(seated) == len(set(seated)), f"someone plays twice in a round: {tables}"
        assert all(len(table) == k and len(set(table)) == k for table in tables)
        assert all(0 <= p < n for p in seated)


@pytest.mark.parametrize("n", range(2, 15))
def test_two_player_round_robin_has_every_pairing_exactly_once(n: int) -> None:
    rounds = circle_rounds(n)
    check_rounds(rounds, n, 2)
    counts = pair_counts([t for r in rounds for t in r])
    assert counts == dict.fromkeys(itertools.combinations(range(n), 2), 1)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)


@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_tables_of_three_to_six_meet_every_pair_equally_often_within_one(k: int) -> None:
    for n in range(k, 17):
        rounds = round_robin_schedule(n, k, seed="test")
        check_rounds(rounds, n, k)
        tables = [t for r in rounds for t in r]
        counts = pair_counts(tables)
        meetings = [counts.get(pair, 0) for pair in itertools.combinations(range(n), 2)]
        assert min(meetings) >= 1, f"n={n}, k={k}: a pair never meets"
        assert max(meetings) - min(meetings) <= 1, f"n={n}, k={k}: meetings {min(meetings)}..{max(meetings)}"
        seats = [sum(p in t for t in tables) for p in range(n)]
        assert len(set(seats)) == 1, f"n={n}, k={k}: unequal tables per entrant {seats}"


def test_known_designs_are_found_exactly() -> None:
    fano = [t for r in round_robin_schedule(7, 3) for t in r]
    assert len(fano) == 7 and set(pair_counts(fano).values()) == {1}  # the Fano plane
    kirkman = round_robin_schedule(9, 3)
    assert [len(r) for r in kirkman] == [3, 3, 3, 3]  # the affine plane of order 3: four full rounds
    assert set(pair_counts([t for r in kirkman for t in r]).values()) == {1}


def test_the_format_module_examples_hold() -> None:
    assert doctest.testmod(formats).failed == 0  # arena/ is outside the doctest run of pytest's testpaths


def test_the_schedule_is_reproducible_from_the_seed() -> None:
    assert round_robin_schedule(10, 4, seed="a") == round_robin_schedule(10, 4, seed="a")


def test_a_started_round_robin_plans_every_round_and_plays_each_table_once_per_deal_set(
    make_entrants: MakeEntrants,
) -> None:
    versions: list[BotVersion] = make_entrants(7)
    tournament = tournament_create(name="Seven at three", format="round_robin", preset="classic", players=3, deals=2,
                                   versions=versions)
    assert tournament_advance(tournament.pk) == "waiting"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    tables = TournamentTable.objects.filter(round__tournament=tournament)
    by_table: dict[int, list[int]] = {}
    for table_id, version_id in TournamentSeat.objects.filter(table__in=tables).values_list("table_id",
                                                                                             "entry__version_id"):
        by_table.setdefault(table_id, []).append(version_id)
    assert set(pair_counts(list(by_table.values())).values()) == {1}
    opened = tables.filter(status=TournamentTable.Status.PLAYING)
    assert opened.count() == tables.filter(round__number=1).count() >= 1
    for table in opened.select_related("match"):
        assert table.match is not None
        assert table.match.kind == "tournament" and table.match.deals == 2 and table.match.players == 3
    assert not tables.filter(round__number__gt=1, match__isnull=False).exists()
