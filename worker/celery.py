"""The Celery app of the referee workers: Redis broker, JSON, late acks, one match at a time.

Settings come from the environment here (``CELERY_BROKER_URL``,
``CELERY_RESULT_BACKEND``); the arena's Django settings override them when
``DJANGO_SETTINGS_MODULE`` is set (the only place this package touches Django).
Why each setting:

- ``task_acks_late`` with ``task_reject_on_worker_lost``: a worker killed mid-match
  does not lose the match; the broker delivers it again (the task must be
  idempotent, which the arena's claim-by-conditional-update guarantees).
- ``worker_prefetch_multiplier = 1``: a match is long; a worker must not hoard them.
- ``task_time_limit`` below the broker's ``visibility_timeout``: a running match is
  never handed to a second worker while the first still plays it.
- JSON only: nothing a bot's author influences is ever unpickled.

A referee worker builds the bots' sandbox runtime in its main process before it
consumes anything (``celeryd_after_setup``), and refuses to start if it cannot;
its pool processes never build it (``worker.health``).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from celery import Celery
from celery.signals import celeryd_after_setup, worker_process_init, worker_process_shutdown, worker_ready

from worker.broker import MATCH_TIME_LIMIT_S, transport_class, transport_options
from worker.health import SANDBOX_ENV, check, prepare
from worker.referee.cores import REFEREES_ENV, claim_core
from worker.referee.launch import close_warm_pools
from worker.sandbox.runtime import forbid_builds

_BROKER = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
_SETTINGS = {
    "broker_url": _BROKER,
    "result_backend": os.environ.get("CELERY_RESULT_BACKEND") or None,
    "task_serializer": "json",
    "result_serializer": "json",
    "accept_content": ["json"],
    "task_acks_late": True,
    "task_reject_on_worker_lost": True,
    "worker_prefetch_multiplier": 1,
    "worker_cancel_long_running_tasks_on_connection_loss": True,
    "task_time_limit": MATCH_TIME_LIMIT_S,
    "task_soft_time_limit": MATCH_TIME_LIMIT_S - max(1, min(60, MATCH_TIME_LIMIT_S // 10)),
    "broker_transport_options": transport_options(_BROKER) if not _BROKER.startswith("filesystem") else {},
    "broker_connection_retry_on_startup": True,
    # Everything that runs bots (matches, and builds: they install in the sandbox) goes to sandbox-capable
    # workers; the rest (rating fits) to the default queue.
    "task_routes": {
        **{name: {"queue": "referee"} for name in (
            "worker.tasks.play_match_spec", "arena.matches.play_match", "arena.bots.admit_version")},
        # A table's game waits on people for minutes: its own workers, so open tables never hold up matches.
        "arena.tables.play_table": {"queue": "tables"},
        # Analysing a game is minutes of CPU and runs no bot: its own workers, so it never delays a match.
        "arena.analysis.analyze_next": {"queue": "analysis"},
    },
    "task_default_queue": "default",
}
app = Celery("worker")
if os.environ.get("DJANGO_SETTINGS_MODULE"):
    # The arena's settings say where the broker and the results are (CELERY_BROKER_URL, its transport options,
    # CELERY_RESULT_BACKEND, and any other CELERY_* they set); the rest is the workers' own policy above.
    app.config_from_object("django.conf:settings", namespace="CELERY")
    _OWN = ("broker_url", "broker_transport_options", "result_backend")
    app.conf.update({key: value for key, value in _SETTINGS.items() if key not in _OWN})
    app.autodiscover_tasks()  # the arena apps' tasks modules, imported once Django is set up
else:
    app.conf.update(_SETTINGS)
app.autodiscover_tasks(["worker"], related_name="tasks", force=True)


@app.on_after_configure.connect
def _folder_transport(sender: Celery, **_: Any) -> None:
    """A folder broker's transport is ours (worker/broker.py), whichever settings named the folder: read once the
    configuration is, since the arena's settings import this module."""
    sender.conf.broker_transport = transport_class(sender.conf.broker_url)


MATCH_QUEUES = frozenset({"referee", "tournament"})
"""The queues whose tasks play matches: their workers' pool processes each play on a core of their own."""
_plays_matches = False
"""Set in a worker's main process before its pool forks: whether it consumes one of ``MATCH_QUEUES``."""


@celeryd_after_setup.connect
def _match_worker(sender: Any = None, instance: Any = None, **_: Any) -> None:
    global _plays_matches
    _plays_matches = instance is not None and bool(MATCH_QUEUES & set(instance.app.amqp.queues.consume_from))


@celeryd_after_setup.connect
def _prepare_runtime(sender: Any = None, instance: Any = None, **_: Any) -> None:
    """A referee worker builds its sandbox runtime here, in its main process, before it consumes anything; it
    refuses to start (EX_CONFIG) if it cannot. Tasks never build it (``forbid_builds`` below)."""
    if instance is None or "referee" not in instance.app.amqp.queues.consume_from:
        return
    # Its pool processes inherit this: starting bots ahead needs a core no other referee of this worker uses.
    os.environ.setdefault(REFEREES_ENV, str(instance.concurrency))
    sandbox = os.environ.get(SANDBOX_ENV, "bwrap")
    problem = prepare(sandbox) or check(sandbox)
    if problem is not None:
        print(f"durak worker: refusing matches: {problem}", file=sys.stderr, flush=True)
        raise SystemExit(78)


@worker_process_init.connect
@worker_ready.connect
def _no_builds_in_tasks(**_: Any) -> None:
    """Pool processes (and a solo worker once it is ready) find the runtime built, or raise ``RuntimeStale``."""
    forbid_builds()


@worker_process_init.connect
def _a_core_of_its_own(**_: Any) -> None:
    """A pool process of a worker that plays matches takes a core for its games (worker/referee/cores.py); the
    main process, which plays nothing, takes none, nor do the table and analysis workers' processes, whose
    work is paced by people or runs no bot: a core they held would be one no referee could play on."""
    if _plays_matches:
        claim_core()


@worker_process_shutdown.connect
def _no_pooled_sandboxes_left(**_: Any) -> None:
    """A pool process that ends kills its pooled sandboxes and cleans their seats (a recycled process may
    skip interpreter exit, where the pool would do it; its sandboxes would die with it, their seats stay)."""
    close_warm_pools()
