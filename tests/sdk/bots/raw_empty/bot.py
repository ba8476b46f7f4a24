"""A bot written against the generated stubs alone (no bots_sdk.Bot): it answers Act with an empty ActResponse."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from concurrent import futures

import grpc

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk._proto.grpc.health.v1 import health_pb2, health_pb2_grpc


class Health(health_pb2_grpc.HealthServicer):
    def Check(
        self, request: health_pb2.HealthCheckRequest, context: grpc.ServicerContext
    ) -> health_pb2.HealthCheckResponse:
        return health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)

    def Watch(
        self, request: health_pb2.HealthCheckRequest, context: grpc.ServicerContext
    ) -> Iterator[health_pb2.HealthCheckResponse]:
        yield health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)


class RawBot(pb_grpc.BotServicer):
    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloResponse:
        return pb.HelloResponse(name="raw_empty", version="1", sdk="raw grpc stubs")

    def StartGame(self, request: pb.StartGameRequest, context: grpc.ServicerContext) -> pb.StartGameResponse:
        return pb.StartGameResponse()

    def Act(self, request: pb.ActRequest, context: grpc.ServicerContext) -> pb.ActResponse:
        return pb.ActResponse()  # no action at all

    def EndGame(self, request: pb.EndGameRequest, context: grpc.ServicerContext) -> pb.EndGameResponse:
        return pb.EndGameResponse()


def main() -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    pb_grpc.add_BotServicer_to_server(RawBot(), server)  # type: ignore[abstract]  # unary calls only
    health_pb2_grpc.add_HealthServicer_to_server(Health(), server)
    server.add_insecure_port("unix:" + os.path.abspath(os.environ["DURAK_BOT_ADDRESS"]))
    server.start()
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stopping.set())
    stopping.wait()
    server.stop(0.5).wait()


if __name__ == "__main__":
    main()
