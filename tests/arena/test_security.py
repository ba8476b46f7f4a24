"""What keeps authors safe from each other and from visitors: CSRF, authentication, ownership, escaping, hashing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from arena.accounts.models import ApiToken
from arena.accounts.services import token_create
from arena.bots.models import Bot, BotVersion

pytestmark = pytest.mark.django_db(transaction=True)

XSS = "<script>alert('x')</script>"


def test_a_form_post_without_its_csrf_token_is_refused(alice: User, make_archive: Callable[..., bytes]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post("/submit/", {"archive": SimpleUploadedFile("a.tar.gz", make_archive("csrfbot"))})
    assert response.status_code == 403
    assert not BotVersion.objects.exists()


def test_uploading_needs_a_login_or_a_valid_token(make_archive: Callable[..., bytes], alice: User) -> None:
    data = make_archive("anon")
    response = Client().post("/submit/", {"archive": SimpleUploadedFile("a.tar.gz", data)})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    for header in ({}, {"HTTP_AUTHORIZATION": "Bearer durak_not-a-real-token"}, {"HTTP_AUTHORIZATION": "Basic x"}):
        api = Client().post("/api/versions", {"archive": SimpleUploadedFile("a.tar.gz", data)}, **header)  # type: ignore[arg-type]
        assert api.status_code == 401
    alice.is_active = False
    alice.save()
    token = token_create(user=alice, name="old")[1]
    api = Client().post("/api/versions", {"archive": SimpleUploadedFile("a.tar.gz", data)},
                        HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.status_code == 401  # a deactivated author's tokens stop working
    assert not BotVersion.objects.exists()


def test_an_author_cannot_change_or_challenge_with_another_authors_bot(admitted: BotVersion, bob: User) -> None:
    client = Client()
    client.force_login(bob)
    assert client.post("/bots/mybot/edit/", {"description": "hijacked"}).status_code == 403
    assert client.post("/bots/mybot/challenge/", {"opponent": admitted.pk, "preset": "classic"}).status_code == 403
    assert Bot.objects.get(name="mybot").description != "hijacked"
    token = token_create(user=bob, name="t")[1]
    response = Client().post("/api/challenges", {"bot": "mybot", "opponents": ["random"]},
                             content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 403


def test_bot_names_and_descriptions_are_escaped_on_every_page(admitted: BotVersion, alice_client: Client) -> None:
    game = admitted.game_seats.first()
    assert game is not None
    pages = ["/", "/bots/", "/bots/mybot/", f"/versions/{admitted.pk}/", "/ladders/classic-2/", "/ladders/",
             "/matches/", f"/matches/{game.game.match_id}/", f"/games/{game.game_id}/", "/bots/mybot/edit/",
             "/accounts/"]
    for url in pages:
        response = alice_client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert XSS not in page, url
    assert "&lt;script&gt;alert(" in alice_client.get("/bots/mybot/").content.decode()  # shown as the text it is


def test_api_tokens_are_stored_only_as_hashes(alice: User, alice_client: Client) -> None:
    page = alice_client.post("/accounts/", {"name": "ci"}).content.decode()
    row = ApiToken.objects.get(name="ci")
    token = page.split("<pre><code>")[1].split("</code></pre>")[0]
    assert token.startswith("durak_") and len(token) > 40
    stored = [str(value) for value in ApiToken.objects.filter(pk=row.pk).values_list().get()]
    assert all(token not in value for value in stored)
    assert token not in alice_client.get("/accounts/").content.decode()  # shown once only
    response = Client().get(f"/api/versions/{0}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 404  # the token authenticates (an unknown version, not 401)


def test_a_revoked_token_no_longer_works(alice: User, alice_client: Client) -> None:
    row, token = token_create(user=alice, name="gone")
    assert alice_client.post(f"/accounts/tokens/{row.pk}/revoke/").status_code == 302
    response = Client().post("/api/challenges", {"bot": "x", "opponents": ["y"]}, content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 401
