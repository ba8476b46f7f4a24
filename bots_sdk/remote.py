"""The referee's side of the contract: a bot in another process, used like a local ``Bot``.

``RemoteBot`` is a ``Bot`` whose ``choose_action`` asks the served bot over gRPC
under the arena's clock: a per-move limit plus a per-game time bank (as Kaggle
and poker dealers do). Every way a bot can fail becomes a ``BotFault`` with the
reason of the game record (timeout, crash, protocol), so one game driver
(``bots_sdk.local.play_game``) serves in-process and remote bots alike.

A bot that offers it in Hello plays each game on one ``Play`` stream (one call
set up per game instead of per decision); the others are played with the unary
calls. Both paths keep the same clock and classify faults the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import time
import uuid
from collections.abc import Callable

import grpc
from google.protobuf.message import DecodeError

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.grpc.health.v1 import health_pb2
from bots_sdk.bot import Bot
from bots_sdk.convert import ObservationEncoder, action_from_pb, encoded_field, outcome_to_pb, rules_to_pb
from bots_sdk.engine import Action, DurakError, Observation, Outcome, Reason, Rules
from bots_sdk.faults import BotFault
from bots_sdk.http2 import Http2Stream, StreamEnded, StreamError, StreamTimeout, unary
from bots_sdk.server import SDK_VERSION, SERVICE_NAME, grpc_target


@dataclasses.dataclass(frozen=True)
class Limits:
    """The arena's deadlines; ``durak check`` plays under exactly these."""

    start_s: float = 10.0
    """From process start to SERVING."""
    call_s: float = 2.0
    """For Hello, StartGame and EndGame."""
    move_s: float = 1.0
    """Per decision, before the bank is touched."""
    bank_s: float = 10.0
    """Per game: time a bot may spend beyond its per-move limits, in all."""


ARENA_LIMITS = Limits()
PLAY_PATH = "/durak.v1.Bot/Play"
HELLO_PATH = "/durak.v1.Bot/Hello"
START_GAME_PATH = "/durak.v1.Bot/StartGame"
ACT_PATH = "/durak.v1.Bot/Act"
END_GAME_PATH = "/durak.v1.Bot/EndGame"
HEALTH_PATH = "/grpc.health.v1.Health/Check"


def fault_of(error: grpc.RpcError, limit_s: float) -> BotFault:
    return fault_of_status(error.code(), error.details() or "", limit_s)


def fault_of_status(code: grpc.StatusCode, details: str, limit_s: float) -> BotFault:
    """The fault a call that ended with ``code`` is, on either transport."""
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return BotFault(Reason.TIMEOUT, f"no answer within {limit_s:.1f} s")
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
        return BotFault(Reason.CRASH, f"bot unreachable ({code.name.lower()}): {details}")
    if code in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN):
        return BotFault(Reason.CRASH, f"bot error: {details}")
    return BotFault(Reason.PROTOCOL, f"bot answered {code.name}: {details}")


UNREAD_MAX = 64 * 1024
"""The largest request written to a frozen bot (``RemoteBot.on_sent``): less than a unix socket holds unread, so
writing it never waits for the bot. A larger one is written after ``on_sent``."""

_ACT_OBSERVATION = pb.ActRequest.DESCRIPTOR.fields_by_name["observation"].number
_END_OBSERVATION = pb.EndGameRequest.DESCRIPTOR.fields_by_name["observation"].number
_ACT = pb.RefereeMessage.DESCRIPTOR.fields_by_name["act"].number
_END = pb.RefereeMessage.DESCRIPTOR.fields_by_name["end"].number
"""Field numbers of the messages the referee puts around an encoded observation (bots_sdk/convert.py)."""


def act_request(game_field: bytes, observation: bytes, move_ms: int, bank_ms: int) -> bytes:
    """A decision's ``ActRequest``, encoded: ``game_field`` (its ``game_id``, encoded), ``observation`` (as an
    ``ObservationEncoder`` encodes it) and the clock; ``on_play`` puts it on the ``Play`` stream."""
    return b"".join([game_field, encoded_field(_ACT_OBSERVATION, observation),
                     pb.ActRequest(clock=pb.Clock(move_ms=move_ms, bank_ms=bank_ms)).SerializeToString()])


def on_play(request: bytes) -> bytes:
    """The ``RefereeMessage`` of an encoded ``ActRequest`` (``act_request``)."""
    return encoded_field(_ACT, request)


CALL_ERRORS = (StreamTimeout, StreamError, DecodeError, OSError)
"""How a call on our own HTTP/2 (bots_sdk/http2.py) fails, short of the bot ending it (``StreamEnded``)."""


def fault_of_call(error: Exception, limit_s: float) -> BotFault:
    """The fault a call on our own HTTP/2 ended with (one of ``CALL_ERRORS``), as ``fault_of`` for grpcio's."""
    if isinstance(error, StreamTimeout | TimeoutError):
        return BotFault(Reason.TIMEOUT, f"no answer within {limit_s:.1f} s")
    if isinstance(error, StreamError):
        return fault_of_status(error.code, error.details, limit_s)
    if isinstance(error, DecodeError):  # as grpcio reports an answer it cannot parse
        return fault_of_status(grpc.StatusCode.INTERNAL, "Exception deserializing response!", limit_s)
    if isinstance(error, OSError):
        return BotFault(Reason.CRASH, f"bot unreachable (unavailable): {error.strerror or error}")
    raise TypeError(f"not a call's failure: {error!r}")


class _Stale(Exception):
    """A connection kept from the last game was found closed: the call is made again on a new one."""


class _GameStream:
    """One game's ``Play`` stream: each referee message is sent, then its answer read under a deadline.

    Spoken by ``Http2Stream`` in the calling thread (the deadline is the socket's
    timeout), on the connection of the bot's last game where that game ended well
    (``kept``), else a new one: a stream broken by a fault, or a late answer's, is
    cancelled and its connection closed, and the next game connects anew.
    """

    def __init__(self, target: str, connect_s: float, kept: Http2Stream | None = None) -> None:
        if kept is not None and kept.next_call(PLAY_PATH):
            self._call = kept
        else:
            if kept is not None:
                kept.close()
            try:
                self._call = Http2Stream(target, PLAY_PATH, connect_s)
            except TimeoutError:
                raise BotFault(Reason.TIMEOUT, f"no connection within {connect_s:.1f} s") from None
            except OSError as error:
                raise fault_of_call(error, connect_s) from None
        self.open = True

    def ask(
        self, data: bytes, answer: str, limit_s: float, sent: Callable[[], None] | None = None, stale: bool = False,
    ) -> pb.BotMessage:
        """Send the encoded ``RefereeMessage`` ``data`` and read the bot's ``answer`` (a ``BotMessage`` field) within
        ``limit_s``; ``sent`` is called in between (``RemoteBot.on_sent``), or before a message too large to be
        written unread.

        With ``stale`` (the first message on a connection kept from the last game), a connection found closed
        or going away raises ``_Stale`` instead of a fault: a bot's server may close an idle connection."""
        deadline = time.monotonic() + limit_s
        if sent is not None and len(data) > UNREAD_MAX:
            sent()
            sent = None
        try:
            self._call.send(data, deadline)
            if sent is not None:
                sent()
            reply = pb.BotMessage.FromString(self._call.receive(deadline))
        except StreamEnded:
            self.close()
            raise BotFault(Reason.PROTOCOL, f"the bot ended the stream instead of answering {answer!r}") from None
        except CALL_ERRORS as error:
            self.close()
            if stale and isinstance(error, StreamError) and error.code == grpc.StatusCode.UNAVAILABLE:
                raise _Stale from None
            raise fault_of_call(error, limit_s) from None
        if reply.WhichOneof("message") != answer:
            self.close()
            raise BotFault(
                Reason.PROTOCOL, f"the bot answered {reply.WhichOneof('message')!r} where {answer!r} was due"
            )
        return reply

    def close(self) -> None:
        """End the referee's side: the stream is cancelled, if the bot still holds it open."""
        if self.open:
            self.open = False
            self._call.cancel()

    def finished(self) -> Http2Stream:
        """The game is over with every answer in: its connection, for the next game's stream."""
        self.open = False
        self._call.finish()
        return self._call


class RemoteBot(Bot):
    """A served bot at ``address``, with the clock of ``limits``.

    With ``stream`` (the default) games are played on a ``Play`` stream when the
    bot offers it; without, with the unary calls. It is read at each game's start,
    so ``durak check`` switches paths between games.
    """

    def __init__(
        self, address: str, limits: Limits = ARENA_LIMITS, label: str = "remote", stream: bool = True
    ) -> None:
        self.address = address
        self.limits = limits
        self.stream = stream
        self.name = label  # type: ignore[misc]  # replaced by the bot's own name after hello()
        self.version = ""  # type: ignore[misc]
        self.sdk = ""
        self._target = grpc_target(address)
        self._game_id = ""
        self._game_field = b""
        """``ActRequest.game_id``, encoded."""
        self._observations = ObservationEncoder()
        """This game's observations (its history encoded once)."""
        self.play = False
        """Whether the bot offered the ``Play`` stream in Hello."""
        self._stream: _GameStream | None = None
        self._connection: Http2Stream | None = None
        """The last game's connection, once that game ended well: the next game's stream is opened on it."""
        self.bank_left = limits.bank_s
        self.last_ms = 0.0
        self.on_sent: Callable[[], None] | None = None
        """Called at every call once its request is written, before its answer is awaited (over grpcio's unary
        calls: just before the call). The referee thaws a frozen bot here (worker/referee/turns.py): the bot then
        wakes once, to a request that is already there, instead of once for the thaw and again for the request.
        It may be called twice for one call, so it must be idempotent."""

    # -------------------------------------------------------------- lifecycle

    def wait_serving(self, timeout: float | None = None) -> float:
        """Wait until the health service says SERVING; returns the seconds waited.

        Asked again after 0.2 ms, then after twice as long each time up to 2 ms: the sandbox hands the bot over
        when its socket appears, at its ``bind``, which its ``listen`` follows at once."""
        timeout = self.limits.start_s if timeout is None else timeout
        started = time.perf_counter()
        deadline = started + timeout
        last = "no answer"
        pause = 0.0002
        request = health_pb2.HealthCheckRequest(service=SERVICE_NAME).SerializeToString()
        while time.perf_counter() < deadline:
            try:
                answer = unary(self._target, HEALTH_PATH, request, max(0.05, min(1.0, deadline - time.perf_counter())))
                reply = health_pb2.HealthCheckResponse.FromString(answer)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return time.perf_counter() - started
                last = f"health says {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}"
            except StreamError as error:
                last = f"{error.code.name}: {error.details}"
            except (StreamTimeout, TimeoutError):
                last = "DEADLINE_EXCEEDED: no answer to the health check"
            except DecodeError:
                last = "INTERNAL: the health check's answer is not a HealthCheckResponse"
            except OSError as error:  # not listening yet (a bot started outside a sandbox), or gone
                last = f"UNAVAILABLE: {error.strerror or error}"
            time.sleep(pause)
            pause = min(0.002, pause * 2)
        raise BotFault(Reason.TIMEOUT, f"not SERVING within {timeout:.1f} s ({last})")

    def hello(self) -> pb.HelloResponse:
        """Ask the bot who it is and whether it plays on the ``Play`` stream (over our own HTTP/2, as the health
        check: grpcio's channel is made only for a bot that plays with the unary calls)."""
        limit = self.limits.call_s
        request = pb.HelloRequest(protocol="durak.v1", referee_version=f"bots_sdk {SDK_VERSION}")
        try:
            reply = pb.HelloResponse.FromString(unary(self._target, HELLO_PATH, request.SerializeToString(), limit))
        except CALL_ERRORS as error:
            raise fault_of_call(error, limit) from None
        self.name = reply.name or self.name  # type: ignore[misc]
        self.version = reply.version  # type: ignore[misc]
        self.sdk = reply.sdk
        self.play = reply.play
        return reply

    @functools.cached_property
    def _channel(self) -> grpc.Channel:
        """grpcio's channel, for the unary game calls of a bot that does not offer the ``Play`` stream."""
        return grpc.insecure_channel(self._target)

    @functools.cached_property
    def _start_call(self) -> grpc.UnaryUnaryMultiCallable[pb.StartGameRequest, pb.StartGameResponse]:
        return self._channel.unary_unary(START_GAME_PATH, request_serializer=pb.StartGameRequest.SerializeToString,
                                         response_deserializer=pb.StartGameResponse.FromString)

    @functools.cached_property
    def _act_call(self) -> grpc.UnaryUnaryMultiCallable[bytes, pb.ActResponse]:
        """``Act``, whose request is sent as it was encoded."""
        return self._channel.unary_unary(ACT_PATH, response_deserializer=pb.ActResponse.FromString)

    @functools.cached_property
    def _end_call(self) -> grpc.UnaryUnaryMultiCallable[bytes, pb.EndGameResponse]:
        """``EndGame``, whose request is sent as it was encoded."""
        return self._channel.unary_unary(END_GAME_PATH, response_deserializer=pb.EndGameResponse.FromString)

    def _sending(self) -> None:
        if self.on_sent is not None:
            self.on_sent()

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if "_channel" in self.__dict__:
            self._channel.close()

    # -------------------------------------------------------------- the Bot interface

    def start_game(self, seat: int, rules: Rules) -> None:
        self._game_id = uuid.uuid4().hex
        self._game_field = pb.ActRequest(game_id=self._game_id).SerializeToString()
        self._observations = ObservationEncoder()
        self.bank_left = self.limits.bank_s
        start = pb.StartGameRequest(game_id=self._game_id, seat=seat, rules=rules_to_pb(rules))
        if self._stream is not None:
            self._stream.close()  # the last game's, if it ended without end_game
            self._stream = None
        if self.play and self.stream:
            message = pb.RefereeMessage(start=start).SerializeToString()
            kept, self._connection = self._connection, None
            if kept is not None:
                try:
                    self._stream = _GameStream(self._target, self.limits.call_s, kept)
                    self._stream.ask(message, "started", self.limits.call_s, self.on_sent, stale=True)
                    return
                except _Stale:  # the last game's connection was closed meanwhile: a new one, as for a first game
                    pass
            self._stream = _GameStream(self._target, self.limits.call_s)
            self._stream.ask(message, "started", self.limits.call_s, self.on_sent)
            return
        self._sending()
        try:
            self._start_call(start, timeout=self.limits.call_s)
        except grpc.RpcError as error:
            raise fault_of(error, self.limits.call_s) from None

    def choose_action(self, observation: Observation) -> Action:
        """Ask the bot, under the per-move limit plus what is left of the bank.

        The request is encoded from its parts (bots_sdk/convert.py), the history added since the last decision
        only: what the referee builds stays incremental.
        """
        limit = self.limits.move_s + self.bank_left
        request = act_request(self._game_field, self._observations.encode(observation), int(limit * 1000),
                              int(self.bank_left * 1000))
        started = time.perf_counter()
        if self._stream is not None:
            reply = self._stream.ask(on_play(request), "act", limit, self.on_sent).act
        else:
            self._sending()
            try:
                reply = self._act_call(request, timeout=limit)
            except grpc.RpcError as error:
                raise fault_of(error, limit) from None
        elapsed = time.perf_counter() - started
        self.last_ms = elapsed * 1000
        self.bank_left = max(0.0, self.bank_left - max(0.0, elapsed - self.limits.move_s))
        if not reply.HasField("action"):
            raise BotFault(Reason.PROTOCOL, "empty answer: ActResponse.action is not set")
        try:
            return action_from_pb(reply.action)
        except DurakError as error:
            raise BotFault(Reason.PROTOCOL, f"malformed action: {error}") from None

    def end_game(self, outcome: Outcome, observation: Observation) -> None:
        """Tell the bot how the game ended, with its final view: encoded as the game's decisions were (the history
        added since the last one only); no later game builds on them."""
        observations, self._observations = self._observations, ObservationEncoder()
        end = pb.EndGameRequest(game_id=self._game_id, outcome=outcome_to_pb(outcome)).SerializeToString() \
            + encoded_field(_END_OBSERVATION, observations.encode(observation))
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                if stream.open:  # a stream broken by a fault has nobody left to tell
                    stream.ask(encoded_field(_END, end), "ended", self.limits.call_s, self.on_sent)
                    self._connection = stream.finished()
            finally:
                stream.close()
            return
        self._sending()
        try:
            self._end_call(end, timeout=self.limits.call_s)
        except grpc.RpcError as error:
            raise fault_of(error, self.limits.call_s) from None
