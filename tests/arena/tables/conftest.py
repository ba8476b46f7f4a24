"""Fixtures of the table tests: visitors' browsers (test clients), opening a table, playing it.

A table's game blocks on people, so it never runs in the request that queues it:
``playing`` runs the real task body in a thread of this process (its own database
connection) while the test plays the person's seat over HTTP with ``autoplay``;
``table_worker`` starts a real Celery worker process (Redis, PostgreSQL) for the
tests that go the whole way.
"""

from __future__ import annotations

import os
import random
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import Client

from arena.bots.models import BotVersion
from arena.tables.models import Table
from tests.worker.test_celery_task import start_worker, stop

ROOT = Path(__file__).resolve().parents[3]
PERSON = "person"


def open_table(client: Client, seats: list[str], preset: str = "classic") -> Table:
    """Open a table through the form, as a visitor does; ``seats`` holds ``person`` or version pks."""
    data = {"preset": preset, "players": str(len(seats)), **{f"seat_{i}": s for i, s in enumerate(seats)}}
    response = client.post("/tables/", data)
    assert response.status_code == 302, response.content.decode()[-3000:]
    return Table.objects.get(key=response["Location"].rstrip("/").rsplit("/", 1)[-1])


def state(client: Client, table: Table) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/tables/{table.key}/state.json").json()
    return data


def act(client: Client, table: Table, **body: str) -> tuple[int, dict[str, Any]]:
    response = client.post(f"/tables/{table.key}/act", body, content_type="application/json")
    return response.status_code, response.json()


Chooser = Callable[[dict[str, Any]], str]


def first_legal(view: dict[str, Any]) -> str:
    return str(view["legal"][0]["action"])


def autoplay(client: Client, table: Table, choose: Chooser = first_legal, timeout: float = 120.0,
             stop_after: int | None = None) -> dict[str, Any]:
    """Play the client's seat over HTTP until the game ends (or after ``stop_after`` moves); the last state."""
    deadline = time.monotonic() + timeout
    moves = 0
    while time.monotonic() < deadline:
        view = state(client, table)
        if not view["live"] or (stop_after is not None and moves >= stop_after):
            return view
        if view["my_turn"] and not view["sent"]:
            status, answer = act(client, table, action=choose(view))
            assert status == 200, answer
            moves += 1
        time.sleep(0.02)
    raise AssertionError(f"table {table.key} did not finish in {timeout} s: {state(client, table)['line']}")


@contextmanager
def playing(table: Table) -> Iterator[threading.Thread]:
    """The table's task body in a thread of this process, as a worker would run it."""
    from arena.tables.tasks import play_table

    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(play_table.apply(args=(table.pk,)).get())
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield thread
    thread.join(timeout=120)
    assert not thread.is_alive(), "the table's task did not end"


@pytest.fixture
def random_pk(references: dict[str, BotVersion]) -> str:
    return str(references["random"].pk)


@pytest.fixture
def guest() -> Client:
    """An anonymous visitor's browser."""
    return Client()


@pytest.fixture
def quick(settings: Any) -> None:
    """Bots move at once (no pause for the eye)."""
    settings.ARENA_TABLE_PACE_S = 0.0


def chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda view: str(rng.choice(view["legal"])["action"])


@pytest.fixture
def table_worker(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A real referee worker process on the test database and this run's broker and settings module."""
    broker = settings.CELERY_BROKER_URL
    client = redis.Redis.from_url(broker)
    client.ping()
    client.flushdb()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ["DJANGO_SETTINGS_MODULE"], "PYTHONPATH": str(ROOT),
           "DATABASE_URL": "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(**connection.settings_dict),
           "CELERY_BROKER_URL": broker, "ARENA_TABLE_PACE_S": "0.05"}
    log = tmp_path / "table-worker.log"
    process = start_worker(env, log, queues="tables,default")
    yield process
    stop(process)
    client.flushdb()
    print(log.read_text()[-3000:])
