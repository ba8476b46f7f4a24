"""grpc-core's settings for a Python process that speaks the contract: set on import, before grpc loads.

grpc-core (grpcio 1.85) runs sockets on its EventEngine by default. For one small
message at a time over a unix socket, as a referee and a bot exchange, its
iomgr predecessor answers faster: with ``PYTHON_EXPERIMENTS`` off in both
processes a bare stream ping-pong here fell from about 0.5 ms to 0.32 ms at the
median and from about 4 ms to under 2 ms at the 99th percentile, and each side
spends less CPU per decision (docs/protocol.md section 10). Each of the four
alone does almost nothing.

grpc-core reads ``GRPC_EXPERIMENTS`` once, while ``import grpc`` loads it; set
later, it changes nothing. So ``bots_sdk/__init__.py`` imports this module
first: every ``bots_sdk.*`` import (the server, the referee's client, the
generated stubs) runs it before any ``import grpc`` of ours. A process that
imported grpc before ``bots_sdk`` keeps grpc's defaults. A value the operator set
is kept (``setdefault``); an empty one restores grpc's defaults.

The names are grpc-core's (they change between releases; an unknown one is an
error line on stderr, nothing worse), and only Python's grpcio reads them with
this meaning: a bot in another language gets the environment without them
(``environment_for``) unless the operator set them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

EXPERIMENTS_VARIABLE = "GRPC_EXPERIMENTS"
PYTHON_EXPERIMENTS = (
    "-event_engine_client,-event_engine_listener,-event_engine_for_all_other_endpoints,-event_engine_callback_cq"
)
OPERATOR_EXPERIMENTS = os.environ.get(EXPERIMENTS_VARIABLE)
"""What the operator set, if anything (read before ours is set)."""

os.environ.setdefault(EXPERIMENTS_VARIABLE, PYTHON_EXPERIMENTS)


def environment_for(python: bool, environment: Mapping[str, str]) -> dict[str, str]:
    """``environment`` for a bot process: as is for a Python bot, without our ``GRPC_EXPERIMENTS`` for others."""
    if python or OPERATOR_EXPERIMENTS is not None:
        return dict(environment)
    return {key: value for key, value in environment.items() if key != EXPERIMENTS_VARIABLE}
