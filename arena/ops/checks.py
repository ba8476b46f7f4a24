"""Are the services the arena needs there? One message per failure: what is wrong, where, and how to fix it.

Used at start (``manage.py check_services``, the one-command arena), by the
health endpoint, and by a referee worker before it takes matches.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.db.utils import DatabaseError


def _where_database() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"SQLite file {db['NAME']}"
    kind = db["ENGINE"].rsplit(".", 1)[-1]
    return f"{kind} database {db.get('NAME')!r} at {db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}"


def check_database() -> str | None:
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return (f"the {_where_database()} is unreachable ({reason}); start it, or fix DATABASE_URL "
                "(postgres://USER:PASSWORD@HOST:5432/NAME; unset for the embedded SQLite)")
    return None


def check_broker(timeout_s: int = 3) -> str | None:
    from worker.celery import app

    url = app.conf.broker_url
    if url.startswith("filesystem://"):
        return None  # a folder under var/: nothing to reach
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout_s)
    except Exception as error:  # kombu raises many kinds; each one means "unreachable" here
        safe = url.split("@")[-1]
        return (f"the broker at {safe} is unreachable ({error}); start Redis, or fix CELERY_BROKER_URL "
                "(redis://HOST:6379/0; unset for the embedded broker)")
    return None


def check_sandbox() -> str | None:
    """The self-test of the configured sandbox; a worker without a working one must not play strangers' bots."""
    from worker.referee.launch import launcher_for
    from worker.sandbox.base import SandboxError

    try:
        launcher_for(settings.ARENA_SANDBOX)
    except (SandboxError, OSError, RuntimeError, ValueError) as error:
        return (f"the {settings.ARENA_SANDBOX} sandbox does not work on this host ({error}); "
                "a worker host needs root, bubblewrap and user namespaces (README: Deployment)")
    return None
