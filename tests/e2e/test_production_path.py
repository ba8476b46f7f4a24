"""The production path on this machine, without Docker: the very commands of docker/compose.yaml (migrate,
gunicorn, a Celery worker, beat) against the real PostgreSQL and Redis. A new author signs up over HTTP,
submits a bot with ``durak submit`` through the REST API, and it is admitted, plays rated games and shows on
the ladder with a replayable game; then everything stops and no process is left behind."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
import yaml

from bots_sdk.engine import GameRecord
from bots_sdk.engine.replay import replay
from tests.e2e.processes import marked

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yaml"
DATABASE = os.environ["DATABASE_URL"].rsplit("/", 1)[1] + "_e2e" if "DATABASE_URL" in os.environ else "durak_e2e"
"""The stack's own database, named after the run's (``DATABASE_URL``), so two runs on one machine keep apart."""
BROKER = os.environ.get("ARENA_TEST_BROKER_URL", "redis://127.0.0.1:6379/13")
SLOT_UIDS = range(61000, 62000)


def compose_command(service: str) -> list[str]:
    command = yaml.safe_load(COMPOSE.read_text())["services"][service]["command"]
    assert isinstance(command, list)
    return [str(part) for part in command]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])




def slot_processes() -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid in SLOT_UIDS:
                    found.add(int(entry.name))
            except OSError:
                continue
    return found


class Stack:
    """The compose services as local processes, each in its own process group."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env = env
        self.logs = logs
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def run(self, service: str, command: list[str]) -> None:
        log = (self.logs / f"{service}.log").open("wb")
        self.processes[service] = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log,
                                                   stderr=subprocess.STDOUT, start_new_session=True)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def log(self, service: str) -> str:
        return (self.logs / f"{service}.log").read_text(errors="replace")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[tuple[Stack, str, str]]:
    admin = psycopg.connect("postgres://postgres:postgres@127.0.0.1:5432/postgres", autocommit=True)
    admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    admin.execute(f"CREATE DATABASE {DATABASE}")
    redis.Redis.from_url(BROKER).flushdb()
    marker = f"DURAK_E2E_RUN={uuid.uuid4().hex}"
    var = tmp_path / "var"
    var.mkdir()
    var.chmod(0o755)
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ARENA_", "CELERY_"))},
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "arena.settings", "ARENA_PRODUCTION": "true",
        "DJANGO_SECRET_KEY": uuid.uuid4().hex * 2, "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": f"postgres://postgres:postgres@127.0.0.1:5432/{DATABASE}", "CELERY_BROKER_URL": BROKER,
        "ARENA_VAR_DIR": str(var), "ARENA_LOG_FORMAT": "json", "WORKER_CONCURRENCY": "1",
        marker.split("=")[0]: marker.split("=")[1],
    }
    before_slots = slot_processes()
    stack = Stack(env, tmp_path)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True)  # the image build's step
    migrate = subprocess.run(compose_command("migrate"), cwd=ROOT, env=env, capture_output=True, text=True)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    web = compose_command("web")
    web[web.index("--bind") + 1] = f"127.0.0.1:{port}"
    stack.run("web", web)
    stack.run("worker", compose_command("worker"))
    stack.run("beat", compose_command("beat"))
    try:
        yield stack, f"http://127.0.0.1:{port}", marker
    finally:
        stack.stop()
        time.sleep(0.5)
        left = marked(marker)
        assert not left, f"processes left after stopping the stack: {sorted(left)}"
        assert not (slot_processes() - before_slots), "sandboxed bot processes outlived the worker"
        admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        admin.close()


def wait_for(what: str, check: Callable[[], bool], timeout: float, stack: Stack) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return time.monotonic() - started
        time.sleep(0.5)
    logs = "\n".join(f"--- {name}\n{stack.log(name)[-2000:]}" for name in stack.processes)
    raise AssertionError(f"{what}: not within {timeout:.0f} s\n{logs}")


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def healthy(base: str) -> bool:
    try:
        return bool(get_json(base + "/healthz") == {"status": "up"})
    except OSError:
        return False


def sign_up_and_get_token(base: str) -> str:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def post(path: str, fields: dict[str, str]) -> str:
        page = opener.open(base + path, timeout=10).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token, page[:500]
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token.group(1)}).encode()
        request = urllib.request.Request(base + path, data=body, headers={"Referer": base + path})
        return str(opener.open(request, timeout=10).read().decode())

    post("/accounts/signup/", {"username": "organiser", "password1": "a-Long-pass-4-durak",
                               "password2": "a-Long-pass-4-durak"})
    account = post("/accounts/", {"name": "e2e"})
    found = re.search(r"<pre><code>(durak_[^<]+)</code></pre>", account)
    assert found, account[:1000]
    return found.group(1)


def test_upload_to_a_rated_game_on_the_production_stack(stack: tuple[Stack, str, str], tmp_path: Path) -> None:
    processes, base, _ = stack
    wait_for("the web server answers /healthz", lambda: healthy(base), 60, processes)
    wait_for("the worker is ready", lambda: "ready" in processes.log("worker"), 60, processes)
    token = sign_up_and_get_token(base)
    subprocess.run([sys.executable, "-m", "bots_sdk.cli.main", "new", "prodbot", "--dir", str(tmp_path)],
                   check=True, capture_output=True)
    started = time.monotonic()
    submitted = subprocess.run(
        [sys.executable, "-m", "bots_sdk.cli.main", "submit", str(tmp_path / "prodbot"), "--url", base,
         "--token", token, "--no-wait"], capture_output=True, text=True, timeout=60)
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr

    def rated() -> bool:
        try:
            ladder = get_json(base + "/api/ladders/classic-2")
        except urllib.error.HTTPError as error:
            if error.code != 404:  # 404: the ladder appears with its first rated game
                raise
            return False
        rows = [s for s in ladder["standings"] if s["bot"] == "prodbot"]
        return bool(rows) and rows[0]["games"] > 0

    wait_for("prodbot is admitted and rated", rated, 120, processes)
    elapsed = time.monotonic() - started
    print(f"upload to first rated game on the production stack: {elapsed:.1f} s")
    assert elapsed <= 120
    bot = get_json(base + "/api/bots/prodbot")
    assert bot["versions"][0]["status"] == "active"
    admission = re.search(r'href="/matches/(\d+)/"', urllib.request.urlopen(base + "/bots/prodbot/").read().decode())
    assert admission
    match = get_json(f"{base}/api/matches/{admission.group(1)}")
    game = match["games"][0]
    record = get_json(base + game["record_url"])
    assert replay(GameRecord.from_dict(record)).status == "ok"
    with urllib.request.urlopen(base + game["url"]) as page:
        assert page.status == 200 and b"replay-frames" in page.read()
    with urllib.request.urlopen(base + "/static/web/site.css") as css:  # whitenoise serves the collected files
        assert css.status == 200
    assert '"level": "INFO"' in processes.log("worker")  # structured log lines
    assert "beat: Starting" in processes.log("beat")
