"""The SDK's one-thread HTTP/2 server (bots_sdk/http2_server.py) against grpcio's client, as the referee and
``durak check`` use it: unary calls, the Play stream, health, what a client gets for an unknown method or a
handler's bug, messages past every flow-control window, and clients that break off mid-call. Against a raw
HTTP/2 peer written here: the hostile input a general HTTP/2 library would have refused for the server (frames
over the size limit, data past the window, stray or endless header blocks), each answered with GOAWAY and the
error, and frames of unknown types, ignored."""

from __future__ import annotations

import contextlib
import socket
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import grpc
import hpack
import pytest

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk._proto.grpc.health.v1 import health_pb2, health_pb2_grpc
from bots_sdk.grpc_wire import prefixed
from bots_sdk.http2_frames import (
    CONTINUATION,
    DATA,
    END_HEADERS,
    END_STREAM,
    FLOW_CONTROL_ERROR,
    FRAME_SIZE_ERROR,
    GOAWAY,
    HEADERS,
    PING,
    PREFACE,
    PROTOCOL_ERROR,
    PUSH_PROMISE,
    REFUSED_STREAM,
    RST_STREAM,
    SETTINGS,
    SETTINGS_INITIAL_WINDOW_SIZE,
    frame,
    read_frame,
)
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


def serving_echo(tmp_path: Path, kind: Literal["unary", "stream"]) -> Iterator[str]:
    target = grpc_target(str(tmp_path / f"{kind}.sock"))
    server = Http2Server({ECHO: Method(kind, pb.ActRequest, echo)}, listen(target)).start()
    yield target
    server.stop(0.2)


@pytest.fixture
def echo_server(tmp_path: Path) -> Iterator[str]:
    yield from serving_echo(tmp_path, "unary")


@pytest.fixture
def stream_server(tmp_path: Path) -> Iterator[str]:
    yield from serving_echo(tmp_path, "stream")


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[BotServer]:
    server = BotServer(MinBot(), str(tmp_path / "bot.sock")).start()
    yield server
    server.stop(0.2)


def call_echo(channel: grpc.Channel) -> grpc.UnaryUnaryMultiCallable[pb.ActRequest, pb.ActResponse]:
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


def test_many_calls_at_once_on_one_connection_and_on_several(echo_server: str) -> None:
    """60 calls under way at once on each of three channels (grpcio multiplexes a channel's calls on one
    connection), each 200 KiB each way, so their frames interleave and share the connection's windows."""
    channels = [grpc.insecure_channel(echo_server, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(3)]
    try:
        calls = [(size, call_echo(channel).future(pb.ActRequest(game_id="g" * size), timeout=20))
                 for size in range(200_000, 200_060) for channel in channels]
        assert all(len(call.result().action.text) == size for size, call in calls)
    finally:
        for channel in channels:
            channel.close()


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


def call_stream(channel: grpc.Channel) -> Callable[..., Iterator[pb.ActResponse]]:
    return channel.stream_stream(
        ECHO, request_serializer=pb.ActRequest.SerializeToString, response_deserializer=pb.ActResponse.FromString,
    )


def test_a_stream_answers_each_request_and_a_handlers_bug_ends_it_unknown(stream_server: str) -> None:
    with grpc.insecure_channel(stream_server) as channel:
        stream = call_stream(channel)
        requests = [pb.ActRequest(game_id="g" * size) for size in (1, 2, 3)]
        assert [len(answer.action.text) for answer in stream(iter(requests), timeout=5)] == [1, 2, 3]
        answers = stream(iter([*requests, pb.ActRequest(game_id="raise"), *requests]), timeout=5)
        assert [len(next(answers).action.text) for _ in requests] == [1, 2, 3]
        with pytest.raises(grpc.RpcError) as error:
            next(answers)
        assert error.value.code() == grpc.StatusCode.UNKNOWN
        assert error.value.details() == "Exception iterating responses: a bug in the handler"


# ------------------------------------------------------------------ a raw HTTP/2 peer

REQUEST_HEADERS = [(":method", "POST"), (":scheme", "http"), (":path", ECHO), (":authority", "x"),
                   ("content-type", "application/grpc"), ("te", "trailers")]
OPENING = PREFACE + frame(SETTINGS, 0, 0)


Frames = list[tuple[int, int, int, bytes]]


def frames_until_closed(sock: socket.socket, stop: Callable[[Frames], bool] = lambda _: False) -> Frames:
    """The server's frames, until it closes the connection (or ``stop`` says so). A server that closes with
    our frames unread resets the connection, once what it wrote is read."""
    sock.settimeout(5)
    data, frames = bytearray(), Frames()
    while not stop(frames):
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
        while (parsed := read_frame(data)) is not None:
            kind, flags, stream, payload, end = parsed
            del data[:end]
            frames.append((kind, flags, stream, payload))
    return frames


def goaway_of(frames: Frames) -> tuple[int, str]:
    (payload,) = [payload for kind, _, _, payload in frames if kind == GOAWAY]
    return int.from_bytes(payload[4:8], "big"), payload[8:].decode()


MESSAGE = prefixed(pb.ActRequest(game_id="g" * 16000).SerializeToString())
HEADER_BLOCK = hpack.Encoder().encode(REQUEST_HEADERS)


@pytest.mark.parametrize(("attack", "code", "words"), [
    ((1 << 20).to_bytes(3, "big") + bytes((DATA, 0)) + struct.pack(">I", 1),
     FRAME_SIZE_ERROR, "a frame of 1048576 bytes, over 16384"),
    (frame(SETTINGS, 0, 0, struct.pack(">HI", SETTINGS_INITIAL_WINDOW_SIZE, 0))
     + frame(HEADERS, END_HEADERS, 1, HEADER_BLOCK) + frame(DATA, 0, 1, MESSAGE) * 1100,
     FLOW_CONTROL_ERROR, "flow-control window"),
    (frame(CONTINUATION, END_HEADERS, 1, HEADER_BLOCK), PROTOCOL_ERROR, "CONTINUATION without HEADERS"),
    (frame(HEADERS, 0, 1, HEADER_BLOCK) + frame(CONTINUATION, 0, 1, b"\0" * 16384) * 1000,
     PROTOCOL_ERROR, "headers over 65536 bytes"),
    (frame(HEADERS, 0, 1, HEADER_BLOCK) + frame(PING, 0, 0, b"\0" * 8), PROTOCOL_ERROR, "inside a header block"),
    (frame(DATA, 0, 7, MESSAGE), PROTOCOL_ERROR, "DATA on stream 7, which was never opened"),
    (frame(PUSH_PROMISE, END_HEADERS, 1, struct.pack(">I", 2) + HEADER_BLOCK), PROTOCOL_ERROR, "may not push"),
], ids=["frame_too_large", "past_the_window", "continuation_without_headers", "endless_headers",
        "interrupted_headers", "data_on_an_unopened_stream", "push"])
def test_a_client_that_breaks_http2_gets_goaway_and_costs_others_nothing(
    stream_server: str, attack: bytes, code: int, words: str,
) -> None:
    """Attack: after a valid preface, a frame announced larger than the 16 KiB we allow (its header alone: we must
    not wait for it), 17 MiB of requests on a stream whose answers the client never lets through (its window 0:
    the server reads no more requests meanwhile, so they fill the 16 MiB window), a stray CONTINUATION, a header
    block of 16 MiB, a header block interrupted, data on a stream never opened, a push. Must happen: GOAWAY with the
    error RFC 9113 names and why, the connection closed, and the server serving a grpcio client on."""
    hostile = socket.socket(socket.AF_UNIX)
    hostile.connect(stream_server[5:])
    with contextlib.suppress(OSError):  # the server may hang up before it has read all
        hostile.sendall(OPENING + attack)
    frames = frames_until_closed(hostile)
    hostile.close()
    said_code, said = goaway_of(frames)
    assert said_code == code and words in said, said
    with grpc.insecure_channel(stream_server) as channel:
        answers = call_stream(channel)(iter([pb.ActRequest(game_id="ok")]), timeout=5)
        assert [answer.action.text for answer in answers] == ["xx"]


def test_unknown_frame_types_are_ignored_and_a_call_past_the_stream_limit_is_refused(echo_server: str) -> None:
    """RFC 9113 section 5.5: a frame of a type the server does not know is ignored, wherever it comes (here
    between a request's headers and data, and on the connection). Section 5.1.2: a stream past the 100 the
    server allows at once is refused (RST_STREAM REFUSED_STREAM) and the connection serves on."""
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(echo_server[5:])
    encoder, decoder = hpack.Encoder(), hpack.Decoder()
    block = encoder.encode(REQUEST_HEADERS)
    opened = b"".join(frame(HEADERS, END_HEADERS, stream, encoder.encode(REQUEST_HEADERS))
                      for stream in range(3, 205, 2))
    sock.sendall(OPENING + frame(0xFA, 0, 0, b"unknown") + frame(HEADERS, END_HEADERS, 1, block)
                 + frame(0xFB, 0x3F, 1, b"x" * 100)
                 + frame(DATA, END_STREAM, 1, prefixed(pb.ActRequest(game_id="abc").SerializeToString()))
                 + opened)
    frames = frames_until_closed(sock, lambda got: any(kind == RST_STREAM for kind, *_ in got))
    sock.close()
    answer = [payload for kind, _, stream, payload in frames if kind == DATA and stream == 1]
    assert [pb.ActResponse.FromString(payload[5:]).action.text for payload in answer] == ["xxx"]
    blocks = [decoder.decode(payload, raw=True) for kind, _, stream, payload in frames
              if kind == HEADERS and stream == 1]
    assert dict(blocks[-1])[b"grpc-status"] == b"0"
    refused = [(stream, int.from_bytes(payload, "big")) for kind, _, stream, payload in frames if kind == RST_STREAM]
    assert refused == [(203, REFUSED_STREAM)]  # stream 1 is answered; 3 to 201 are the 100 open at once
