"""A new version never waits in admission forever: an admission match that ends without a verdict (its referee
raised, its worker died, it was cancelled, its hook never ran) ends with the version admitted or rejected with
a reason its author reads, through the real match task, the real match-done hook and the real reaper.

The tests run in one transaction that never commits, so nothing reaches a broker: each queued task is run
here, when the test says, by the task's own code (``apply``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from arena.bots.admission import admission_queue
from arena.bots.models import Bot, BotVersion, VersionArchive
from arena.bots.services import version_submit
from arena.bots.tasks import admit_version
from arena.matches.models import Game, Match
from arena.matches.services import match_claim, match_spec, match_store_result, matches_cancel
from arena.matches.tasks import play_match
from arena.notices import shown
from arena.ops.reaper import reap
from arena.ratings.models import Rating
from worker.referee.launch import launcher_for
from worker.referee.match import play_spec

pytestmark = pytest.mark.django_db

PAST = timedelta(seconds=1)


def admissions(version: BotVersion) -> list[Match]:
    return list(Match.objects.filter(kind=Match.Kind.ADMISSION, entries__version=version).order_by("pk"))


def in_admission(owner: User, name: str) -> BotVersion:
    """A version built and waiting for its admission match (queued, never sent: the tests play it or not)."""
    bot = Bot.objects.create(owner=owner, name=name)
    version = BotVersion.objects.create(bot=bot, number=1, label="1", language="python",
                                        status=BotVersion.Status.ADMISSION)
    admission_queue(version)
    return version


def error_page(owner: User, version: BotVersion) -> str:
    client = Client()
    client.force_login(owner)
    return client.get(f"/versions/{version.pk}/").content.decode()


def test_an_admission_whose_referee_raises_is_played_again_and_the_bot_admitted(
    alice: User, references: Any, make_archive: Callable[..., bytes]
) -> None:
    version = version_submit(owner=alice, filename="mybot.tar.gz", data=make_archive("mybot"))
    assert admit_version.apply(args=(version.pk,)).get() == "admission queued"  # built in the sandbox
    (first,) = admissions(version)
    # A row the real referee cannot play (a preset it has never heard of): it raises ValueError, which no code
    # path expects, on the worker.
    Match.objects.filter(pk=first.pk).update(preset="bogus")
    assert play_match.apply(args=(first.pk,)).get() == "failed"
    first.refresh_from_db()
    assert first.status == Match.Status.FAILED and "internal error (ValueError)" in shown(first.public_error)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ADMISSION  # not the bot's fault: its admission is queued again
    second = admissions(version)[-1]
    assert second.pk != first.pk and second.status == Match.Status.QUEUED

    assert play_match.apply(args=(second.pk,)).get() == "stored"
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE, version.error
    games = Game.objects.filter(match=second)
    assert games.count() == 2 * settings.ARENA_ADMISSION_DEALS and all(game.rated for game in games)
    assert Rating.objects.get(version=version).games == sum(1 for game in games if not game.draw)
    assert reap().admissions_decided == []  # decided once, by the hook


def test_an_admission_whose_worker_died_on_its_last_attempt_is_rejected_with_the_reason(
    alice: User, references: Any
) -> None:
    version = in_admission(alice, "orphan")
    (match,) = admissions(version)
    assert match_claim(match_id=match.pk, task_id="dead", worker="gone@host") is not None
    Match.objects.filter(pk=match.pk).update(attempts=settings.ARENA_TASK_ATTEMPTS, deadline=timezone.now() - PAST)
    reaped = reap()
    assert reaped.failed == [match.pk]
    version.refresh_from_db()
    tries = settings.ARENA_TASK_ATTEMPTS
    assert version.status == BotVersion.Status.REJECTED
    assert shown(version.error) == (
        f"admission: no result after {tries} attempts at its admission match against random; "
        f"the last failed: no worker finished it in time ({tries} attempts)")
    assert "no worker finished it in time" in error_page(alice, version)  # the author reads why
    assert "gone@host" not in version.error  # and no host details
    assert len(admissions(version)) == 1 and reap().admissions_decided == []


def test_the_reaper_decides_an_admission_whose_hook_never_ran(alice: User, references: Any) -> None:
    version = in_admission(alice, "unannounced")
    (match,) = admissions(version)
    claimed = match_claim(match_id=match.pk, task_id="t", worker="w")
    assert claimed is not None
    # The worker stored the games (the reference bots stand in for the version) and died before the hooks ran.
    results = play_spec(match_spec(claimed, ["gentle", "random"]), launcher_for("none"))
    assert match_store_result(match=claimed, task_id="t", results=results)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ADMISSION and not Rating.objects.filter(version=version).exists()
    assert reap().admissions_decided == [version.pk]
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE
    assert all(game.rated for game in Game.objects.filter(match=match))
    assert Rating.objects.get(version=version).games == sum(1 for r in results if not r.draw)


def test_a_cancelled_admission_is_queued_again_then_rejected(alice: User, references: Any) -> None:
    version = in_admission(alice, "unlucky")
    for attempt in range(1, settings.ARENA_TASK_ATTEMPTS + 1):
        assert matches_cancel(match_ids=[admissions(version)[-1].pk], reason="cancelled by staff")
        reaped = reap()
        if attempt < settings.ARENA_TASK_ATTEMPTS:
            assert reaped.admissions_requeued == [version.pk]
            assert admissions(version)[-1].status == Match.Status.QUEUED
    assert reaped.admissions_decided == [version.pk]
    version.refresh_from_db()
    assert version.status == BotVersion.Status.REJECTED and shown(version.error).endswith("the last was cancelled")
    assert len(admissions(version)) == settings.ARENA_TASK_ATTEMPTS


def test_an_admission_whose_bot_does_not_build_on_the_worker_is_rejected_at_once_with_the_build_output(
    alice: User, references: Any
) -> None:
    version = in_admission(alice, "unbuildable")
    VersionArchive.objects.create(version=version, data=b"not an archive")
    (match,) = admissions(version)
    assert play_match.apply(args=(match.pk,)).get() == "failed"
    match.refresh_from_db()
    assert shown(match.public_error).startswith("a bot of this match could not be built")
    version.refresh_from_db()
    assert version.status == BotVersion.Status.REJECTED  # playing again would only build it again
    assert shown(version.error).startswith("admission match failed: build: ") and len(admissions(version)) == 1
    assert shown(version.error).removeprefix("admission match failed: ") in error_page(alice, version)
