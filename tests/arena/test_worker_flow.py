"""The whole way, as a new author goes it: sign up, make a token, ``durak submit`` over HTTP to a running site,
a real Celery worker (Redis broker, PostgreSQL) builds the bot and plays its admission in bubblewrap, and the
bot appears on the ladder with replayable games."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from arena.accounts.services import token_create
from arena.bots.models import BotVersion
from arena.matches.models import Game
from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.arena.conftest import scaffold
from tests.worker.test_celery_task import start_worker, stop

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def celery_worker(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A real worker process on the test database, serving every queue (tournament, referee and default)."""
    broker = settings.CELERY_BROKER_URL
    client = redis.Redis.from_url(broker)
    client.ping()
    client.flushdb()
    database = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.django_settings", "PYTHONPATH": str(ROOT),
           "DATABASE_URL": "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(**database),
           "CELERY_BROKER_URL": broker, "ARENA_VAR_DIR": os.environ["ARENA_VAR_DIR"]}
    log = tmp_path / "worker.log"
    process = start_worker(env, log, queues="tournament,referee,default")
    yield process
    stop(process)
    client.flushdb()
    print(log.read_text()[-3000:])


def test_a_new_author_submits_with_durak_submit_and_sees_the_bot_admitted_and_rated(
    live_server: object, celery_worker: subprocess.Popen[bytes], tmp_path: Path
) -> None:
    url = str(live_server)
    browser = Client()
    signup = browser.post("/accounts/signup/", {"username": "newcomer", "password1": "a-Long-pass-4-durak",
                                                "password2": "a-Long-pass-4-durak"})
    assert signup.status_code == 302
    page = browser.post("/accounts/", {"name": "laptop"}).content.decode()
    token = page.split("<pre><code>")[1].split("</code></pre>")[0]
    folder = scaffold(tmp_path, "firstbot")
    started = time.monotonic()
    submitted = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "submit", str(folder), "--url", url, "--token", token,
         "--timeout", "180"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr
    lines = submitted.stdout.splitlines()
    assert lines[0].startswith("uploaded firstbot v1: pending")
    assert lines[-1].startswith("admitted: ") and "/versions/" in lines[-1]
    version = BotVersion.objects.get(bot__name="firstbot")
    assert version.status == BotVersion.Status.ACTIVE
    print(f"upload to admitted: {time.monotonic() - started:.1f} s")
    ladder = Client().get("/api/ladders/classic-2").json()
    mine = next(s for s in ladder["standings"] if s["bot"] == "firstbot")
    assert mine["games"] > 0 and mine["provisional"]
    game = Game.objects.filter(seats__version=version).first()
    assert game is not None and replay(GameRecord.from_dict(game.record)).status == "ok"
    assert Client().get(f"/games/{game.pk}/").status_code == 200


def test_durak_submit_says_what_is_wrong(live_server: object, tmp_path: Path, alice: User, settings: Any) -> None:
    settings.ARENA_MAX_UPLOAD_BYTES = 50_000
    token = token_create(user=alice, name="laptop")[1]
    # Over the upload limit (the service's 413), and far over the request limit (refused unread: a 413 or a
    # reset connection, as the server manages): "too large" with the limit as the form states it, both times.
    for size in (60_000, 3_000_000):
        heavy = scaffold(tmp_path / str(size), "heavy")
        (heavy / "weights.bin").write_bytes(os.urandom(size))  # random: the tar.gz stays as large
        too_large = subprocess.run(
            [sys.executable, "-m", "bots_sdk.cli.main", "submit", str(heavy), "--url", str(live_server),
             "--token", token, "--no-wait"], cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
        assert too_large.returncode == 2 and "too large (limit 0.05 MB)" in too_large.stderr, too_large.stderr
        assert "cannot reach" not in too_large.stderr
    folder = scaffold(tmp_path, "lonely")
    bad_token = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "submit", str(folder), "--url", str(live_server), "--token", "x"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert bad_token.returncode == 2
    assert "401" in bad_token.stderr and "--token" in bad_token.stderr
    no_server = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "submit", str(folder), "--url", "http://127.0.0.1:9", "--token",
         "x"], cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert no_server.returncode == 2 and "cannot reach" in no_server.stderr
    (folder / "bot.toml").write_text('name = "has space"\n')
    bad_bot = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "submit", str(folder), "--url", str(live_server), "--token", "x"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert bad_bot.returncode == 2 and "name" in bad_bot.stderr
