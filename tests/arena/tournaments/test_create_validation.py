"""Bad input at creation: settings, a field too small for the table, inactive or repeated entrants, overlaps."""

from __future__ import annotations

import pytest

from arena.bots.models import BotVersion
from arena.bots.services import reference_versions_ensure
from arena.tournaments.models import Tournament, TournamentEntry
from arena.tournaments.services import TournamentError, entrant_clashes, tournament_create
from tests.arena.tournaments.conftest import MakeEntrants

pytestmark = pytest.mark.django_db


def create(versions: list[BotVersion], **options: object) -> Tournament:
    settings: dict[str, object] = {"name": "T", "format": "round_robin", "preset": "classic", "players": 2,
                                   "deals": 1}
    settings.update(options)
    return tournament_create(versions=versions, **settings)  # type: ignore[arg-type]


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 4}, "3 entrants cannot fill a table of 4: enter at least 4"),
    ({"players": 7}, "players: a table seats 2 to 6, not 7"),
    ({"preset": "kawu", "players": 3}, "players: preset 'kawu' is for 2 players, not 3"),
    ({"deals": 0}, "deals: 0 is not between 1 and 100"),
    ({"format": "swiss"}, "Swiss: say how many rounds (1 to 50)"),
    ({"format": "ladder"}, "format: 'ladder' is not one of round_robin, swiss, knockout"),
    ({"name": "  "}, "name: give the tournament a name"),
])
def test_bad_settings_are_refused_with_a_clear_message(make_entrants: MakeEntrants, options: dict[str, object],
                                                       message: str) -> None:
    with pytest.raises(TournamentError) as raised:
        create(make_entrants(3), **options)
    assert str(raised.value) == message
    assert not Tournament.objects.exists()


def test_inactive_or_repeated_entrants_are_refused(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    with pytest.raises(TournamentError, match="entered twice"):
        create([*versions, versions[0]])
    BotVersion.objects.filter(pk=versions[2].pk).update(status=BotVersion.Status.RETIRED)
    versions[2].refresh_from_db()
    with pytest.raises(TournamentError, match=r"v1 is retired, not active"):
        create(versions)


def test_an_entrant_busy_in_another_tournament_is_refused_unless_allowed(make_entrants: MakeEntrants) -> None:
    versions = make_entrants(3)
    first = create(versions[:2], name="First")
    with pytest.raises(TournamentError, match=r"already entered elsewhere: .*v1 in “First” \(scheduled\)"):
        create(versions[1:], name="Second")
    second = create(versions[1:], name="Second", allow_overlap=True)
    assert set(entrant_clashes(versions)) == {first, second}
    Tournament.objects.filter(pk=first.pk).update(status=Tournament.Status.FINISHED)
    assert list(entrant_clashes(versions[:1])) == []


def test_reference_bots_may_enter_any_number_of_tournaments(db: None) -> None:
    references = reference_versions_ensure()
    both = [references["random"], references["gentle"]]
    create(both, name="One")
    create(both, name="Two")
    assert TournamentEntry.objects.filter(version=references["random"]).count() == 2


def test_entrants_are_seeded_by_ladder_rating_then_in_the_order_given(make_entrants: MakeEntrants) -> None:
    from arena.ratings.services import ladder_for

    versions = make_entrants(4)
    ladder = ladder_for("classic", 2)
    ladder.ratings.create(version=versions[2], rating=1700, se=50)
    ladder.ratings.create(version=versions[3], rating=1600, se=50)
    tournament = create(versions)
    seeds = list(tournament.entries.order_by("seed").values_list("version_id", flat=True))
    assert seeds == [versions[2].pk, versions[3].pk, versions[0].pk, versions[1].pk]
