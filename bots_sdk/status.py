"""gRPC's status codes, as a bot's server writes them in ``grpc-status``: ours, so a bot never imports grpc.

``import grpc`` was most of a Python bot's start to SERVING (docs/protocol.md
section 10), and the server (bots_sdk/http2_server.py) needs nothing of grpcio but
these numbers. The names are grpcio's (``grpc.StatusCode``), so code that hands an
abort on to grpcio maps one to the other by name (bots_sdk/grpcio_servicers.py).
"""

from __future__ import annotations

import enum


class StatusCode(enum.IntEnum):
    """The codes of gRPC over HTTP/2, with the numbers it sends."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16
