"""At start, a missing database or broker or a broken sandbox is named with its fix, without a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

ROOT = Path(__file__).resolve().parents[3]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "arena.settings", **env}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True,
                          text=True, timeout=120)


def test_an_unreachable_database_is_named_with_its_fix(tmp_path: Path) -> None:
    result = manage("check_services", DATABASE_URL="postgres://arena@127.0.0.1:9/arena", ARENA_VAR_DIR=str(tmp_path))
    assert result.returncode == 1
    assert "database: the postgresql database 'arena' at 127.0.0.1:9 is unreachable" in result.stderr
    assert "DATABASE_URL" in result.stderr and "Traceback" not in result.stderr


def test_an_unreachable_broker_is_named_with_its_fix(tmp_path: Path) -> None:
    result = manage("check_services", CELERY_BROKER_URL="redis://127.0.0.1:9/0", ARENA_VAR_DIR=str(tmp_path))
    assert result.returncode == 1
    assert "broker: the broker at redis://127.0.0.1:9/0 is unreachable" in result.stderr
    assert "CELERY_BROKER_URL" in result.stderr and "Traceback" not in result.stderr


def test_the_embedded_defaults_need_no_service(tmp_path: Path) -> None:
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    result = subprocess.run([sys.executable, "manage.py", "check_services", "--sandbox"], cwd=ROOT, text=True,
                            env={**clean, "DJANGO_SETTINGS_MODULE": "arena.settings", "ARENA_VAR_DIR": str(tmp_path)},
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok: database, broker, sandbox"


def test_a_worker_without_a_working_sandbox_refuses_matches(tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(0o755)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "arena.settings", "ARENA_VAR_DIR": str(tmp_path),
           "DURAK_BWRAP": str(fake), "CELERY_BROKER_URL": "redis://127.0.0.1:6379/12", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "worker.celery", "worker", "-Q", "referee", "--concurrency", "1",
         "--loglevel", "WARNING", "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 78
    assert "refusing matches: the bwrap sandbox does not work on this host" in result.stderr
    assert "bwrap cannot sandbox on this machine" in result.stderr


@pytest.mark.django_db
def test_the_health_endpoint_tells_anonymous_callers_only_up_or_down_and_staff_the_checks() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "up"}, "no service names, hosts or versions for the world"
    staff = Client()
    staff.force_login(User.objects.create_user("ops", password="ops-password-123", is_staff=True))
    assert staff.get("/healthz").json() == {"status": "up", "checks": {"database": "ok", "broker": "ok"}}
