"""Queueing a Celery task from a service, by the task's dotted path, once the transaction commits.

Tasks call services, so a service that imported its app's tasks module would close an import cycle
(services -> tasks -> services), held together only by imports hidden in function bodies. Naming the
task instead keeps the layers one-way (views and tasks over services over selectors over models, as
``.importlinter`` holds them), the way ``ARENA_MATCH_DONE_HOOKS`` names its hooks. The task is looked up
when the transaction commits: a worker never sees a row its task cannot read yet, and a rolled-back
request queues nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.module_loading import import_string


def enqueue_on_commit(task: str, *args: object, queue: str | None = None) -> None:
    """Queue ``task`` (e.g. ``"arena.matches.tasks.play_match"``) with ``args`` after the current commit;
    ``queue`` overrides the route (tournament matches go to their own)."""

    def send() -> None:
        found = import_string(task)
        if queue is None:
            found.delay(*args)
        else:
            found.apply_async(args, queue=queue)

    transaction.on_commit(send)
