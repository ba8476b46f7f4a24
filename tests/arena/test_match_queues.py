"""Tournament matches wait on a queue of their own, which the ladder's workers never drain alone; the activity page
says what waits where."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Match
from arena.matches.services import TOURNAMENT_QUEUE, match_create
from arena.ops.launcher import worker_split

pytestmark = pytest.mark.django_db
QUEUES = (TOURNAMENT_QUEUE, "referee")


@pytest.fixture
def broker() -> Iterator[redis.Redis]:
    """The tests' own Redis database, its two match queues emptied before and after."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.delete(*QUEUES)
    yield client
    client.delete(*QUEUES)


def _versions(n: int) -> list[BotVersion]:
    owner = User.objects.create_user("quinn", password="quinn-password-123")
    return [BotVersion.objects.create(bot=Bot.objects.create(owner=owner, name=f"q{i}"), number=1, label="1",
                                      language="python", status=BotVersion.Status.ACTIVE) for i in range(n)]


def _waiting(client: redis.Redis, queue: str) -> list[int]:
    """The match ids of the play_match messages waiting on ``queue`` in the broker."""
    ids = []
    for raw in client.lrange(queue, 0, -1):
        message = json.loads(raw)  # kombu's envelope; the task's (args, kwargs, embed) is its base64 body
        ids.append(json.loads(base64.b64decode(message["body"]))[0][0])
    return ids


def test_tournament_and_ladder_matches_wait_on_their_own_queues(
    broker: redis.Redis, django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    a, b = _versions(2)
    with django_capture_on_commit_callbacks(execute=True):
        ladder = match_create(kind=Match.Kind.LADDER, versions=[a, b], preset="classic", deals=1, rated=True)
        event = match_create(kind=Match.Kind.TOURNAMENT, versions=[a, b], preset="classic", deals=1, rated=False)
    assert _waiting(broker, TOURNAMENT_QUEUE) == [event.pk]
    assert _waiting(broker, "referee") == [ladder.pk]
    html = Client().get("/matchmaking/").content.decode()
    section = html[html.index('id="queues"'):]
    section = section[:section.index("</section>")]
    assert "<td><code>tournament</code></td><td>tournament</td><td class=\"num\">1</td>" in section
    assert "<td><code>referee</code></td><td>ladder</td><td class=\"num\">1</td>" in section


def test_the_ladder_keeps_the_workers_it_is_given_and_tournaments_keep_the_rest() -> None:
    assert worker_split(2, None) == (1, 1)
    assert worker_split(6, 4) == (4, 2)
    assert worker_split(3, 0) == (1, 2)  # the ladder always keeps one
    assert worker_split(1, None) == (1, 0)  # one process: it serves the tournament queue first
