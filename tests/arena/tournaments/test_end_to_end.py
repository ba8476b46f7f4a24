"""End to end: a small round robin among the reference bots, played for real with the tasks in process."""

from __future__ import annotations

from typing import Any

import pytest

from arena.bots.models import BotVersion
from arena.matches.models import Game, Match
from arena.tournaments.models import Tournament, TournamentTable
from arena.tournaments.selectors import tournament_crosstable, tournament_progress, tournament_standings
from arena.tournaments.services import tournament_create
from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def test_a_reference_round_robin_runs_to_the_end_and_every_game_replays(
    references: dict[str, BotVersion], run_tasks: None, settings: Any,
) -> None:
    settings.ARENA_SANDBOX = "none"
    entrants = [references["gentle"], references["random"], references["strong"]]
    tournament = tournament_create(name="Reference round robin", format="round_robin", preset="classic", players=2,
                                   deals=1, rated=True, versions=entrants)
    # "Start now": the start task ran once the creation committed; every match then played in process and its
    # done hook opened the next round, to the end.
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED, tournament.notes
    matches = Match.objects.filter(tournament_table__round__tournament=tournament)
    assert matches.count() == 3 and set(matches.values_list("status", flat=True)) == {"done"}
    assert set(matches.values_list("kind", flat=True)) == {"tournament"}
    assert set(TournamentTable.objects.filter(round__tournament=tournament).values_list("status", flat=True)) == {
        "done"}
    assert tournament_progress(tournament).percent == 100
    # Every game's record replayed when its table was done, for the finishing order's shared places.
    for table in TournamentTable.objects.filter(round__tournament=tournament).select_related("match"):
        assert table.match is not None
        assert set(table.out_positions) == {str(pk) for pk in table.match.games.values_list("pk", flat=True)}

    rows = tournament_standings(tournament)
    assert {row.entry.version.reference for row in rows} == {"gentle", "random", "strong"}
    assert [row.games for row in rows] == [4, 4, 4]  # two opponents, one deal in both seatings each
    games = Game.objects.filter(match__in=matches)
    decided = games.filter(durak_seat__isnull=False).count()
    assert sum(row.duraks for row in rows) == decided
    assert sum(row.points for row in rows) == 2 * games.count() - decided
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    assert all(row.rating is not None for row in rows)
    cross = tournament_crosstable(tournament, [row.entry for row in rows])
    assert all(cell is None or cell.games == 2 for line in cross for cell in line)
    assert set(games.values_list("rated", flat=True)) == {True}

    for game in games:
        assert replay(GameRecord.from_dict(game.record)).status == "ok", game.pk
