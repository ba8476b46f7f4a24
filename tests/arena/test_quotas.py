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

pytestmark = pytest.mark.django_db


def address(period_s: int = 3600) -> str:
    """An address no earlier run counted (the counters outlive a test run for up to their period), whose
    counting window does not end within the next minute: django-ratelimit counts in fixed windows, each key's
    ending at its own offset, and a window that rolled over mid-test would restart the count."""
    while True:
        here = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
        if _get_window(f"ip:{here}", period_s) - time.time() > 60:
            return here


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
