"""What a production arena refuses to start with: bots played outside the sandbox, and the placeholder secrets
of ``docker/env.example`` left in place.

A Django system check (tag ``production``, not a ``--deploy`` one, so it runs on every ``manage.py`` command,
``check_services`` and ``migrate`` included, which compose runs before anything else starts), and
``refuse_unsafe_start`` for the entry points that run no management command (gunicorn's ``arena.wsgi``).
Production is ``ARENA_PRODUCTION=true`` (compose and the image set it; it also forbids ``DJANGO_DEBUG``): a
laptop's one-command arena may play trusted bots without a sandbox, a public site may not.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

PLACEHOLDERS = ("change-me", "change-me-to-50-random-characters")
"""The values ``docker/env.example`` ships for every secret (the secret key, the database password)."""
DEVELOPMENT_SECRET = "durak-arena-development-only-secret-key-never-in-production"
UNSANDBOXED = ("none", "process")


def _is_placeholder(value: object) -> bool:
    return isinstance(value, str) and any(value == p or value.startswith(p) for p in PLACEHOLDERS)


def production_problems() -> list[checks.Error]:
    """Every reason this production configuration must not serve, each saying which variable to change."""
    if not settings.PRODUCTION:
        return []
    problems = []
    if settings.ARENA_SANDBOX in UNSANDBOXED:
        problems.append(checks.Error(
            f"ARENA_SANDBOX={settings.ARENA_SANDBOX} plays uploaded bots outside the sandbox",
            hint="set ARENA_SANDBOX=bwrap (or unset it) and run the workers as root with bubblewrap",
            id="arena.E001",
        ))
    if _is_placeholder(settings.SECRET_KEY) or settings.SECRET_KEY == DEVELOPMENT_SECRET:
        problems.append(checks.Error(
            "DJANGO_SECRET_KEY is the placeholder of docker/env.example (or the development key)",
            hint="set DJANGO_SECRET_KEY to 50 random characters, e.g. "
                 "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'",
            id="arena.E002",
        ))
    for alias, database in settings.DATABASES.items():
        if _is_placeholder(database.get("PASSWORD")):
            problems.append(checks.Error(
                f"the {alias} database's password is the placeholder 'change-me' of docker/env.example",
                hint="choose a password and set it in both POSTGRES_PASSWORD and DATABASE_URL",
                id="arena.E003",
            ))
    return problems


@checks.register("production")
def production_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    return list(production_problems())


def refuse_unsafe_start() -> None:
    """Raise ``ImproperlyConfigured`` listing every production problem; for entry points without system checks."""
    problems = production_problems()
    if problems:
        lines = "\n".join(f"  {problem.id}: {problem.msg}; {problem.hint}" for problem in problems)
        raise ImproperlyConfigured(f"refusing to start in production (ARENA_PRODUCTION=true):\n{lines}")
