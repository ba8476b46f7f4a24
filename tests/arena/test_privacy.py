"""What the public never sees: build output and host paths (on pages and in the API), and draft tournaments
(``/healthz``: tests/arena/ops/test_service_checks.py). The owner reads their bot's errors without host paths;
staff read all."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from arena.accounts.services import token_create
from arena.bots.models import Bot, BotVersion
from arena.matches.models import Match, MatchEntry
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

BUILD_ERROR = ("pip install failed in the sandbox (exit 1):\n"
               "  File \"/var/lib/arena/bots/.building-k2x/venv-space/lib/python3.11/site-packages/evil.py\"\n"
               "OSError: /var/cache/durak/runtime-3f2a/bin/python: bad interpreter")
MATCH_ERROR = "the store failed: /var/lib/arena/bots/alicebot/1-abc/src is not readable"


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("root-of-arena", password="staff-password-123", is_staff=True)


def client_of(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api_of(user: User | None) -> Client:
    if user is None:
        return Client()
    return Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=user, name='privacy')[1]}")


@pytest.fixture
def rejected(alice: User) -> BotVersion:
    bot = Bot.objects.create(owner=alice, name="alicebot")
    return BotVersion.objects.create(bot=bot, number=1, label="1", language="python",
                                     status=BotVersion.Status.REJECTED, error=BUILD_ERROR)


def test_build_output_is_for_the_owner_without_host_paths_and_for_staff(
    rejected: BotVersion, alice: User, bob: User, staff: User
) -> None:
    stripped = {"owner": alice, "staff": staff}
    for who, user in {"anonymous": None, "another author": bob, **stripped}.items():
        page = client_of(user).get(f"/versions/{rejected.pk}/").content.decode()
        api = api_of(user).get(f"/api/versions/{rejected.pk}").json()["error"]
        if who == "staff":
            assert "/var/lib/arena/bots/.building-k2x/" in page and api == BUILD_ERROR
        elif who == "owner":
            assert "pip install failed in the sandbox" in page and "…/evil.py" in page
            assert "/var/" not in page and "/var/" not in api and "…/python: bad interpreter" in api
        else:
            assert "pip install failed" not in page and "/var/" not in page and api == "", who
            assert "This version was rejected." in page
        bot_page = client_of(user).get("/bots/alicebot/").content.decode()
        assert "pip install failed" not in bot_page and "/var/" not in bot_page
    public_bot = Client().get("/api/bots/alicebot").json()
    assert [v["error"] for v in public_bot["versions"]] == [""]


def test_a_failed_matchs_reason_is_for_its_authors_without_host_paths(
    rejected: BotVersion, alice: User, bob: User, staff: User
) -> None:
    match = Match.objects.create(kind="challenge", status=Match.Status.FAILED, preset="classic", players=2, deals=1,
                                 seed="s", move_s=1, bank_s=1, start_s=1, error=MATCH_ERROR)
    MatchEntry.objects.create(match=match, index=0, version=rejected)
    for user, expected in ((None, ""), (bob, ""), (alice, "the store failed: …/src is not readable"),
                           (staff, MATCH_ERROR)):
        page = client_of(user).get(f"/matches/{match.pk}/").content.decode()
        assert api_of(user).get(f"/api/matches/{match.pk}").json()["error"] == expected
        assert ("the store failed" in page) == bool(expected)
        assert ("/var/lib" in page) == (user is staff)


def test_the_api_schema_has_no_logs_or_paths() -> None:
    schema = Client().get("/api/openapi.json").json()
    fields = {name for component in schema["components"]["schemas"].values()
              for name in component.get("properties", {})}
    assert not {name for name in fields if any(word in name for word in ("log", "path", "store", "digest"))}


def test_draft_tournaments_are_not_public(references: Any, staff: User) -> None:
    versions = [references["random"], references["gentle"]]
    draft = tournament_create(name="Secret cup", format="round_robin", preset="classic", players=2, deals=1,
                              versions=versions, starts_at=timezone.now() + timedelta(days=7))
    Tournament.objects.filter(pk=draft.pk).update(status=Tournament.Status.DRAFT)
    for user in (None, User.objects.create_user("dave", password="dave-password-123")):
        assert "Secret cup" not in client_of(user).get("/tournaments/").content.decode()
        assert client_of(user).get(f"/tournaments/{draft.pk}/").status_code == 404
        assert client_of(user).get(f"/tournaments/{draft.pk}/live.json").status_code == 404
    assert "Secret cup" in client_of(staff).get("/tournaments/").content.decode()
    assert client_of(staff).get(f"/tournaments/{draft.pk}/").status_code == 200
    assert client_of(staff).get(f"/tournaments/{draft.pk}/live.json").status_code == 200
