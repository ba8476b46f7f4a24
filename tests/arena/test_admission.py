"""A submitted version is built, plays its admission match against random in bubblewrap, and is rated or rejected."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.bots.models import BotVersion
from arena.bots.services import version_submit
from arena.matches.models import Game, GameSeat, Match
from arena.notices import shown
from arena.ratings.models import Rating, RatingPoint
from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.arena.conftest import CRASHING_BOT

pytestmark = pytest.mark.django_db(transaction=True)


def submit(owner: User, data: bytes, name: str = "upload.tar.gz") -> BotVersion:
    version = version_submit(owner=owner, filename=name, data=data)
    version.refresh_from_db()
    return version


def test_a_working_bot_is_admitted_and_rated(
    alice: User, references: Any, make_archive: Callable[..., bytes], run_tasks: None
) -> None:
    version = submit(alice, make_archive("mybot"))
    assert version.status == BotVersion.Status.ACTIVE, version.error
    match = Match.objects.get(kind=Match.Kind.ADMISSION)
    assert match.status == Match.Status.DONE
    assert [e.version.bot.name for e in match.entries.order_by("index")] == ["mybot", "random"]
    games = list(Game.objects.filter(match=match))
    assert len(games) == 2 * 2  # two deals, both seatings
    assert all(g.rated for g in games)
    for game in games:  # every stored record replays to its stored result
        assert replay(GameRecord.from_dict(game.record)).status == "ok"
        assert {s.seat for s in game.seats.all()} == {0, 1}
    rating = Rating.objects.get(version=version, ladder__preset="classic", ladder__players=2)
    assert rating.games == sum(1 for g in games if not g.draw)
    assert rating.provisional
    assert RatingPoint.objects.filter(version=version).count() == 1  # one point per match
    seats = GameSeat.objects.filter(version=version)
    assert all(s.decisions > 0 and s.ms_mean is not None for s in seats)


def test_a_crashing_bot_is_rejected_with_the_reason_and_stays_off_the_ladder(
    alice: User, references: Any, make_archive: Callable[..., bytes], run_tasks: None
) -> None:
    version = submit(alice, make_archive("crasher", CRASHING_BOT))
    assert version.status == BotVersion.Status.REJECTED
    assert "admission" in shown(version.error) and "crash" in shown(version.error) and "boom" in shown(version.error)
    assert not Rating.objects.filter(version=version).exists()
    assert not Game.objects.filter(rated=True).exists()
    client = Client()
    client.force_login(alice)
    page = client.get(f"/versions/{version.pk}/").content.decode()
    assert "boom" in page  # the author sees why
    assert "boom" not in Client().get(f"/versions/{version.pk}/").content.decode()  # a visitor does not


def test_a_bot_whose_requirements_cannot_be_built_is_rejected_at_build(
    alice: User, references: Any, make_archive: Callable[..., bytes], run_tasks: None
) -> None:
    version = submit(alice, make_archive("needy", requirements="-e git+https://example.com/x.git\n"))
    assert version.status == BotVersion.Status.REJECTED
    assert shown(version.error).startswith("build: ")
    assert "requirements.txt" in shown(version.error)
    assert not Match.objects.exists()


def test_a_new_version_of_a_bot_retires_the_previous_one(
    alice: User, references: Any, make_archive: Callable[..., bytes], run_tasks: None
) -> None:
    first = submit(alice, make_archive("mybot"))
    second = submit(alice, make_archive("mybot"))
    first.refresh_from_db()
    assert (second.bot_id, second.number, second.status) == (first.bot_id, 2, BotVersion.Status.ACTIVE)
    assert first.status == BotVersion.Status.RETIRED
    assert first.ratings.exists()  # its rating history stays
