"""Every match ends recorded, on a real Celery worker (Redis broker, PostgreSQL): a referee that raises fails the
match with a reason the public may see, a worker that died is found by the reaper at the match's deadline, and
the ladder plays on either way.

The worker plays the reference bots without a sandbox (``ARENA_SANDBOX=none``): what is under test is the
arena's bookkeeping around the referee, and the reference bots are the arena's own code.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_claim
from arena.matchmaking.services import matchmaking_pass
from arena.notices import shown
from arena.ops.reaper import reap
from tests.worker.test_celery_task import start_worker, stop

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def worker(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A real worker process on the test database and broker, serving both queues, for the module's tests (each
    ends with its matches played); yields its log."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.flushdb()
    database = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.django_settings", "PYTHONPATH": str(ROOT),
           "DATABASE_URL": "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(**database),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "ARENA_VAR_DIR": os.environ["ARENA_VAR_DIR"],
           "ARENA_SANDBOX": "none"}
    log = tmp_path_factory.mktemp("recovery") / "worker.log"
    process = start_worker(env, log, queues="referee,default")
    yield log
    stop(process)
    client.flushdb()
    print(log.read_text()[-3000:])


@pytest.fixture
def ladder(settings: Any, references: dict[str, BotVersion]) -> None:
    """One two-player ladder of the quick reference bots (random, gentle), one match at a time, one deal a match."""
    BotVersion.objects.filter(reference="strong").update(status=BotVersion.Status.RETIRED)  # thinks for seconds
    settings.ARENA_MATCHMAKING_LADDERS = {"classic-2": 1}
    settings.ARENA_MATCHMAKING_QUEUE_DEPTH = 1
    settings.ARENA_MATCHMAKING_DEALS = 1


def wait_for(status: str, match: Match, log: Path, timeout: float = 40) -> Match:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.status == status:
            return match
        time.sleep(0.2)
    raise AssertionError(f"match {match.pk} is {match.status}, not {status}; worker log:\n{log.read_text()[-3000:]}")


def one_new_match(before: Callable[[Match], object] = lambda match: None) -> Match:
    """The matchmaking pass's one new match; ``before`` runs in the pass's transaction, before it is enqueued."""
    with transaction.atomic():
        created = matchmaking_pass()
        assert len(created) == 1, f"the pass created {len(created)} matches"
        before(created[0])
    return created[0]


def test_a_referee_that_raises_fails_its_match_publicly_without_details_and_the_ladder_plays_on(
    worker: Path, ladder: None
) -> None:
    # A match row the referee cannot play (a preset it has never heard of): the real referee raises ValueError,
    # which no code path expects.
    broken = one_new_match(lambda match: Match.objects.filter(pk=match.pk).update(preset="bogus"))
    wait_for(Match.Status.FAILED, broken, worker)
    assert "ValueError: preset: 'bogus'" in broken.error and "Traceback" in broken.error and "/" in broken.error
    public = shown(broken.public_error)
    assert public == ("the referee stopped with an internal error (ValueError); the arena's staff have the details")
    page = Client().get(f"/matches/{broken.pk}/").content.decode()
    assert public.replace("'", "&#x27;") in page
    for detail in ("Traceback", "bogus'", str(ROOT), ".py"):
        assert detail not in page
    api = Client().get(f"/api/matches/{broken.pk}").json()
    assert api["status"] == "failed" and api["error"] == public
    staff = Client()
    staff.force_login(User.objects.create_user("staff", password="x", is_staff=True))
    assert "Traceback" in staff.get(f"/matches/{broken.pk}/").content.decode()

    following = one_new_match()  # the failed match holds no place in the queue
    assert wait_for(Match.Status.DONE, following, worker).games.count() == 2


def test_the_reaper_takes_back_a_dead_workers_match_and_the_ladder_plays_on(worker: Path, ladder: None) -> None:
    # A worker claimed the match and died with it: the real worker's task finds it held and leaves it.
    stuck = one_new_match(lambda match: match_claim(match_id=match.pk, task_id="dead", worker="gone@host"))
    assert "not claimed" in _wait_for_log(worker, "not claimed")
    stuck.refresh_from_db()
    assert stuck.status == Match.Status.RUNNING and stuck.deadline is not None
    assert matchmaking_pass() == []  # within its deadline the match holds its place
    Match.objects.filter(pk=stuck.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    fresh = one_new_match()  # past its deadline it does not
    reaped = reap()
    assert reaped.requeued == [stuck.pk] and reaped.failed == []
    wait_for(Match.Status.DONE, stuck, worker)
    assert (stuck.attempts, stuck.reaped) == (2, 1)
    wait_for(Match.Status.DONE, fresh, worker)
    page = Client().get("/matchmaking/").content.decode()
    assert "1 taken back from a stuck worker" in page


def _wait_for_log(log: Path, text: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in log.read_text():
            return log.read_text()
        time.sleep(0.2)
    raise AssertionError(f"{text!r} not in the worker log:\n{log.read_text()[-3000:]}")
