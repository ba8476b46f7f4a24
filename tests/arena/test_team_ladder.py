"""Partnerships in the arena: a team is one bot version in every seat of its team.

A rated ``pagat-pairs`` match between two versions is a four-player match; it is played for real (referee,
bubblewrap), stored seat by seat, and rated as a game between the two versions on the team ladder
``pagat-pairs-4``. A round robin of teams counts each entrant once per game, not once per seat.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from arena.bots.models import BotVersion
from arena.matches.models import Game, GameSeat, Match, MatchEntry, PairTally
from arena.matches.services import MatchError, match_create
from arena.ratings.models import Ladder, Rating
from arena.ratings.services import ratings_refit
from arena.tournaments.selectors import tournament_standings
from arena.tournaments.services import tournament_create
from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def test_a_rated_team_match_is_played_stored_and_rated_between_two_versions(
    references: dict[str, BotVersion], run_tasks: None, client: Client,
) -> None:
    gentle, random_ = references["gentle"], references["random"]
    match = match_create(kind=Match.Kind.LADDER, versions=[gentle, random_], preset="pagat-pairs", deals=2, rated=True)
    match.refresh_from_db()
    assert match.players == 4
    assert match.status == Match.Status.DONE, match.error

    games = list(Game.objects.filter(match=match).prefetch_related("seats"))
    assert len(games) == 4  # two deals, each with the two teams swapped over the seat layouts
    layouts = set()
    decided = 0
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        versions = [s.version_id for s in seats]
        assert versions[0] == versions[2] and versions[1] == versions[3] and versions[0] != versions[1]
        layouts.add((game.deal, versions[0]))
        result = game.record["result"]
        assert replay(GameRecord.from_dict(game.record)).status == "ok", game.pk
        if game.durak_seat is None:
            assert not any(s.durak for s in seats) and result["losers"] == []
            continue
        decided += 1
        assert [s.seat for s in seats if s.durak] == result["losers"]
        assert game.durak_seat in result["losers"]
    assert layouts == {(deal, version.pk) for deal in (0, 1) for version in (gentle, random_)}

    entries = {e.version_id: e for e in MatchEntry.objects.filter(match=match)}
    assert {e.games for e in entries.values()} == {4}
    assert sum(e.duraks for e in entries.values()) == decided
    tally = PairTally.objects.get(version=gentle, opponent=random_)
    assert (tally.games, tally.duraks, tally.opponent_duraks) == (4, entries[gentle.pk].duraks,
                                                                  entries[random_.pk].duraks)

    ladder = Ladder.objects.get(preset="pagat-pairs", players=4)
    assert ladder.title == "Pagat-pairs, 4 players in 2 teams of 2" and ladder.sides == 2
    ratings = {r.version_id: r for r in Rating.objects.filter(ladder=ladder)}
    assert set(ratings) == {gentle.pk, random_.pk}
    assert {r.games for r in ratings.values()} == {decided}  # one rated game per game, not per seat
    assert ratings[gentle.pk].duraks == entries[gentle.pk].duraks
    if entries[gentle.pk].duraks < entries[random_.pk].duraks:
        assert ratings[gentle.pk].rating > ratings[random_.pk].rating
    assert ratings_refit(ladder) == decided
    api = client.get(f"/api/matches/{match.pk}").json()
    assert [g["losers"] for g in api["games"]] == [g.record["result"]["losers"] for g in games]
    page = client.get(f"/ladders/{ladder.slug}/")
    assert page.status_code == 200
    assert b"in 2 teams of 2" in page.content and b"/bots/gentle/" in page.content


def test_a_team_preset_seats_one_version_a_team(references: dict[str, BotVersion]) -> None:
    versions = [references["gentle"], references["random"], references["strong"], references["gentle"]]
    with pytest.raises(MatchError, match="seats one bot a team: give 2 bots, not 4"):
        match_create(kind=Match.Kind.CHALLENGE, versions=versions, preset="pagat-pairs", deals=1, rated=False)
    with pytest.raises(MatchError, match="players: preset 'pagat-trios' is for 6 players, not 3"):
        match_create(kind=Match.Kind.CHALLENGE, versions=versions[:3], preset="pagat-trios", deals=1, rated=False)


def test_a_team_round_robin_counts_each_entrant_once_a_game(
    references: dict[str, BotVersion], run_tasks: None, settings: Any,
) -> None:
    settings.ARENA_SANDBOX = "none"
    entrants = [references["gentle"], references["random"]]
    tournament = tournament_create(name="Teams", format="round_robin", preset="pagat-trios", players=6, deals=1,
                                   rated=False, versions=entrants)
    tournament.refresh_from_db()
    assert tournament.status == "finished", tournament.notes
    assert tournament.sides == 2
    rows = tournament_standings(tournament)
    assert [row.games for row in rows] == [2, 2]  # one deal, each team in each layout
    games = Game.objects.filter(match__tournament_table__round__tournament=tournament)
    assert games.count() == 2 and set(games.values_list("players", flat=True)) == {6}
    assert GameSeat.objects.filter(game__in=games).count() == 12
    decided = games.filter(durak_seat__isnull=False).count()
    assert sum(row.duraks for row in rows) == decided
    assert sum(row.points for row in rows) == 2 * games.count() - decided
