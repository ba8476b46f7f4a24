"""An upload over the size limit, and a bot.toml with an unknown key, as the web form and the API tell them:
the limit in the unit the form states, the key named with its closest known one, and no host path.
``durak submit`` over the limit: its 413 in tests/arena/test_worker_flow.py (beside its other refusals), and a
cut connection against gunicorn below."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.utils import override_settings

from arena.bots.models import BotVersion
from bots_sdk.cli.submit_cmd import pack
from tests.arena.conftest import scaffold
from tests.arena.test_upload import api_upload

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 50_000
"""``ARENA_MAX_UPLOAD_BYTES`` of these tests: the form says "0.05 MB"."""


@pytest.mark.django_db
@override_settings(ARENA_MAX_UPLOAD_BYTES=LIMIT)
@pytest.mark.parametrize("size", [60_000, 600_000], ids=["over-the-limit", "over-the-request-limit"])
def test_the_web_form_answers_an_oversized_upload_with_the_sites_page(alice_client: Client, size: int) -> None:
    """60 kB reaches the view (the request limit has room for the form); 600 kB is refused by the middleware
    before its body is read. Both get a page of the site, with the limit as the form states it."""
    form = alice_client.get("/submit/").content.decode()
    assert "up to 0.05 MB" in form
    response = alice_client.post("/submit/", {"archive": SimpleUploadedFile("big.tar.gz", os.urandom(size))})
    page = response.content.decode()
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html") and "Durak Arena</title>" in page
    assert "too large" in page and "the limit is 0.05 MB" in page
    assert not BotVersion.objects.exists()


@pytest.mark.django_db
def test_an_unknown_bot_toml_key_is_refused_at_upload_without_host_paths(
    alice_token: str, alice_client: Client, tmp_path: Path
) -> None:
    folder = scaffold(tmp_path, "typo")
    manifest = folder / "bot.toml"
    manifest.write_text(manifest.read_text() + 'requirments = "requirements.txt"\n')
    status, body = api_upload(Client(), alice_token, "typo.tar.gz", pack(folder))
    assert status == 400
    assert body["detail"] == "typo.tar.gz/bot.toml: unknown key 'requirments'; did you mean 'requirements'?"
    page = alice_client.post("/submit/", {"archive": SimpleUploadedFile("typo.tar.gz", pack(folder))})
    assert page.status_code == 400 and "did you mean &#x27;requirements&#x27;?" in page.content.decode()
    assert "/tmp" not in page.content.decode()
    assert not BotVersion.objects.exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_durak_submit_says_too_large_when_gunicorn_cuts_the_upload_off(tmp_path: Path) -> None:
    """gunicorn (the production server) answers a body far over the limit unread and closes the connection
    while ``durak submit`` is still sending it: a reset, not a 413, which must still read "too large (limit ...)",
    not "cannot reach". The refusal comes before authentication, so no account is needed."""
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.django_settings", "ARENA_MAX_UPLOAD_BYTES": str(LIMIT)}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "arena.wsgi", "--bind", f"127.0.0.1:{port}",
                               "--workers", "1"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/limits", timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "gunicorn did not start"
                time.sleep(0.2)
        folder = scaffold(tmp_path, "heavy")
        (folder / "weights.bin").write_bytes(os.urandom(20_000_000))
        result = subprocess.run(
            [sys.executable, "-m", "bots_sdk.cli.main", "submit", str(folder), "--url", f"http://127.0.0.1:{port}",
             "--token", "x", "--no-wait"], cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert result.returncode == 2
    assert result.stderr.startswith("durak submit: too large (limit 0.05 MB): "), result.stderr
    assert "cannot reach" not in result.stderr
