"""The SDK's one-thread HTTP/2 server (bots_sdk/http2_server.py) against grpcio's client, as the referee and
``durak check`` use it: unary calls, the Play stream, health, what a client gets for an unknown method or a
handler's bug, messages past every flow-control window, and clients that break off mid-call."""

from __future__ import annotations

import socket
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import hpack
import pytest

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk._proto.grpc.health.v1 import health_pb2, health_pb2_grpc
from bots_sdk.http2 import DATA, END_HEADERS, HEADERS, PREFACE, SETTINGS, frame
from bots_sdk.http2_server import Context, Http2Server, Method, listen
from bots_sdk.server import BotServer, grpc_target
from bots_sdk.status import StatusCode

from .helpers import MinBot

MIB = 1 << 20
ECHO = "/test.Echo/Echo"
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def echo(request: pb.ActRequest, context: Context) -> pb.ActResponse:
    """Answers with a text as long as the request's game id; "raise" is a handler's bug, "abort" an abort."""
    if request.game_id == "raise":
        raise ValueError("a bug in the handler")
    if request.game_id == "abort":
        context.abort(StatusCode.FAILED_PRECONDITION, "aborted: 100% on purpose,\n\tünïcode")
    return pb.ActResponse(action=pb.Action(text="x" * len(request.game_id)))


@pytest.fixture
def echo_server(tmp_path: Path) -> Iterator[str]:
    target = grpc_target(str(tmp_path / "echo.sock"))
    server = Http2Server({ECHO: Method("unary", pb.ActRequest, echo)}, listen(target)).start()
    yield target
    server.stop(0.2)


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[BotServer]:
    server = BotServer(MinBot(), str(tmp_path / "bot.sock")).start()
    yield server
    server.stop(0.2)


def call_echo(channel: grpc.Channel) -> Callable[..., pb.ActResponse]:
    return channel.unary_unary(
        ECHO, request_serializer=pb.ActRequest.SerializeToString, response_deserializer=pb.ActResponse.FromString,
    )


def test_unary_calls_and_the_play_stream_answer_a_grpcio_client(bot_server: BotServer) -> None:
    with grpc.insecure_channel(grpc_target(bot_server.address)) as channel:
        stub = pb_grpc.BotStub(channel)
        assert stub.Hello(pb.HelloRequest(), timeout=5).play
        health = health_pb2_grpc.HealthStub(channel)
        assert health.Check(health_pb2.HealthCheckRequest(), timeout=5).status == SERVING
        with pytest.raises(grpc.RpcError) as error:
            health.Check(health_pb2.HealthCheckRequest(service="nope"), timeout=5)
        assert error.value.code() == grpc.StatusCode.NOT_FOUND
        answers = stub.Play(iter([]), timeout=5)
        assert list(answers) == []  # the client closes its side at once: the call ends OK with no answer
        empty = stub.Play(iter([pb.RefereeMessage()]), timeout=5)
        with pytest.raises(grpc.RpcError) as error:
            list(empty)
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_an_unknown_method_is_unimplemented(bot_server: BotServer) -> None:
    with grpc.insecure_channel(grpc_target(bot_server.address)) as channel:
        nope = channel.unary_unary("/durak.v1.Bot/Nope", request_serializer=bytes, response_deserializer=bytes)
        with pytest.raises(grpc.RpcError) as error:
            nope(b"", timeout=5)
        assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED
        assert pb_grpc.BotStub(channel).Hello(pb.HelloRequest(), timeout=5).name  # the connection serves on


def test_a_handlers_bug_is_unknown_and_an_abort_keeps_its_code_and_details(echo_server: str) -> None:
    with grpc.insecure_channel(echo_server) as channel:
        call = call_echo(channel)
        with pytest.raises(grpc.RpcError) as error:
            call(pb.ActRequest(game_id="raise"), timeout=5)
        assert error.value.code() == grpc.StatusCode.UNKNOWN
        assert error.value.details() == "Exception calling application: a bug in the handler"
        with pytest.raises(grpc.RpcError) as error:
            call(pb.ActRequest(game_id="abort"), timeout=5)
        assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error.value.details() == "aborted: 100% on purpose,\n\tünïcode"
        assert call(pb.ActRequest(game_id="ok"), timeout=5).action.text == "xx"


def test_messages_past_every_window_pass_both_ways(echo_server: str) -> None:
    """3 MiB each way, 8 times on one connection: past HTTP/2's 64 KiB windows and 16 KiB frames and past the
    server's 16 MiB window, so both sides must give flow-control credit back."""
    with grpc.insecure_channel(echo_server, options=[("grpc.max_receive_message_length", 8 * MIB)]) as channel:
        call = call_echo(channel)
        for _ in range(8):
            assert len(call(pb.ActRequest(game_id="g" * 3 * MIB), timeout=10).action.text) == 3 * MIB


def test_a_request_over_4_mib_is_resource_exhausted(echo_server: str) -> None:
    with grpc.insecure_channel(echo_server) as channel:
        with pytest.raises(grpc.RpcError) as error:
            call_echo(channel)(pb.ActRequest(game_id="g" * 5 * MIB), timeout=10)
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert call_echo(channel)(pb.ActRequest(game_id="ok"), timeout=5).action.text == "xx"


def test_a_client_gone_mid_call_or_silent_leaves_the_server_serving_others(echo_server: str) -> None:
    """Attack: one client opens a call and sends half a message, then hangs up; another does the same and stays
    connected, silent; a third speaks no HTTP/2 at all. Must happen: a grpcio client is answered all along."""
    half = struct.pack(">BI", 0, 1000) + b"g" * 10
    headers = hpack.Encoder().encode([(":method", "POST"), (":scheme", "http"), (":path", ECHO),
                                      (":authority", "x"), ("content-type", "application/grpc"), ("te", "trailers")])
    opening = PREFACE + frame(SETTINGS, 0, 0) + frame(HEADERS, END_HEADERS, 1, headers) + frame(DATA, 0, 1, half)
    gone, silent, garbage = (socket.socket(socket.AF_UNIX) for _ in range(3))
    with grpc.insecure_channel(echo_server) as channel:
        call = call_echo(channel)
        for sock in (gone, silent, garbage):
            sock.connect(echo_server[5:])
        gone.sendall(opening)
        silent.sendall(opening)
        garbage.sendall(b"GET / HTTP/1.1\r\n\r\n" * 100)
        gone.close()
        for _ in range(20):
            assert call(pb.ActRequest(game_id="ok"), timeout=5).action.text == "xx"
        garbage.settimeout(5)
        while garbage.recv(4096):  # the server hangs up on what is not HTTP/2
            pass
    silent.close()
    garbage.close()


def test_a_deadline_in_grpc_timeout_is_read_and_answered_within(echo_server: str) -> None:
    with grpc.insecure_channel(echo_server) as channel:
        assert call_echo(channel)(pb.ActRequest(game_id="ok"), timeout=0.5).action.text == "xx"


def test_watch_says_serving_then_not_serving_and_ends_when_the_server_stops(tmp_path: Path) -> None:
    server = BotServer(MinBot(), str(tmp_path / "bot.sock")).start()
    with grpc.insecure_channel(grpc_target(server.address)) as channel:
        watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(), timeout=10)
        assert next(watch).status == SERVING
        server.stop(grace=5)
        assert [answer.status for answer in watch] == [NOT_SERVING]


def test_a_tcp_address_is_served_on_every_address_of_the_host() -> None:
    listeners = listen("localhost:0")
    port = listeners[0].getsockname()[1]
    assert {sock.getsockname()[1] for sock in listeners} == {port}
    server = Http2Server({ECHO: Method("unary", pb.ActRequest, echo)}, listeners).start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            assert call_echo(channel)(pb.ActRequest(game_id="ok"), timeout=5).action.text == "xx"
    finally:
        server.stop(0.2)


def test_a_stream_answers_each_request_and_a_handlers_bug_ends_it_unknown(tmp_path: Path) -> None:
    target = grpc_target(str(tmp_path / "stream.sock"))
    server = Http2Server({ECHO: Method("stream", pb.ActRequest, echo)}, listen(target)).start()
    try:
        with grpc.insecure_channel(target) as channel:
            stream = channel.stream_stream(ECHO, request_serializer=pb.ActRequest.SerializeToString,
                                           response_deserializer=pb.ActResponse.FromString)
            requests = [pb.ActRequest(game_id="g" * size) for size in (1, 2, 3)]
            assert [len(answer.action.text) for answer in stream(iter(requests), timeout=5)] == [1, 2, 3]
            answers = stream(iter([*requests, pb.ActRequest(game_id="raise"), *requests]), timeout=5)
            assert [len(next(answers).action.text) for _ in requests] == [1, 2, 3]
            with pytest.raises(grpc.RpcError) as error:
                next(answers)
            assert error.value.code() == grpc.StatusCode.UNKNOWN
            assert error.value.details() == "Exception iterating responses: a bug in the handler"
    finally:
        server.stop(0.2)
