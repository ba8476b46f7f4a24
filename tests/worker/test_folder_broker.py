"""The folder broker of a first run (worker/broker.py): workers that start at once bind their queues safely."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from kombu import Connection, Exchange, Queue

from worker.broker import FILESYSTEM, FolderTransport, transport_class, transport_options

PROCESSES = 8
QUEUES_EACH = 25


def connection(folder: Path) -> Connection:
    return Connection(FILESYSTEM, transport=transport_class(FILESYSTEM),
                      transport_options=transport_options(FILESYSTEM, folder))


def _bind(folder: str, worker: int, start: Any) -> None:
    """One starting worker: its queues bound to the exchange every worker shares, all at once with the others."""
    start.wait(timeout=60)
    with connection(Path(folder)) as broker:
        channel = broker.default_channel
        for number in range(QUEUES_EACH):
            name = f"w{worker}-q{number}"
            Queue(name, Exchange("shared", type="fanout"), routing_key=name)(channel).declare()


def test_workers_binding_one_exchange_at_once_all_bind_and_its_messages_reach_every_queue(tmp_path: Path) -> None:
    """kombu's own folder transport creates an exchange's table before it locks it: a worker binding meanwhile
    read it empty and died at start (a first run's worker did). Here eight processes bind 25 queues each to one
    fresh exchange at the same moment: every process succeeds, and a message published to the exchange lands in
    all 200 queues."""
    assert transport_class(FILESYSTEM) == "worker.broker:FolderTransport"
    assert transport_class("redis://127.0.0.1:6379/0") is None
    context = multiprocessing.get_context("fork")
    start = context.Barrier(PROCESSES)
    workers = [context.Process(target=_bind, args=(str(tmp_path), worker, start)) for worker in range(PROCESSES)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=60)
    assert [process.exitcode for process in workers] == [0] * PROCESSES
    with connection(tmp_path) as broker:
        assert isinstance(broker.transport, FolderTransport)
        channel = broker.default_channel
        table = channel.get_table("shared")  # type: ignore[attr-defined]  # the folder channel's own
        assert sorted(bound.queue for bound in table) == sorted(
            f"w{worker}-q{number}" for worker in range(PROCESSES) for number in range(QUEUES_EACH))
        shared = Exchange("shared", type="fanout")
        shared(channel).declare()  # this process's channel learns the exchange's type (the table has its queues)
        broker.Producer(channel).publish({"hello": "everyone"}, exchange=shared)
        for bound in table:
            message = Queue(bound.queue, shared)(channel).get(no_ack=True)
            assert message is not None and message.payload == {"hello": "everyone"}, bound.queue
