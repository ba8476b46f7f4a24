"""Uploading a bot from the web form and the API: what is stored, and what a bad upload is told (nothing stored)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.utils import override_settings

from arena.bots.models import Bot, BotVersion
from tests.arena.conftest import tar_of

pytestmark = pytest.mark.django_db


def api_upload(client: Client, token: str | None, name: str, data: bytes) -> tuple[int, dict[str, object]]:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    response = client.post("/api/versions", {"archive": SimpleUploadedFile(name, data)}, **headers)  # type: ignore[arg-type]
    return response.status_code, response.json()


def test_the_api_stores_an_upload_as_a_pending_version_and_queues_its_admission(
    alice_token: str, make_archive: Callable[..., bytes], django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:  # type: ignore[operator]
        status, body = api_upload(Client(), alice_token, "mybot.tar.gz", make_archive("mybot"))
    assert status == 201, body
    assert body["bot"] == "mybot" and body["number"] == 1 and body["status"] == "pending"
    version = BotVersion.objects.get(pk=int(str(body["id"])))
    assert version.bot.owner.username == "alice"
    assert len(bytes(version.upload.data)) > 100
    assert len(callbacks) == 1  # the admission task, sent only once the upload is committed


def test_a_zip_with_a_top_level_folder_is_accepted(alice_token: str, make_archive: Callable[..., bytes]) -> None:
    status, body = api_upload(Client(), alice_token, "mybot.zip", make_archive("zipped", kind="zip"))
    assert status == 201, body
    assert body["bot"] == "zipped"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("junk.tar.gz", b"this is not an archive at all", "not a zip or tar.gz"),
        ("empty.tar.gz", b"", "empty"),
        ("notoml.tar.gz", tar_of({"bot.py": b"print(1)\n"}), "no bot.toml"),
        ("badtoml.tar.gz", tar_of({"bot.toml": b"name = [unclosed", "bot.py": b""}), "not valid TOML"),
        ("badname.tar.gz", tar_of({"bot.toml": b'name = "no spaces allowed"\n', "bot.py": b""}), "name"),
        ("noentry.tar.gz", tar_of({"bot.toml": b'name = "x"\nentry = "missing.py"\n'}), "missing.py"),
        ("escape.tar.gz", tar_of({"../evil.py": b"", "bot.toml": b'name = "x"\n'}), "evil.py"),
    ],
)
def test_a_broken_upload_is_refused_with_the_reason_and_nothing_is_stored(
    alice_token: str, name: str, data: bytes, message: str
) -> None:
    status, body = api_upload(Client(), alice_token, name, data)
    assert status == 400
    assert message in str(body["detail"])
    assert not Bot.objects.exists() and not BotVersion.objects.exists()


@override_settings(ARENA_MAX_UPLOAD_BYTES=50_000)
def test_an_oversized_upload_is_refused_with_413(alice_token: str, make_archive: Callable[..., bytes]) -> None:
    import os

    blob = tar_of({"bot.toml": b'name = "big"\n', "bot.py": b"", "data.bin": os.urandom(60_000)})
    status, body = api_upload(Client(), alice_token, "big.tar.gz", blob)
    assert status == 413
    assert "limit" in str(body["detail"])
    assert not BotVersion.objects.exists()


@override_settings(ARENA_MAX_UPLOAD_BYTES=50_000)
def test_a_huge_request_is_refused_before_its_body_is_read(alice_token: str) -> None:
    import os

    status, body = api_upload(Client(), alice_token, "huge.tar.gz", os.urandom(400_000))
    assert status == 413
    assert "too large (0.4 MB): the limit is 0.05 MB" in str(body["detail"])


def test_the_name_of_another_authors_bot_is_refused(
    alice_token: str, bob: User, make_archive: Callable[..., bytes]
) -> None:
    Bot.objects.create(owner=bob, name="taken")
    status, body = api_upload(Client(), alice_token, "taken.tar.gz", make_archive("taken"))
    assert status == 403
    assert "belongs to another author" in str(body["detail"])
    assert not BotVersion.objects.exists()


def test_the_reference_bots_names_are_taken(
    alice_token: str, references: object, make_archive: Callable[..., bytes]
) -> None:
    status, _ = api_upload(Client(), alice_token, "random.tar.gz", make_archive("random"))
    assert status == 403


def test_the_web_form_uploads_and_shows_the_version_page(
    alice_client: Client, make_archive: Callable[..., bytes]
) -> None:
    response = alice_client.post("/submit/", {"archive": SimpleUploadedFile("webbot.tar.gz", make_archive("webbot")),
                                              "description": "My <b>first</b> bot"})
    version = BotVersion.objects.get(bot__name="webbot")
    assert response.status_code == 302 and response["Location"] == f"/versions/{version.pk}/"
    assert version.bot.description == "My <b>first</b> bot"
    page = alice_client.get(response["Location"]).content.decode()
    assert "webbot" in page and "waiting for a worker" in page


def test_the_web_form_shows_what_is_wrong_with_a_broken_upload(alice_client: Client) -> None:
    response = alice_client.post("/submit/", {"archive": SimpleUploadedFile("x.tar.gz", tar_of({"a.py": b""}))})
    assert response.status_code == 400
    assert "no bot.toml" in response.content.decode()
    assert not BotVersion.objects.exists()
