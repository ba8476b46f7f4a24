"""Partnerships: the loss rate of the first attacker's and the first defender's team beside individual play,
and a team's loss rate by the trumps dealt to it; games of team presets and of tables with people stay out
of every figure about individual play.

The team games are real: played by the engine (one reference bot a team) and stored by the matches
services. The expected figures are counted again here from the engine's records, not from the database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from pytest_django import DjangoDbBlocker

from arena.bots.models import BotVersion
from arena.bots.services import reference_versions_ensure
from arena.matches.models import Match
from arena.stats.selectors import (
    Filters,
    draw_rates,
    duplicate_correlations,
    durak_by_trumps,
    faults_by_version,
    first_attacker_rates,
    game_lengths,
    partnership_sides,
    selfplay_comparison,
    team_loss_by_trumps,
)
from bots_sdk.engine import PLAYER_COUNTS, TEAM_PRESETS, Game, GameRecord, Rules
from tests.arena.stats.factories import Played, duplicate, played, store, versions
from tests.arena.stats.test_page import charts, text
from worker.referee.match import GameResult

pytestmark = pytest.mark.django_db

Key = tuple[str | None, int]
"""(team preset or None for individual play, players)."""


@pytest.mark.parametrize(("preset", "players"), [(p, n) for p in (*TEAM_PRESETS, "pagat")
                                                 for n in PLAYER_COUNTS[p] if n >= 4])
def test_the_first_defender_is_the_seat_after_the_first_attacker(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    for seed in range(300):
        game = Game.new(rules, seed)
        assert game.defender == (game.attacker + 1) % players
        assert game.defender not in game.partners(game.attacker)


def tally(results: Sequence[GameResult]) -> tuple[dict[Key, list[int]], Counter[tuple[str, int, int, bool]]]:
    """From the records alone: per table [games, first attacker's side lost, first defender's side lost], and
    per (preset, players, a team's dealt trumps, lost) the number of team-games. Forfeits are left out."""
    sides: dict[Key, list[int]] = {}
    teams: Counter[tuple[str, int, int, bool]] = Counter()
    for result in results:
        if result.offender is not None:
            continue
        record = GameRecord.from_dict(result.record)
        rules, outcome = record.rules, record.result
        start = Game.from_deck(rules, record.deck, record.dealer)
        losers = outcome.losers if outcome.losers is not None else () if outcome.durak is None else (outcome.durak,)
        counts = sides.setdefault((rules.preset_name if rules.teams else None, rules.players), [0, 0, 0])
        counts[0] += 1
        counts[1] += start.attacker in losers
        counts[2] += (start.attacker + 1) % rules.players in losers
        for team in rules.teams or ():
            trumps = sum(1 for seat in team for card in start.hand(seat) if card.suit == start.trump)
            teams[(rules.preset_name, rules.players, trumps, team[0] in losers)] += 1
    return sides, teams


@pytest.fixture(scope="module")
def arena(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[list[GameResult]]:
    """Partnerships of every layout, individual play at 4 players, and tables with people to leave out.

    Played once for the module (the bots' processes take most of the time) inside a transaction that is
    rolled back at its end, as Django's ``setUpTestData`` does: each test runs in a savepoint of it.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        references = reference_versions_ensure()
        gentle, random = references["gentle"], references["random"]
        gentle2 = BotVersion.objects.create(bot=gentle.bot, number=2, label="2", language="reference",
                                            reference="gentle", status=BotVersion.Status.ACTIVE)
        counted = [
            *played([gentle, random], "pagat-pairs", deals=15),
            *played([gentle, random, gentle2], "pagat-pairs", deals=6),
            *played([random, gentle], "pagat-trios", deals=15),
            *played([gentle, random, gentle2, random], "pagat", deals=6),
        ]
        played([gentle, random], "pagat-pairs", deals=2, kind=Match.Kind.TABLE)
        played([random, random, gentle, gentle], "pagat", deals=2, kind=Match.Kind.TABLE)
        yield counted
        transaction.set_rollback(True)


def test_each_sides_rate_matches_a_count_from_the_records(arena: list[GameResult]) -> None:
    expected, _ = tally(arena)
    rows = partnership_sides(Filters())
    assert {(r.preset, r.players): [r.attacker.trials, r.attacker.hits, r.defender.hits] for r in rows} == expected
    assert [r.label for r in rows] == ["individual 4p", "pagat-pairs 4p", "pagat-pairs 6p", "pagat-trios 6p"]
    assert [(r.sides, r.fair) for r in rows] == [(4, 0.25), (2, 0.5), (3, pytest.approx(1 / 3)), (2, 0.5)]
    assert expected[("pagat-pairs", 4)][0] == 30  # the table with people is not counted
    for row in rows:
        for rate in (row.attacker, row.defender):
            assert rate.value is not None and rate.low <= rate.value <= rate.high
    assert [r.label for r in partnership_sides(Filters(players=6))] == ["pagat-pairs 6p", "pagat-trios 6p"]
    # A team preset's filter keeps individual play beside it; an individual preset's shows no partnerships.
    assert [r.label for r in partnership_sides(Filters(preset="pagat-trios"))] == ["pagat-trios 6p"]
    assert [r.label for r in partnership_sides(Filters(preset="pagat-pairs", players=4))] == [
        "individual 4p", "pagat-pairs 4p"]
    assert partnership_sides(Filters(preset="pagat")) == []


def test_a_teams_loss_rate_by_its_dealt_trumps_matches_a_count_from_the_records(arena: list[GameResult]) -> None:
    _, teams = tally(arena)
    cells = team_loss_by_trumps(Filters())
    found = {(c.preset, c.players, c.trumps): (c.rate.hits, c.rate.trials) for c in cells}
    expected: dict[tuple[str, int, int], tuple[int, int]] = {}
    for (preset, players, trumps, lost), n in teams.items():
        hits, trials = expected.get((preset, players, trumps), (0, 0))
        expected[(preset, players, trumps)] = (hits + n * lost, trials + n)
    assert found == expected
    assert sum(c.rate.trials for c in cells if c.preset == "pagat-trios") == 2 * 30  # two teams a game
    assert {round(c.fair, 6) for c in cells if c.preset == "pagat-pairs" and c.players == 6} == {0.333333}
    assert {(c.preset, c.players) for c in team_loss_by_trumps(Filters(preset="pagat-trios"))} == {("pagat-trios", 6)}
    assert team_loss_by_trumps(Filters(players=5)) == []


def individual_figures(filters: Filters) -> dict[str, Any]:
    """Every figure of the sections about individual play, comparable with ``==``."""
    faults, _ = faults_by_version(filters)
    lengths, histogram = game_lengths(filters)
    return {"trumps": durak_by_trumps(filters), "first": first_attacker_rates(filters), "lengths": lengths,
            "histogram": histogram["series"], "draws": draw_rates(filters),
            "faults": [(f.version.pk, f.games, f.counts) for f in faults],
            "duplicate": duplicate_correlations(filters), "selfplay": selfplay_comparison(filters)}


def test_team_games_and_tables_with_people_leave_individual_figures_unchanged(
    references: dict[str, BotVersion],
) -> None:
    gentle, random = references["gentle"], references["random"]
    a, b = versions("a", "b")
    duplicate([a, b], [[0, 1], [1, 0], [0, 0], [1, 1]] * 3)
    store([gentle, gentle], [Played(durak=d % 2, trumps=(d % 4, 3 - d % 4), deal=d) for d in range(12)])
    before = individual_figures(Filters())
    assert all(before.values())
    played([gentle, random], "pagat-pairs", deals=4)
    played([gentle, random], "pagat-trios", deals=2)
    table = [duplicate([a, b], [[0, 0], [1, 1]] * 5, kind=Match.Kind.TABLE),
             store([gentle, gentle], [Played(durak=1, trumps=(0, 3), deal=d, reason="crash", offender=1)
                                      for d in range(8)], kind=Match.Kind.TABLE)]
    assert individual_figures(Filters()) == before
    for preset in TEAM_PRESETS:
        assert not any(individual_figures(Filters(preset=preset)).values())
    # The table games would have counted as ladder games: the test above is not vacuous.
    Match.objects.filter(pk__in=[m.pk for m in table]).update(kind=Match.Kind.LADDER)
    assert individual_figures(Filters()) != before


def test_the_page_shows_the_partnerships_section_and_its_charts(arena: list[GameResult]) -> None:
    html = Client().get("/stats/").content.decode()
    page = text(html)
    assert "Partnerships: how much a team's seats matter" in page
    assert 'id="chart-partnerships"' in html and 'id="chart-team-trumps"' in html
    data = charts(html)
    rows = partnership_sides(Filters())
    assert data["partnerships"]["labels"] == [r.label for r in rows]
    assert data["partnerships"]["attacker"] == [r.attacker.to_json() for r in rows]
    assert data["partnerships"]["fair"] == [0.25, 0.5, 0.33333, 0.5]
    assert set(data["team_fair"]) <= {"pagat-pairs 4p", "pagat-pairs 6p", "pagat-trios 6p"}
    assert all(point[5] >= 10 for line in data["team_trumps"].values() for point in line)
    pairs = next(r for r in rows if r.preset == "pagat-pairs" and r.players == 4)
    assert f"pagat-pairs 4 2 {pairs.attacker.trials} " in page
    alone = sum(1 for r in arena if "teams" not in r.record["rules"] or r.record["rules"]["teams"] is None)
    assert (alone, len(arena)) == (24, 102)  # the tables with people are not counted
    assert "102 recorded games: 24 of individual play" in page and "and 78 in partnerships" in page


def test_a_team_presets_filter_shows_its_partnerships_and_no_individual_sections(arena: list[GameResult]) -> None:
    html = Client().get("/stats/?preset=pagat-pairs").content.decode()
    page = text(html)
    assert "No games of individual play for this filter" in page
    assert "Durak rate by trumps in the starting hand" not in page and "Faults per bot version" not in page
    data = charts(html)
    assert data["trumps"] == {} and data["first_attacker"] == []
    assert data["partnerships"]["labels"] == ["individual 4p", "pagat-pairs 4p", "pagat-pairs 6p"]
    assert set(data["team_trumps"]) <= {"pagat-pairs 4p", "pagat-pairs 6p"} and data["team_trumps"]
    assert "the filter's team preset has no individual games" in page
    individual = Client().get("/stats/?preset=pagat").content.decode()
    assert "No partnership games" in text(individual) and "Durak rate by trumps" in text(individual)

