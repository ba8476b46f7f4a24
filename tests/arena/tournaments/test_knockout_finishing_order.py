"""Knockout at tables of three: the order players went out separates the bots "fewer duraks" cannot, so an unbeaten
bot is not sent home by its seed, and a final tied on duraks is decided by play."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.matches.models import Match
from arena.notices import shown
from arena.tournaments.models import Tournament, TournamentEntry, TournamentTable
from arena.tournaments.services import tournament_advance, tournament_create, tournament_withdraw
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import finish, playing, spec_versions

pytestmark = pytest.mark.django_db


def _play(table: TournamentTable, order: list[int], seconds_first_in: frozenset[int] = frozenset()) -> None:
    """Play ``table``'s match: the entrant ``order[-1]`` (a version id) is the durak every game; of the others,
    ``order[0]`` goes out first except in the games numbered in ``seconds_first_in``."""
    assert table.match is not None
    versions = spec_versions(table.match)
    index = [versions.index(v) for v in order]
    games = table.match.deals * table.match.players
    outs = []
    for g in range(games):
        first, second = (index[1], index[0]) if g in seconds_first_in else (index[0], index[1])
        outs.append([first, second])
    finish(table.match, [index[-1]] * games, outs=outs)


def test_an_unbeaten_bot_that_goes_out_first_goes_on_though_its_seed_is_worse(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(6)
    tournament = tournament_create(name="Three", format="knockout", preset="classic", players=3, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    first, second = playing(tournament)
    assert (first.advance, second.advance) == (2, 1)  # five would be too many for a final of three
    seeds = {e.version_id: e.seed for e in TournamentEntry.objects.filter(tournament=tournament)}
    at_second = sorted(spec_versions(second.match), key=seeds.__getitem__)  # type: ignore[arg-type]
    better_seed, worse_seed, weakest = at_second
    # Neither of the two stronger is ever the durak; the worse seed goes out first in two games of three.
    _play(second, [worse_seed, better_seed, weakest], seconds_first_in=frozenset({0}))
    a, b, c = sorted(spec_versions(first.match), key=seeds.__getitem__)  # type: ignore[arg-type]
    _play(first, [a, b, c])
    second.refresh_from_db()
    through = {s.entry.version_id for s in second.seats.select_related("entry") if s.advanced}
    assert through == {worse_seed}
    assert "decided by finishing order in the match: 5 finishing points against 4" in shown(second.notes)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="bracket"' in page and "decided by finishing order" in page
    assert "Only a tie after that (or a failed match) goes to the better seed, the last resort" in page


def test_a_final_tied_on_duraks_and_order_plays_a_deal_more_and_the_order_decides_it(
    make_entrants: MakeEntrants,
) -> None:
    versions = make_entrants(3)
    tournament = tournament_create(name="Final", format="knockout", preset="classic", players=3, deals=2,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (final,) = playing(tournament)
    top, low, weakest = (v.pk for v in versions)  # seeds 1, 2, 3 (nobody is rated)
    # Six games, the weakest the durak in all; top and low go out first three times each: a dead tie.
    _play(final, [top, low, weakest], seconds_first_in=frozenset({1, 3, 5}))
    (extra,) = playing(tournament)
    assert extra.tiebreak_of_id == final.pk and extra.deals == 1
    # The tie-break deal: low goes out first in all three of its games.
    _play(extra, [low, top, weakest])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    winner = TournamentEntry.objects.get(tournament=tournament, eliminated_round__isnull=True)
    assert winner.version_id == low  # decided by play, not by the better seed
    final.refresh_from_db()
    assert "decided by finishing order in tie-break deal 1" in shown(final.notes)
    assert "better seed" not in shown(tournament.notes)


def test_an_entrant_who_withdraws_from_a_queued_final_is_replaced_by_a_replay_of_the_others(
    make_entrants: MakeEntrants,
) -> None:
    versions = make_entrants(3)
    tournament = tournament_create(name="Gone", format="knockout", preset="classic", players=3, deals=1,
                                   versions=versions)
    tournament_advance(tournament.pk)
    (final,) = playing(tournament)
    tournament_withdraw(entry=TournamentEntry.objects.get(tournament=tournament, version=versions[0]),
                        reason="left")
    assert final.match is not None
    final.match.refresh_from_db()
    assert final.match.status == Match.Status.CANCELLED
    (replay,) = playing(tournament)
    assert replay.tiebreak_of_id == final.pk and replay.deals == final.deals
    assert sorted(spec_versions(replay.match)) == sorted(v.pk for v in versions[1:])  # type: ignore[arg-type]
    finish(replay.match, [0, 0])  # type: ignore[arg-type]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    winner = TournamentEntry.objects.get(tournament=tournament, eliminated_round__isnull=True, withdrawn=False)
    assert winner.version_id == spec_versions(replay.match)[1]  # type: ignore[arg-type]
