"""A production arena (``ARENA_PRODUCTION=true``) refuses to start outside the sandbox or with the placeholder
secrets of docker/env.example, on each start path compose uses: the management commands (``check_services``
and ``migrate`` start every service) and gunicorn, which runs no system check of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

ROOT = Path(__file__).resolve().parents[3]
GOOD = {
    "DJANGO_SETTINGS_MODULE": "arena.settings", "ARENA_PRODUCTION": "true", "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": uuid.uuid4().hex * 2, "DJANGO_ALLOWED_HOSTS": "arena.example.org",
    "DATABASE_URL": "postgres://arena:a-real-password@127.0.0.1:9/arena", "CELERY_BROKER_URL": "redis://127.0.0.1:9/0",
    "ARENA_SANDBOX": "bwrap",
}
"""A production configuration that passes (its services need not answer: the checks come first)."""


def run(argv: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ARENA_", "CELERY_", "DATABASE_"))}
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**clean, **GOOD, "ARENA_VAR_DIR": str(tmp_path), **env})


def env_example() -> dict[str, str]:
    lines = (ROOT / "docker" / "env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#") and "=" in line)


@pytest.mark.parametrize("sandbox", ["none", "process"])
def test_production_refuses_to_play_bots_outside_the_sandbox(settings: Any, sandbox: str) -> None:
    settings.PRODUCTION, settings.ARENA_SANDBOX, settings.SECRET_KEY = True, sandbox, uuid.uuid4().hex * 2
    with pytest.raises(SystemCheckError, match=rf"\(arena\.E001\) ARENA_SANDBOX={sandbox} plays uploaded bots "
                                               r"outside the sandbox\s+HINT: set ARENA_SANDBOX=bwrap"):
        call_command("check")
    settings.ARENA_SANDBOX = "bwrap"
    call_command("check")
    settings.PRODUCTION, settings.ARENA_SANDBOX = False, sandbox  # a laptop's arena may play trusted bots so
    call_command("check")


def test_the_start_of_every_service_refuses_the_placeholders_of_env_example(tmp_path: Path) -> None:
    """``check_services`` is the first command of compose's migrate (which every service waits for) and
    worker services; here it meets env.example's own placeholders and an unsandboxed worker at once."""
    example = env_example()
    placeholders = {"DJANGO_SECRET_KEY": example["DJANGO_SECRET_KEY"], "DATABASE_URL": example["DATABASE_URL"]}
    assert "change-me" in placeholders["DATABASE_URL"]
    result = run([sys.executable, "manage.py", "check_services", "--sandbox"], tmp_path, ARENA_SANDBOX="process",
                 **placeholders)
    assert result.returncode == 1
    assert "(arena.E001) ARENA_SANDBOX=process plays uploaded bots outside the sandbox" in result.stderr
    assert "(arena.E002) DJANGO_SECRET_KEY is the placeholder of docker/env.example" in result.stderr
    assert "(arena.E003) the default database's password is the placeholder 'change-me'" in result.stderr
    assert "POSTGRES_PASSWORD and DATABASE_URL" in result.stderr
    assert "unreachable" not in result.stderr, "refused before any service is asked"


def test_gunicorn_does_not_serve_an_unsafe_production(tmp_path: Path) -> None:
    result = run([sys.executable, "-m", "gunicorn", "arena.wsgi", "--bind", "127.0.0.1:0", "--workers", "1"],
                 tmp_path, ARENA_SANDBOX="none")
    assert result.returncode != 0
    assert "refusing to start in production (ARENA_PRODUCTION=true):" in result.stderr
    assert "arena.E001: ARENA_SANDBOX=none plays uploaded bots outside the sandbox" in result.stderr
