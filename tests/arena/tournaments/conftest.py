"""Fixtures of the tournament tests: entrant versions, a staff member, and no broker.

Matches are finished by hand (``helpers.finish``) through the real storage path
and the real match-done hook, so the tests decide every result; only the
end-to-end test plays bots for real (with ``run_tasks``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from arena.bots.models import Bot, BotVersion
from arena.matches.tasks import play_match
from arena.tournaments.tasks import start_tournament

MakeEntrants = Callable[..., list[BotVersion]]


@pytest.fixture(autouse=True)
def no_broker(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Enqueued tasks are recorded instead of sent to Redis (unless the test runs tasks in process)."""
    sent: list[tuple[str, int]] = []
    if "run_tasks" not in request.fixturenames:
        monkeypatch.setattr(play_match, "delay", lambda match_id: sent.append(("play_match", match_id)))
        monkeypatch.setattr(play_match, "apply_async", lambda args, queue: sent.append((f"play_match@{queue}", *args)))
        monkeypatch.setattr(start_tournament, "delay", lambda pk: sent.append(("start_tournament", pk)))
    return sent


@pytest.fixture
def author(db: None) -> User:
    return User.objects.create_user("carol", password="carol-password-123")


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("sam", password="sam-password-123", is_staff=True)


@pytest.fixture
def make_entrants(author: User) -> MakeEntrants:
    """``make_entrants(n, prefix="bot")``: n active versions of n bots (not built: these tests never play them)."""
    made = iter(range(1_000_000))

    def make(n: int, prefix: str = "bot") -> list[BotVersion]:
        versions = []
        for _ in range(n):
            bot = Bot.objects.create(owner=author, name=f"{prefix}-{next(made)}")
            versions.append(BotVersion.objects.create(
                bot=bot, number=1, label="1", language="python", status=BotVersion.Status.ACTIVE))
        return versions

    return make
