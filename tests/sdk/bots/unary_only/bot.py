"""A bot of the unary calls only, as bots written before the Play stream are: it plays as ``gentle``.

It is written against the generated stubs (no ``serve``), with no ``Play`` and Hello's ``play``
unset, so the referee must play it with StartGame, Act and EndGame.
"""

from __future__ import annotations

import os
import signal
import threading
from concurrent import futures

import grpc

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk._proto.grpc.health.v1 import health_pb2, health_pb2_grpc
from bots_sdk.bots import make_bot
from bots_sdk.grpcio_servicers import GrpcioContext, GrpcioHealthServicer
from bots_sdk.server import BotServicer, HealthServicer, grpc_target


class UnaryOnly(pb_grpc.BotServicer):
    def __init__(self) -> None:
        self._sdk = BotServicer(make_bot("gentle", 1))

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloResponse:
        return pb.HelloResponse(name="unary_only", version="1", sdk="raw grpc stubs")

    def StartGame(self, request: pb.StartGameRequest, context: grpc.ServicerContext) -> pb.StartGameResponse:
        return self._sdk.StartGame(request, GrpcioContext(context))

    def Act(self, request: pb.ActRequest, context: grpc.ServicerContext) -> pb.ActResponse:
        return self._sdk.Act(request, GrpcioContext(context))

    def EndGame(self, request: pb.EndGameRequest, context: grpc.ServicerContext) -> pb.EndGameResponse:
        return self._sdk.EndGame(request, GrpcioContext(context))


def main() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    pb_grpc.add_BotServicer_to_server(UnaryOnly(), server)  # type: ignore[abstract]  # unary calls only
    health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(GrpcioHealthServicer(health), server)  # type: ignore[abstract]  # Check only
    server.add_insecure_port(grpc_target(os.environ["DURAK_BOT_ADDRESS"]))
    server.start()
    health.set(health_pb2.HealthCheckResponse.SERVING)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.set())
    stopping.wait()
    server.stop(0.5).wait()


if __name__ == "__main__":
    main()
