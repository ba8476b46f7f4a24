"""The SDK's servicers behind grpcio's server, for a bot that runs grpcio's server itself rather than ``serve``.

``serve`` answers on bots_sdk/http2_server.py and never imports grpc (importing it was
most of a Python bot's start to SERVING, docs/protocol.md section 10), so
``bots_sdk.server.BotServicer`` and ``HealthServicer`` take our ``Aborting`` and abort
with our status codes (bots_sdk/status.py). A bot written against the generated stubs
that hands calls on to them wraps grpcio's context in ``GrpcioContext``; this module is
the one on the bot's side that imports grpc.
"""

from __future__ import annotations

from typing import NoReturn

import grpc

from bots_sdk._proto.grpc.health.v1 import health_pb2, health_pb2_grpc
from bots_sdk.server import HealthServicer
from bots_sdk.status import StatusCode


class GrpcioContext:
    """grpcio's context of a call as the SDK's handlers take it: an abort with our code is one with grpc's."""

    def __init__(self, context: grpc.ServicerContext) -> None:
        self._context = context

    def abort(self, code: StatusCode, details: str) -> NoReturn:
        self._context.abort(grpc.StatusCode[code.name], details)


class GrpcioHealthServicer(health_pb2_grpc.HealthServicer):
    """``health``'s ``Check`` on grpcio's server (what the referee asks); ``Watch`` is grpcio's UNIMPLEMENTED."""

    def __init__(self, health: HealthServicer) -> None:
        self._health = health

    def Check(
        self, request: health_pb2.HealthCheckRequest, context: grpc.ServicerContext
    ) -> health_pb2.HealthCheckResponse:
        return self._health.Check(request, GrpcioContext(context))
