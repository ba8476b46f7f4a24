"""Datasets through a real server: the ladder's and the bot's download links, the API's filters, and ``durak
dataset`` fetching a ladder and resuming a download that was cut off in the middle of a gzip member.

The games are real (the reference bots play them in this process) and stored by the arena's services, so the
records in the download are what a worker would have stored; every one of them replays to its result.
"""

from __future__ import annotations

import gzip
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, Match
from arena.matches.tasks import play_match
from bots_sdk.cli.main import main as durak
from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.arena.teams import match_store

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def games(references: dict[str, BotVersion], alice: User, monkeypatch: pytest.MonkeyPatch,
          settings: Any) -> dict[str, Match]:
    """Rated classic-2 games (two of them a week old), a rated transfer-2 match, and an unrated challenge of
    Alice's ``copycat`` (which plays as gentle) against random."""
    monkeypatch.setattr(play_match, "apply_async", lambda *args, **kwargs: None)  # stored here, never queued
    settings.ARENA_DATASET_BATCH = 2  # several gzip members from a few games
    gentle, random = references["gentle"], references["random"]
    copycat = BotVersion.objects.create(bot=Bot.objects.create(owner=alice, name="copycat"), number=1, label="1",
                                        language="reference", reference="gentle", status=BotVersion.Status.ACTIVE)
    matches = {
        "ladder": match_store([gentle, random], "classic", deals=3, kind=Match.Kind.LADDER, rated=True),
        "transfer": match_store([gentle, random], "transfer", kind=Match.Kind.LADDER, rated=True),
        "challenge": match_store([copycat, random], "classic"),
    }
    old = Game.objects.filter(match=matches["ladder"]).order_by("pk")[:2]
    Game.objects.filter(pk__in=[g.pk for g in old]).update(finished=timezone.now() - timedelta(days=7))
    return matches


def download(url: str) -> tuple[bytes, dict[str, str]]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read(), dict(response.headers)


def lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in gzip.decompress(data).splitlines()]


def link(page_url: str, language: str = "en") -> tuple[str, str]:
    """The dataset link of a page, and its words."""
    request = urllib.request.Request(page_url, headers={"Accept-Language": language})
    with urllib.request.urlopen(request, timeout=30) as response:
        html = response.read().decode()
    found = re.search(r'<a class="dataset" href="([^"]+)" download>([^<]+)</a>', html)
    assert found, f"no dataset link on {page_url}"
    return found[1].replace("&amp;", "&"), found[2]


def test_a_ladder_downloads_from_its_page_and_each_record_replays(live_server: Any, games: dict[str, Match]) -> None:
    url = str(live_server)
    href, words = link(f"{url}/ladders/classic-2/")
    assert "Download" in words
    data, headers = download(url + href)
    assert headers["Content-Type"] == "application/gzip"
    assert 'filename="durak-classic-2.jsonl.gz"' in headers["Content-Disposition"]
    stored = list(Game.objects.filter(match=games["ladder"]).order_by("pk"))
    assert headers["X-Games"] == str(len(stored)) == "6"
    assert data.count(b"\x1f\x8b\x08") >= 3, "one gzip member per batch of 2 games"
    got = lines(data)
    assert [line["id"] for line in got] == [g.pk for g in stored]
    for line, game in zip(got, stored):
        assert line["record"] == game.record and line["ladder"] == "classic-2" and line["rated"] is True
        assert line["kind"] == "ladder" and line["match"] == games["ladder"].pk
        assert {seat["bot"] for seat in line["seats"]} == {"gentle", "random"}
        assert replay(GameRecord.from_dict(line["record"])).status == "ok"

    # The bot page's link, in Russian: the unrated challenge of copycat, and nothing else.
    href, words = link(f"{url}/bots/copycat/", "ru")
    assert words.startswith("Скачать")
    got = lines(download(url + href)[0])
    assert {line["match"] for line in got} == {games["challenge"].pk} and len(got) == 2
    assert all(line["rated"] is False and line["kind"] == "challenge" for line in got)

    # A time range and a resume point, and what is wrong with a bad question.
    since = (timezone.now() - timedelta(days=1)).isoformat()
    recent = lines(download(f"{url}/api/dataset?ladder=classic-2&since={urllib.parse.quote(since)}")[0])
    assert [line["id"] for line in recent] == [g.pk for g in stored[2:]]
    week_ago = (timezone.now() - timedelta(days=6)).strftime("%Y-%m-%dT%H:%M")  # no zone: UTC
    older = lines(download(f"{url}/api/dataset?ladder=classic-2&until={week_ago}")[0])
    assert [line["id"] for line in older] == [g.pk for g in stored[:2]]
    after = lines(download(f"{url}/api/dataset?bot=gentle&after={stored[-1].pk}")[0])
    transfer = Game.objects.filter(match=games["transfer"]).order_by("pk")
    assert [line["id"] for line in after] == [g.pk for g in transfer]
    assert {line["ladder"] for line in after} == {"transfer-2"}
    for query, status, words in (("ladder=classic-9", 404, "classic-9"), ("bot=nobody", 404, ""),
                                 ("since=yesterday", 422, "since"), ("limit=0", 400, "limit"),
                                 ("since=2026-02-01&until=2026-01-01", 400, "before until")):
        with pytest.raises(urllib.error.HTTPError) as refused:
            download(f"{url}/api/dataset?{query}")
        assert refused.value.code == status and words in refused.value.read().decode()


def test_durak_dataset_fetches_a_ladder_and_resumes_a_broken_file(
    live_server: Any, games: dict[str, Match], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = str(live_server)
    whole = tmp_path / "classic-2.jsonl.gz"
    assert durak(["dataset", "--url", url, "--ladder", "classic-2", "--out", str(whole)]) == 0
    assert "6 games" in capsys.readouterr().out
    assert whole.read_bytes() == download(f"{url}/api/dataset?ladder=classic-2")[0]

    # Cut off inside the second member, as a broken connection leaves it: the first member stays, the rest comes.
    second = whole.read_bytes().index(b"\x1f\x8b\x08", 1)
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(whole.read_bytes()[:second + 25])
    assert durak(["dataset", "--url", url, "--ladder", "classic-2", "--out", str(broken)]) == 0
    first_two = [g.pk for g in Game.objects.filter(match=games["ladder"]).order_by("pk")[:2]]
    assert f"resuming after game {first_two[-1]} (2 games held)" in capsys.readouterr().err
    assert broken.read_bytes() == whole.read_bytes()
    assert durak(["dataset", "--url", url, "--ladder", "classic-2", "--out", str(broken)]) == 0
    assert broken.read_bytes() == whole.read_bytes(), "a finished file gets nothing twice"

    some = tmp_path / "some.jsonl.gz"
    assert durak(["dataset", "--url", url, "--bot", "gentle", "--limit", "3", "--out", str(some)]) == 0
    assert len(lines(some.read_bytes())) == 3
    assert durak(["dataset", "--url", url, "--ladder", "classic-9", "--out", str(tmp_path / "x")]) == 2
    assert "404" in capsys.readouterr().err and not (tmp_path / "x").exists(), "a refusal writes no file"
    assert durak(["dataset", "--url", url, "--since", "soon", "--out", str(tmp_path / "x")]) == 2
    assert "since" in capsys.readouterr().err
    (tmp_path / "notes.txt").write_text("my notes\n")
    assert durak(["dataset", "--url", url, "--out", str(tmp_path / "notes.txt")]) == 2
    assert "not a gzip file" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
