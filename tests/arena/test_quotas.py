"""Quotas (arena/ops/throttle.py) as a visitor meets them: each limit refuses the request over it with 429, says
the limit and when to try again (the API in JSON with ``Retry-After``, pages on the site's own page), and
counts only its own author or address. The counters live in the test Redis; every test uses fresh users and
its own addresses, so nothing needs clearing."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django_ratelimit.core import _get_window

from arena.accounts.services import token_create
from arena.analysis.models import GameAnalysis
from tests.arena.visitors import stored_game, version_of

pytestmark = pytest.mark.django_db


def address(period_s: int = 3600) -> str:
    """An address no earlier run counted (the counters outlive a test run for up to their period), whose
    counting window does not end within the next minute: django-ratelimit counts in fixed windows, each key's
    ending at its own offset, and a window that rolled over mid-test would restart the count."""
    while True:
        here = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
        if _get_window(f"ip:{here}", period_s) - time.time() > 60:
            return here


def author(name: str) -> User:
    """A fresh user whose counting window (as ``address``'s) does not end within the next minute."""
    while True:
        user = User.objects.create_user(f"{name}{random.randrange(10**9)}")
        if _get_window(f"user:{user.pk}", 3600) - time.time() > 60:
            return user


def assert_api_refusal(response: Any, what: str, limit: str) -> None:
    assert response.status_code == 429
    wait = int(response["Retry-After"])
    assert 0 < wait <= 3600
    detail = response.json()["detail"]
    assert detail.startswith(f"Too many {what}: the limit is {limit}. Try again in "), detail


def assert_page_refusal(response: Any, what: str, limit: str) -> None:
    assert response.status_code == 429 and 0 < int(response["Retry-After"]) <= 3600
    page = response.content.decode()
    assert "Durak Arena</title>" in page and "Slow down" in page
    assert f"Too many {what}: the limit is {limit}. Try again in " in page


def api_client(user: User) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=user, name='quota')[1]}")


def test_uploads_per_author_over_the_api_and_the_form(
    alice: User, bob: User, settings: Any, alice_client: Client
) -> None:
    settings.ARENA_RATE_UPLOADS = "2/h"
    api = api_client(alice)
    for _ in range(2):  # broken archives count too: the work of checking them is done
        assert api.post("/api/versions", {"archive": SimpleUploadedFile("x.zip", b"junk")}).status_code == 400
    assert_api_refusal(api.post("/api/versions", {"archive": SimpleUploadedFile("x.zip", b"junk")}),
                       "bot uploads per author", "2 per hour")
    form = alice_client.post("/submit/", {"archive": SimpleUploadedFile("x.zip", b"junk")})
    assert_page_refusal(form, "bot uploads per author", "2 per hour")
    assert alice_client.get("/submit/").status_code == 200, "only uploads count, not reading the form"
    other = api_client(bob).post("/api/versions", {"archive": SimpleUploadedFile("x.zip", b"junk")})
    assert other.status_code == 400, "another author has a quota of their own"


def test_challenges_per_author(alice: User, settings: Any, alice_client: Client) -> None:
    settings.ARENA_RATE_CHALLENGES = "1/h"
    api = api_client(alice)
    body = {"bot": "nosuchbot", "opponents": ["random"]}
    assert api.post("/api/challenges", body, content_type="application/json").status_code == 404
    assert_api_refusal(api.post("/api/challenges", body, content_type="application/json"),
                       "challenges per author", "1 per hour")
    assert_page_refusal(alice_client.post("/bots/nosuchbot/challenge/", {}), "challenges per author", "1 per hour")


def test_new_tables_per_visitor(settings: Any) -> None:
    settings.ARENA_RATE_TABLES = "1/h"
    visitor = Client(REMOTE_ADDR=address())
    assert visitor.post("/tables/", {}).status_code == 200  # the form with its errors
    assert_page_refusal(visitor.post("/tables/", {}), "new tables per visitor", "1 per hour")
    assert_page_refusal(Client(REMOTE_ADDR=visitor.defaults["REMOTE_ADDR"]).post("/tables/", {}),
                        "new tables per visitor", "1 per hour")  # a fresh session is the same visitor
    assert Client(REMOTE_ADDR=address()).post("/tables/", {}).status_code == 200
    assert visitor.get("/tables/").status_code == 200


def test_sign_ups_per_address(settings: Any) -> None:
    settings.ARENA_RATE_SIGNUPS = "1/h"
    here = address()
    passphrase = "a-long-passphrase-1"
    first = Client(REMOTE_ADDR=here).post("/accounts/signup/", {
        "username": f"carol{random.randrange(10**9)}", "password1": passphrase, "password2": passphrase,
    })
    assert first.status_code == 302
    assert_page_refusal(Client(REMOTE_ADDR=here).post("/accounts/signup/", {}), "sign-ups per address", "1 per hour")


def test_login_attempts_per_address(alice: User, settings: Any) -> None:
    settings.ARENA_RATE_LOGINS = "2/10m"
    visitor = Client(REMOTE_ADDR=address(period_s=600))
    for _ in range(2):
        assert visitor.post("/accounts/login/", {"username": "alice", "password": "guess"}).status_code == 200
    right = visitor.post("/accounts/login/", {"username": "alice", "password": "alice-password-123"})
    assert_page_refusal(right, "login attempts per address", "2 per 10 minutes")
    assert int(right["Retry-After"]) <= 600
    assert visitor.get("/accounts/login/").status_code == 200


def test_dataset_downloads_per_visitor_and_per_token(settings: Any) -> None:
    """Each download reads every game it holds: an address, or a token's author, gets its quota of them."""
    settings.ARENA_RATE_DATASETS = "2/h"
    here = address()
    visitor = Client(REMOTE_ADDR=here)
    for _ in range(2):  # a resumed download counts too: it reads what it asks for again
        assert visitor.get("/api/dataset", {"after": 0}).status_code == 200
    refused = visitor.get("/api/dataset", {"ladder": "classic-2"})
    assert_api_refusal(refused, "dataset downloads per visitor", "2 per hour")
    assert refused["Content-Type"] == "application/json"
    assert Client(REMOTE_ADDR=address()).get("/api/dataset").status_code == 200, "another address has its own"
    carol = author("carol")
    token = Client(REMOTE_ADDR=here, HTTP_AUTHORIZATION=f"Bearer {token_create(user=carol, name='data')[1]}")
    assert token.get("/api/dataset").status_code == 200, "a token counts for its author, not its address"
    assert token.get("/api/dataset").status_code == 200
    assert_api_refusal(token.get("/api/dataset"), "dataset downloads per visitor", "2 per hour")
    signed_in = Client(REMOTE_ADDR=address())
    signed_in.force_login(carol)
    assert_api_refusal(signed_in.get("/api/dataset"), "dataset downloads per visitor", "2 per hour")


def test_analysis_requests_per_visitor(settings: Any) -> None:
    """Asking for a match's analysis puts its games before every other analysis: an anonymous visitor (whatever
    its session) and an account each get a quota of requests, and a refused one queues nothing."""
    settings.ARENA_RATE_ANALYSES = "1/h"
    owner = author("dave")
    first, second = (stored_game([version_of(owner, f"{name}{owner.pk}"), version_of(owner, f"fox{name}{owner.pk}")])
                     for name in ("sly", "wily"))
    here = address()
    asked = Client(REMOTE_ADDR=here).post(f"/matches/{first.pk}/analyse")
    assert asked.status_code == 302 and GameAnalysis.objects.filter(game__match=first).count() == 1
    refused = Client(REMOTE_ADDR=here).post(f"/matches/{second.pk}/analyse")  # a fresh session: the same visitor
    assert_page_refusal(refused, "analysis requests per visitor", "1 per hour")
    assert not GameAnalysis.objects.filter(game__match=second).exists()
    assert Client(REMOTE_ADDR=here).get(f"/matches/{second.pk}/").status_code == 200, "reading the page is free"
    account = Client(REMOTE_ADDR=here)
    account.force_login(author("erin"))
    assert account.post(f"/matches/{second.pk}/analyse").status_code == 302, "an account has its own quota"
    assert GameAnalysis.objects.filter(game__match=second).count() == 1
