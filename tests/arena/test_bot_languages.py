"""A bot in another language, as its author and the visitors meet it on the site: a JavaScript starter kit,
submitted as ``durak submit`` packs it, is built by the worker's real build (npm on the host, the install in
bubblewrap without network), admitted against random, and shown with its language on its page, in the API
and in the ladder's language filter (in Russian too)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.bots.models import BotVersion
from arena.bots.services import version_submit
from bots_sdk.cli.main import main as durak
from bots_sdk.cli.submit_cmd import pack

pytestmark = pytest.mark.django_db(transaction=True)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_javascript_bot_is_admitted_and_every_page_says_its_language(
    alice: User, references: dict[str, BotVersion], run_tasks: None, tmp_path: Path,
) -> None:
    assert durak(["new", "jsbot", "--lang", "javascript", "--dir", str(tmp_path)]) == 0
    version = version_submit(owner=alice, filename="jsbot.tar.gz", data=pack(tmp_path / "jsbot"))
    version.refresh_from_db()
    if "registry is unreachable" in version.error:
        pytest.skip(version.error)
    assert version.status == BotVersion.Status.ACTIVE, version.error
    assert version.language == "javascript"

    bot_page = text(Client().get("/bots/jsbot/").content.decode())
    assert "Language: JavaScript" in bot_page
    assert Client().get("/api/bots/jsbot").json()["language"] == "javascript"
    assert {bot["name"]: bot["language"] for bot in Client().get("/api/bots").json()}["random"] == "reference"

    everyone = Client().get("/api/ladders/classic-2").json()["standings"]
    assert {row["bot"]: row["language"] for row in everyone} == {"jsbot": "javascript", "random": "reference"}
    js_rank = next(row["rank"] for row in everyone if row["bot"] == "jsbot")
    only_js = Client().get("/api/ladders/classic-2?language=javascript").json()["standings"]
    assert [(row["bot"], row["rank"]) for row in only_js] == [("jsbot", js_rank)]  # its rank on the whole ladder

    ladder = Client().get("/ladders/classic-2/?language=javascript").content.decode()
    assert '<option value="javascript" selected>JavaScript</option>' in ladder
    assert "/bots/jsbot/" in ladder and "/bots/random/" not in ladder
    assert "No rated bots in this language yet." in Client().get("/ladders/classic-2/?language=go").content.decode()
    russian = text(Client(headers={"accept-language": "ru"}).get("/ladders/classic-2/").content.decode())
    assert "все языки" in russian and "встроенный" in russian and "JavaScript" in russian
