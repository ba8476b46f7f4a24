"""Fixtures of the strength-test tests: Alice's bot with two admitted versions (B = v2, A = v1), made as rows.

Nothing here plays: most tests run in a transaction (``db``), so the matches a
test queues are never handed to Celery (on-commit callbacks do not run), and
they end them with ``pairs.store_pair`` or ``pairs.fail_pair``. The end-to-end
test plays for real (tasks in-process); the browser test stubs the enqueue.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from arena.bots.models import BotVersion
from tests.arena.sprt.pairs import make_versions


@pytest.fixture
def mine(alice: User) -> tuple[BotVersion, BotVersion]:
    """(B, A): Alice's active v2 and her retired v1 of ``mybot``."""
    b, a = make_versions(alice, "mybot", [BotVersion.Status.RETIRED, BotVersion.Status.ACTIVE])
    return b, a
