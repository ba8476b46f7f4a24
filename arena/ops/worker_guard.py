"""A referee worker refuses to start when its sandbox does not work, and says why.

Without this a worker would claim matches and hand them back forever; with it
the worker stops before it consumes anything, with one clear line, and the
matches wait in the queue for a capable worker.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from celery.signals import celeryd_after_setup

from arena.ops.checks import check_sandbox
from arena.ops.production import production_problems

log = logging.getLogger("arena.worker")
REFUSED = 78
"""The worker's exit status when it refuses (EX_CONFIG: the host is not set up for it)."""


@celeryd_after_setup.connect
def refuse_without_sandbox(sender: Any = None, instance: Any = None, **_: Any) -> None:
    unsafe = [f"{problem.msg}; {problem.hint}" for problem in production_problems()]
    if unsafe:  # any worker of a production arena: a table worker plays bots too
        _refuse(" / ".join(unsafe))
    if instance is None or "referee" not in instance.app.amqp.queues.consume_from:
        return
    problem = check_sandbox()
    if problem is not None:
        _refuse(problem)


def _refuse(problem: str) -> None:
    log.critical("refusing matches: %s", problem)
    print(f"durak worker: refusing matches: {problem}", file=sys.stderr, flush=True)
    raise SystemExit(REFUSED)
