"""Standings and crosstable numbers from a hand-built set of games: counts, points, intervals, ratings."""

from __future__ import annotations

import pytest

from arena.ratings import maths
from arena.tournaments.selectors import tournament_crosstable, tournament_live, tournament_standings
from arena.tournaments.services import tournament_advance, tournament_create
from bots_sdk.stats import wilson_interval
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import finish, playing, run_to_end, spec_versions

pytestmark = pytest.mark.django_db

A, B, C = "A", "B", "C"
# Per pairing, the four games of its two duplicate deals: who was the durak ("-" a draw, "C!" C by timeout).
GAMES = {frozenset((A, B)): [A, B, B, B], frozenset((A, C)): [C, C, C, "-"], frozenset((B, C)): [B, C, "C!", B]}


def test_standings_and_crosstable_of_a_hand_built_round_robin(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    name = {v.pk: label for v, label in zip(versions, (A, B, C))}
    tournament = tournament_create(name="By hand", format="round_robin", preset="classic", players=2, deals=2,
                                   versions=versions)
    tournament_advance(tournament.pk)
    for _ in range(3):
        (table,) = playing(tournament)
        assert table.match is not None
        spec = [name[v] for v in spec_versions(table.match)]
        losers = [None if g == "-" else spec.index(g.rstrip("!")) for g in GAMES[frozenset(spec)]]
        faults = [number for number, g in enumerate(GAMES[frozenset(spec)]) if g.endswith("!")]
        finish(table.match, losers, faults)
    tournament.refresh_from_db()
    assert tournament.status == "finished"

    rows = tournament_standings(tournament)
    got = [(name[r.entry.version_id], r.games, r.duraks, r.draws, r.faults, r.points) for r in rows]
    assert got == [(A, 8, 1, 1, 0, 7), (B, 8, 5, 0, 0, 3), (C, 8, 5, 1, 1, 3)]  # B over C: same points, no fault
    for row in rows:
        assert (row.rate_low, row.rate_high) == pytest.approx(wilson_interval(row.duraks, row.games))
    assert rows[0].rate_text == "12 % (2–47)"

    index = {A: 0, B: 1, C: 2}
    tables = [[index[x], index[y]] for x, y in ((A, B),) * 4 + ((A, C),) * 3 + ((B, C),) * 4]
    duraks = [0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0]
    expected = maths.fit(maths.GameSet.from_tables(tables, duraks, 3), prior_sd=350.0, prior_mean=1500.0)
    for row in rows:
        i = index[name[row.entry.version_id]]
        assert row.rating == pytest.approx(expected.ratings[i])
        assert (row.rating_low, row.rating_high) == pytest.approx(expected.interval(i))
    assert rows[0].rating is not None and rows[1].rating is not None and rows[0].rating > rows[1].rating

    cross = tournament_crosstable(tournament, [r.entry for r in rows])
    assert [cross[i][i] for i in range(3)] == [None, None, None]
    cells = {(name[rows[i].entry.version_id], name[rows[j].entry.version_id]): cell
             for i, line in enumerate(cross) for j, cell in enumerate(line) if cell is not None}
    assert (cells[A, B].games, cells[A, B].mine, cells[A, B].theirs) == (4, 1, 3)
    assert (cells[B, A].games, cells[B, A].mine, cells[B, A].theirs) == (4, 3, 1)
    assert (cells[A, C].games, cells[A, C].mine, cells[A, C].theirs) == (4, 0, 3)
    assert (cells[B, C].games, cells[B, C].mine, cells[B, C].theirs) == (4, 2, 2)
    assert cells[A, B].share == 0.25 and cells[A, B].interval == pytest.approx(wilson_interval(1, 4))

    live = tournament_live(tournament)
    assert [(s["bot"], s["points"], s["faults"]) for s in live["standings"]] == [
        (versions[0].bot.name, 7, 0), (versions[1].bot.name, 3, 0), (versions[2].bot.name, 3, 1)]
    assert live["progress"] == {"done": 3, "failed": 0, "playing": 0, "total": 3, "percent": 100}


def test_a_three_player_table_counts_every_pair_at_the_table(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    tournament = tournament_create(name="Three", format="round_robin", preset="classic", players=3, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (table,) = playing(tournament)
    assert table.match is not None
    spec = spec_versions(table.match)
    a, b = spec.index(versions[0].pk), spec.index(versions[1].pk)
    finish(table.match, [a, b, b])
    rows = tournament_standings(tournament)
    assert [(r.entry.version, r.games, r.duraks, r.points) for r in rows] == [
        (versions[2], 3, 0, 3), (versions[0], 3, 1, 2), (versions[1], 3, 2, 1)]
    cross = tournament_crosstable(tournament, [r.entry for r in rows])
    c_vs_a, c_vs_b, a_vs_b = cross[0][1], cross[0][2], cross[1][2]
    assert c_vs_a is not None and (c_vs_a.games, c_vs_a.mine, c_vs_a.theirs) == (3, 0, 1)
    assert c_vs_b is not None and (c_vs_b.games, c_vs_b.mine, c_vs_b.theirs) == (3, 0, 2)
    assert a_vs_b is not None and (a_vs_b.games, a_vs_b.mine, a_vs_b.theirs) == (3, 1, 2)


def test_standings_before_any_game_list_every_entrant_without_numbers(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(4)
    tournament = tournament_create(name="Not yet", format="swiss", preset="classic", players=2, deals=1, rounds=2,
                                   versions=versions)
    rows = tournament_standings(tournament)
    assert [r.entry.version for r in rows] == versions
    assert all(r.games == 0 and r.rate is None and r.rating is None for r in rows)
    run_to_end(tournament, {v.pk: 0 for v in versions})
