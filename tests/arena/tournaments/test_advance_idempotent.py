"""Advancing is idempotent and safe under concurrency: twice, or from many threads at once, schedules once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from arena.matches.models import Match
from arena.tournaments.models import Tournament, TournamentRound, TournamentTable
from arena.tournaments.services import (
    tournament_advance,
    tournament_create,
    tournament_match_done,
    tournaments_advance_due,
)
from arena.tournaments.tasks import advance_tournaments, start_tournament
from tests.arena.tournaments.conftest import MakeEntrants
from tests.arena.tournaments.helpers import playing, results
from worker.referee.match import GameResult


def tournament_matches(tournament: Tournament) -> int:
    return Match.objects.filter(tournament_table__round__tournament=tournament).count()


@pytest.mark.django_db
def test_advancing_twice_creates_no_duplicate_matches(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(4)
    tournament = tournament_create(name="Twice", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    assert start_tournament(tournament.pk) == "waiting"
    assert tournament_advance(tournament.pk) == "waiting"
    assert advance_tournaments() == {str(tournament.pk): "waiting"}
    assert tournament_matches(tournament) == 2


def store_without_hook(match: Match, outcome: list[GameResult]) -> None:
    """A worker stored the match but died before calling the hook."""
    from arena.matches.services import match_claim, match_store_result

    claimed = match_claim(match_id=match.pk, task_id="lost", worker="w")
    assert claimed is not None
    assert match_store_result(match=claimed, task_id="lost", results=outcome)


@pytest.mark.django_db(transaction=True)
def test_concurrent_advances_open_the_next_round_exactly_once(make_entrants: MakeEntrants,
                                                              no_broker: list[tuple[str, int]]) -> None:
    versions = make_entrants(4)
    tournament = tournament_create(name="Race", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=versions)
    assert no_broker == [("start_tournament", tournament.pk)]  # "start now": enqueued once the creation commits
    tournament_advance(tournament.pk)
    for table in playing(tournament):
        assert table.match is not None
        store_without_hook(table.match, results(table.match, [0, 0]))
    outcomes: list[str] = []
    barrier = threading.Barrier(6)

    def advance() -> None:
        barrier.wait()
        try:
            outcomes.append(tournament_advance(tournament.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=advance) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["waiting"] * 6
    assert TournamentRound.objects.get(tournament=tournament, number=1).status == TournamentRound.Status.DONE
    assert TournamentRound.objects.get(tournament=tournament, number=2).status == TournamentRound.Status.RUNNING
    assert tournament_matches(tournament) == 4
    assert TournamentTable.objects.filter(round__number=2, round__tournament=tournament,
                                          match__isnull=False).count() == 2
    # Each match enqueued once, after its commit, on the tournament queue.
    enqueued = sorted(pk for name, pk in no_broker if name == "play_match@tournament")
    assert enqueued == sorted(Match.objects.filter(tournament_table__round__tournament=tournament)
                              .values_list("pk", flat=True))


@pytest.mark.django_db
def test_the_minute_task_repairs_a_lost_hook_and_starts_a_due_tournament(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(2)
    due = tournament_create(name="Due", format="round_robin", preset="classic", players=2, deals=1,
                            versions=versions, starts_at=timezone.now() + timedelta(hours=1))
    later = tournament_create(name="Later", format="round_robin", preset="classic", players=2, deals=1,
                              versions=make_entrants(2), starts_at=timezone.now() + timedelta(hours=1))
    Tournament.objects.filter(pk=due.pk).update(starts_at=timezone.now() - timedelta(minutes=3))  # beat was down
    assert tournaments_advance_due() == {due.pk: "waiting"}
    later.refresh_from_db()
    assert later.status == Tournament.Status.SCHEDULED
    (table,) = playing(due)
    assert table.match is not None
    store_without_hook(table.match, results(table.match, [1, 1]))
    assert tournaments_advance_due() == {due.pk: "finished"}
    assert tournaments_advance_due() == {}


@pytest.mark.django_db
def test_the_hook_ignores_matches_of_other_kinds(make_entrants: MakeEntrants) -> None:
    from arena.matches.services import match_create

    versions = make_entrants(2)
    ladder = match_create(kind=Match.Kind.LADDER, versions=versions, preset="classic", deals=1, rated=False)
    tournament_match_done(ladder.pk)  # nothing to do, nothing raised
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_a_start_before_its_time_waits(make_entrants: MakeEntrants) -> None:
    tournament = tournament_create(name="Soon", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=make_entrants(2), starts_at=timezone.now() + timedelta(minutes=5))
    assert start_tournament(tournament.pk) == "not yet"
    assert tournament_advance(tournament.pk + 1000) == "gone"


@pytest.mark.django_db
def test_a_tournament_set_running_by_hand_is_started_not_finished(make_entrants: MakeEntrants) -> None:
    tournament = tournament_create(name="By hand", format="round_robin", preset="classic", players=2, deals=1,
                                   versions=make_entrants(2), starts_at=timezone.now() + timedelta(days=1))
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    assert tournament_advance(tournament.pk) == "waiting"
    assert tournament_matches(tournament) == 1
