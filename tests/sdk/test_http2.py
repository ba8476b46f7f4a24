"""The referee's HTTP/2 end of the ``Play`` stream (bots_sdk/http2.py) against real servers.

Against grpcio's server (as the SDK's bots and the C++ kit run): messages larger than every
window and frame, both ways; an answer over the size limit; a late answer cancelled on the
bot's side; a server that stops mid-game; a TCP address. Against a raw HTTP/2 peer written
here: a bot that resets the stream or sends GOAWAY, which grpcio's server does not do at will. And the
one-message calls the referee checks health and says Hello with (``unary``): answered by grpcio's server,
refused when a peer answers twice or not at all, timed out when it never ends the call.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from pathlib import Path

import grpc
import hpack
import pytest

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk.bots import RandomBot, make_bot
from bots_sdk.engine import Observation, Outcome, Reason, Rules
from bots_sdk.http2 import Http2Stream, StreamError, StreamTimeout, unary
from bots_sdk.http2_frames import DATA, END_HEADERS, END_STREAM, GOAWAY, HEADERS, RST_STREAM, SETTINGS, frame
from bots_sdk.http2_server import Http2Server
from bots_sdk.local import play_game
from bots_sdk.remote import PLAY_PATH, Limits, RemoteBot
from bots_sdk.server import BotServer, grpc_target

from .test_stream import RawBot, UnaryBot, well

MIB = 1024 * 1024


class EchoSize(UnaryBot):
    """Answers each message with an action text as long as the message's game id (1: late)."""

    def __init__(self) -> None:
        super().__init__(offers=True)
        self.cancelled = threading.Event()

    def Play(self, requests: Iterator[pb.RefereeMessage], context: grpc.ServicerContext) -> Iterator[pb.BotMessage]:
        for message in requests:
            size = len(message.act.game_id)
            if size == 1:  # answer late, watching whether the call is still on
                late = time.monotonic() + 2.0
                while context.is_active() and time.monotonic() < late:
                    time.sleep(0.01)
                if not context.is_active():
                    self.cancelled.set()
            yield pb.BotMessage(act=pb.ActResponse(action=pb.Action(text="x" * size)))


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., tuple[grpc.Server, str]]]:
    servers: list[grpc.Server] = []

    def start(servicer: pb_grpc.BotServicer, address: str = "") -> tuple[grpc.Server, str]:
        address = address or str(tmp_path / f"bot{len(servers)}.sock")
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        pb_grpc.add_BotServicer_to_server(servicer, server)
        port = server.add_insecure_port(grpc_target(address))
        server.start()
        servers.append(server)
        return server, address if not address.endswith(":0") else f"127.0.0.1:{port}"

    yield start
    for server in servers:
        server.stop(0)


def ask(stream: Http2Stream, size: int, seconds: float = 5.0) -> pb.BotMessage:
    deadline = time.monotonic() + seconds
    stream.send(pb.RefereeMessage(act=pb.ActRequest(game_id="g" * size)).SerializeToString(), deadline)
    return pb.BotMessage.FromString(stream.receive(deadline))


def test_messages_larger_than_every_window_and_frame_pass_both_ways(
    serve: Callable[..., tuple[grpc.Server, str]],
) -> None:
    """3 MiB each way, 8 times: past HTTP/2's 64 KiB default windows and 16 KiB frames, and past our 16 MiB
    window, so both sides must give flow-control credit back for the stream to go on."""
    _, address = serve(EchoSize())
    stream = Http2Stream(grpc_target(address), PLAY_PATH, 2.0)
    for size in [3 * MIB] * 8 + [10]:
        assert len(ask(stream, size).act.action.text) == size
    stream.cancel()


def test_an_answer_over_the_size_limit_is_a_protocol_fault(serve: Callable[..., tuple[grpc.Server, str]]) -> None:
    _, address = serve(EchoSize())
    stream = Http2Stream(grpc_target(address), PLAY_PATH, 2.0)
    with pytest.raises(StreamError) as error:
        ask(stream, 5 * MIB)
    assert error.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_late_answer_is_cancelled_on_the_bots_side(serve: Callable[..., tuple[grpc.Server, str]]) -> None:
    servicer = EchoSize()
    _, address = serve(servicer)
    stream = Http2Stream(grpc_target(address), PLAY_PATH, 2.0)
    with pytest.raises(StreamTimeout):
        ask(stream, 1, seconds=0.2)
    assert servicer.cancelled.wait(2.0), "the bot was not told its call was cancelled"


def test_a_bot_served_on_tcp_plays(serve: Callable[..., tuple[grpc.Server, str]]) -> None:
    _, address = serve(RawBot(well), "127.0.0.1:0")
    remote = RemoteBot(address)
    assert remote.hello().play
    outcome = play_game(Rules.preset("classic", players=2), [remote, make_bot("random", 1)], seed=1).game.outcome
    remote.close()
    assert outcome is not None and outcome.offender is None, outcome


def slow(message: pb.RefereeMessage, context: grpc.ServicerContext) -> pb.BotMessage:
    time.sleep(0.3)
    return well(message, context)


def test_a_server_stopped_mid_game_is_a_crash(serve: Callable[..., tuple[grpc.Server, str]]) -> None:
    server, address = serve(RawBot(slow))
    remote = RemoteBot(address, Limits(move_s=2.0))
    remote.hello()
    threading.Timer(0.5, server.stop, (0,)).start()
    outcome = play_game(Rules.preset("classic", players=2), [remote, make_bot("random", 1)], seed=1).game.outcome
    remote.close()
    assert outcome is not None and (outcome.reason, outcome.offender) == (Reason.CRASH, 0), outcome


# ------------------------------------------------------------------ a raw HTTP/2 peer


def raw_peer(tmp_path: Path, answer: bytes) -> str:
    """A unix socket whose peer reads the client's preface and first frames, then writes ``answer`` (none: EOF)."""
    address = str(tmp_path / "raw.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(1)

    def run() -> None:
        connection, _ = listener.accept()
        connection.recv(65536)
        connection.sendall(frame(SETTINGS, 0, 0) + answer)
        if not answer:
            connection.shutdown(socket.SHUT_WR)
        connection.settimeout(0.1)
        until = time.monotonic() + 1.0
        while time.monotonic() < until:  # read what the client sends: unread data would reset the connection
            with contextlib.suppress(TimeoutError):
                connection.recv(65536)
        connection.close()
        listener.close()

    threading.Thread(target=run, daemon=True).start()
    return grpc_target(address)


@pytest.mark.parametrize(("answer", "words"), [
    (frame(RST_STREAM, 0, 1, struct.pack(">I", 2)), "the bot reset the stream"),
    (frame(GOAWAY, 0, 0, struct.pack(">II", 0, 0) + b"leaving"), "the bot went away"),
    (b"", "the bot closed the connection"),
], ids=["rst_stream", "goaway", "eof"])
def test_a_bot_that_resets_or_leaves_ends_the_call(tmp_path: Path, answer: bytes, words: str) -> None:
    stream = Http2Stream(raw_peer(tmp_path, answer), PLAY_PATH, 2.0)
    started = time.monotonic()
    with pytest.raises(StreamError) as error:
        ask(stream, 10, seconds=3.0)
    assert words in error.value.details
    assert time.monotonic() - started < 2.0, "the failure must not wait for the deadline"


TRAILERS = hpack.Encoder().encode([(b":status", b"200"), (b"grpc-status", b"13"), (b"grpc-message", b"\xff\xfe bad")])


@pytest.mark.parametrize(("answer", "words"), [
    (frame(HEADERS, END_HEADERS | END_STREAM, 1, TRAILERS), "\ufffd"),
    (frame(DATA, 0, 1, b"\0" * 20000), "a frame of 20000 bytes"),
    (frame(DATA, 0, 3, b"\0" * 16384) * 1025, "past its flow-control window"),
    (frame(HEADERS, 0, 1, b"") + frame(9, 0, 1, b"\0" * 16384) * 5, "headers over"),
    (frame(GOAWAY, 0, 0, b"\0\0"), "a malformed GOAWAY frame"),
    (frame(RST_STREAM, 0, 1, b"\0"), "a RST_STREAM frame of 1 bytes"),
], ids=["not_utf8", "frame_too_large", "data_on_another_stream", "endless_headers", "short_goaway", "short_reset"])
def test_a_hostile_bot_gets_an_error_not_the_referees_memory_or_an_exception(
    tmp_path: Path, answer: bytes, words: str,
) -> None:
    stream = Http2Stream(raw_peer(tmp_path, answer), PLAY_PATH, 2.0)
    with pytest.raises(StreamError) as error:
        ask(stream, 10, seconds=3.0)
    assert words in error.value.details, error.value.details


HEALTH = "/grpc.health.v1.Health/Check"
OK_HEADERS = hpack.Encoder().encode([(b":status", b"200"), (b"content-type", b"application/grpc")])


def message_frame(payload: bytes) -> bytes:
    return frame(DATA, 0, 1, b"\0" + struct.pack(">I", len(payload)) + payload)


def ok_trailers() -> bytes:
    return hpack.Encoder().encode([(b"grpc-status", b"0")])


def test_a_unary_call_is_answered_by_grpcios_server(serve: Callable[..., tuple[grpc.Server, str]]) -> None:
    """The health check and Hello as the referee makes them (``unary``), to a server as the C++ kit runs one."""
    _, address = serve(EchoSize())
    request = pb.HelloRequest(protocol="durak.v1").SerializeToString()
    reply = pb.HelloResponse.FromString(unary(grpc_target(address), "/durak.v1.Bot/Hello", request, 5.0))
    assert reply.play
    with pytest.raises(StreamError) as error:  # a service the server does not have
        unary(grpc_target(address), HEALTH, b"", 5.0)
    assert error.value.code == grpc.StatusCode.UNIMPLEMENTED


@pytest.mark.parametrize(("answer", "words"), [
    (frame(HEADERS, END_HEADERS, 1, OK_HEADERS) + message_frame(b"\x08\x01") + message_frame(b"\x08\x01")
     + frame(HEADERS, END_HEADERS | END_STREAM, 1, ok_trailers()), "more than one answer to a unary call"),
    (frame(HEADERS, END_HEADERS | END_STREAM, 1, OK_HEADERS + ok_trailers()), "the call ended with no answer"),
], ids=["two_answers", "no_answer"])
def test_a_unary_call_with_not_exactly_one_answer_is_an_error(tmp_path: Path, answer: bytes, words: str) -> None:
    with pytest.raises(StreamError) as error:
        unary(raw_peer(tmp_path, answer), HEALTH, b"", 3.0)
    assert error.value.code == grpc.StatusCode.INTERNAL and words in error.value.details


def test_a_unary_call_nobody_answers_times_out(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(StreamTimeout):
        unary(raw_peer(tmp_path, frame(HEADERS, END_HEADERS, 1, OK_HEADERS)), HEALTH, b"", 0.3)
    assert time.monotonic() - started < 1.0



class Counting(RandomBot):
    """A random bot that counts the games it was told of."""

    def __init__(self) -> None:
        super().__init__(0)
        self.started = self.ended = 0

    def start_game(self, seat: int, rules: Rules) -> None:
        self.started += 1

    def end_game(self, outcome: Outcome, observation: Observation) -> None:
        self.ended += 1


def test_a_bots_games_are_calls_on_one_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The SDK's server (every Python bot's) is connected to once for a run of games: each game is a call of its
    own on the connection the last game ended on (the last call cancelled ahead of the next), and every game ends
    normally with the bot told of its start and end."""
    accepted: list[socket.socket] = []
    accept = Http2Server._accept

    def counted(self: Http2Server, listener: socket.socket) -> None:
        accepted.append(listener)
        accept(self, listener)

    monkeypatch.setattr(Http2Server, "_accept", counted)
    bot = Counting()
    server = BotServer(bot, str(tmp_path / "bot.sock")).start()
    try:
        remote = RemoteBot(server.address)
        remote.wait_serving()
        assert remote.hello().play
        before = len(accepted)
        for seed in range(3):
            outcome = play_game(Rules.preset("classic"), [remote, make_bot("random", seed)], seed=seed).game.outcome
            assert outcome is not None and outcome.reason is Reason.NORMAL, outcome
        remote.close()
    finally:
        server.stop()
    assert len(accepted) - before == 1
    assert bot.started == bot.ended == 3



def test_a_connection_the_bot_closed_between_games_is_replaced_not_a_fault(tmp_path: Path) -> None:
    """A bot's server may close a connection between games (one that closes idle connections, or restarts its
    transport): the next game finds the kept connection gone and starts on a new one, with no fault."""
    server = BotServer(Counting(), str(tmp_path / "bot.sock")).start()
    http2 = server.server

    def drop_connections() -> None:  # in the server's own thread, as its idle timer would
        for connection in list(http2._connections.values()):
            http2._close(connection)

    try:
        remote = RemoteBot(server.address)
        assert remote.hello().play
        for seed in range(3):
            outcome = play_game(Rules.preset("classic"), [remote, make_bot("random", seed)], seed=seed).game.outcome
            assert outcome is not None and outcome.reason is Reason.NORMAL, outcome
            http2.call_soon(drop_connections)
            time.sleep(0.1)
        remote.close()
    finally:
        server.stop()
