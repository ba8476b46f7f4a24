"""``serve(bot)``: run a ``Bot`` as the gRPC service of the contract (proto/durak/v1/bot.proto).

The server listens on ``DURAK_BOT_ADDRESS`` (a unix socket path, or host:port),
reports SERVING on the standard health service once it is ready, answers one
call at a time in one thread (bots_sdk/http2_server.py, not grpcio's server),
reads the referee's messages through the view of bots_sdk/wire_view.py,
and stops cleanly on SIGTERM or SIGINT. An exception in the
bot becomes an INTERNAL error whose details carry the exception, so the referee
records a crash with the reason and the author sees the traceback on stderr.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
import threading
import traceback
from typing import Any

from bots_sdk import wire_view as view
from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.grpc.health.v1 import health_pb2
from bots_sdk.bot import Bot
from bots_sdk.convert import (
    ProtocolError,
    action_to_pb,
    events_from_pb,
    observation_from_pb,
    outcome_from_pb,
    rules_from_pb,
)
from bots_sdk.engine import Action, DurakError, Rules
from bots_sdk.engine.history import HistoryEntry
from bots_sdk.http2_server import Aborting, Http2Server, Method, listen
from bots_sdk.status import StatusCode

ADDRESS_VARIABLE = "DURAK_BOT_ADDRESS"
SDK_VERSION = "0.1.0"
SERVICE_NAME = "durak.v1.Bot"
HEALTH_SERVICE = "grpc.health.v1.Health"


def grpc_target(address: str) -> str:
    """A gRPC target for a DURAK_BOT_ADDRESS value: ``unix:`` for a socket path, else host:port as is.

    >>> grpc_target("/run/bot/seat0.sock"), grpc_target("127.0.0.1:50051")
    ('unix:/run/bot/seat0.sock', '127.0.0.1:50051')
    """
    if address.startswith("unix:"):
        return address
    if "/" in address or address.endswith(".sock") or ":" not in address:
        return f"unix:{os.path.abspath(address)}"
    return address


class _Game:
    """What the server keeps of one game: its rules and the history read so far (it only grows)."""

    def __init__(self, seat: int, rules: Rules) -> None:
        self.seat = seat
        self.rules = rules
        self.history: list[HistoryEntry] = []

    def read_history(self, observation: pb.Observation) -> list[HistoryEntry]:
        """The game's history up to ``observation``: only the events not read before are converted."""
        self.history.extend(events_from_pb(observation.history[len(self.history):]))
        return self.history


class BotServicer:
    """Adapts a ``Bot`` to the service; calls are serialised, as the contract promises one at a time.

    Not grpcio's generated servicer: a served bot never imports grpc (bots_sdk/status.py);
    bots_sdk/grpcio_servicers.py hands it grpcio's calls.
    """

    def __init__(self, bot: Bot) -> None:
        self._bot = bot
        self._lock = threading.Lock()
        self._games: dict[str, _Game] = {}
        self._answer = pb.BotMessage()

    def Hello(self, request: pb.HelloRequest, context: Aborting) -> pb.HelloResponse:
        return pb.HelloResponse(
            name=self._bot.name, version=str(self._bot.version), sdk=f"bots_sdk {SDK_VERSION}", play=True
        )

    def StartGame(self, request: pb.StartGameRequest, context: Aborting) -> pb.StartGameResponse:
        with self._lock:
            return self._start(request, context)

    def Act(self, request: pb.ActRequest, context: Aborting) -> pb.ActResponse:
        with self._lock:
            return pb.ActResponse(action=self._act(request, context))

    def EndGame(self, request: pb.EndGameRequest, context: Aborting) -> pb.EndGameResponse:
        with self._lock:
            return self._end(request, context)

    def answer(self, message: pb.RefereeMessage, context: Aborting) -> pb.BotMessage:
        """The answer to one message of a ``Play`` stream: each answered in order, as the unary calls would be.

        The answer to a decision is one message kept and refilled (the server serialises
        it before it reads the next), not built anew per decision.
        """
        kind = message.WhichOneof("message")
        if kind not in ("act", "start", "end"):
            context.abort(StatusCode.INVALID_ARGUMENT, "RefereeMessage: none of start, act, end is set")
        with self._lock:
            if kind == "act":
                self._answer.act.action.CopyFrom(self._act(message.act, context))
                return self._answer
            if kind == "start":
                return pb.BotMessage(started=self._start(message.start, context))
            return pb.BotMessage(ended=self._end(message.end, context))

    def _start(self, request: pb.StartGameRequest, context: Aborting) -> pb.StartGameResponse:
        try:
            rules = rules_from_pb(request.rules)
        except DurakError as error:
            context.abort(StatusCode.INVALID_ARGUMENT, f"rules: {error}")
        self._games[request.game_id] = _Game(request.seat, rules)
        self._call(context, self._bot.start_game, request.seat, rules)
        return pb.StartGameResponse()

    def _act(self, request: pb.ActRequest, context: Aborting) -> pb.Action:
        game = self._games.get(request.game_id)
        if game is None:  # a referee that skipped StartGame: still answer, from the message alone
            rules = rules_from_pb(request.observation.rules)
            game = self._games[request.game_id] = _Game(request.observation.seat, rules)
        try:
            observation = observation_from_pb(
                request.observation, game.rules, game.read_history(request.observation),
                time_left=request.clock.move_ms / 1000, bank_left=request.clock.bank_ms / 1000,
            )
        except ProtocolError as error:
            context.abort(StatusCode.INVALID_ARGUMENT, str(error))
        action = self._call(context, self._bot.choose_action, observation)
        if not isinstance(action, Action):  # the contract broken, not a crash: PROTOCOL for the referee
            context.abort(
                StatusCode.FAILED_PRECONDITION,
                f"choose_action returned {action!r}, not an Action (use Action.parse('attack 6S'))",
            )
        return action_to_pb(action)

    def _end(self, request: pb.EndGameRequest, context: Aborting) -> pb.EndGameResponse:
        game = self._games.pop(request.game_id, None)
        try:
            outcome = outcome_from_pb(request.outcome)
            history = game.read_history(request.observation) if game else events_from_pb(request.observation.history)
            observation = observation_from_pb(request.observation, game.rules if game else None, history)
        except ProtocolError as error:
            context.abort(StatusCode.INVALID_ARGUMENT, str(error))
        self._call(context, self._bot.end_game, outcome, dataclasses.replace(observation, outcome=outcome))
        return pb.EndGameResponse()

    @staticmethod
    def _call(context: Aborting, method: Any, *args: Any) -> Any:
        try:
            return method(*args)
        except BaseException as error:  # the bot's bug (sys.exit too): report it to the referee and the author
            traceback.print_exc(file=sys.stderr)
            context.abort(StatusCode.INTERNAL, f"{type(error).__name__}: {error}")


class HealthServicer:
    """The standard health service: SERVING once the bot is ready, NOT_SERVING while stopping."""

    def __init__(self) -> None:
        self._status = health_pb2.HealthCheckResponse.NOT_SERVING

    def set(self, status: int) -> None:
        """Say ``status`` from now on (the server tells its watchers: ``BotServer._set``)."""
        self._status = status  # type: ignore[assignment]

    def _status_of(self, service: str) -> int:
        if service in ("", SERVICE_NAME):
            return self._status
        return health_pb2.HealthCheckResponse.SERVICE_UNKNOWN

    def status(self, request: health_pb2.HealthCheckRequest, context: Aborting) -> health_pb2.HealthCheckResponse:
        """What a ``Watch`` of ``request`` says now."""
        return health_pb2.HealthCheckResponse(status=self._status_of(request.service))  # type: ignore[arg-type]

    def Check(
        self, request: health_pb2.HealthCheckRequest, context: Aborting
    ) -> health_pb2.HealthCheckResponse:
        if request.service not in ("", SERVICE_NAME):
            context.abort(StatusCode.NOT_FOUND, f"unknown service {request.service!r}")
        return health_pb2.HealthCheckResponse(status=self._status)


class BotServer:
    """A started server; ``serve`` runs one until a signal, tests and ``durak`` use it directly.

    ``server`` answers in one thread (``bots_sdk/http2_server.py``): ``run`` serves in the calling thread (what
    ``serve`` does), ``start`` in a thread of its own; both say SERVING.
    """

    def __init__(self, bot: Bot, address: str) -> None:
        self.address = address
        self.health = HealthServicer()
        bot_servicer = BotServicer(bot)
        health = self.health
        methods = {
            f"/{SERVICE_NAME}/Hello": Method("unary", pb.HelloRequest, bot_servicer.Hello),
            f"/{SERVICE_NAME}/StartGame": Method("unary", pb.StartGameRequest, bot_servicer.StartGame),
            f"/{SERVICE_NAME}/Act": Method("unary", view.ActRequest, bot_servicer.Act),
            f"/{SERVICE_NAME}/EndGame": Method("unary", view.EndGameRequest, bot_servicer.EndGame),
            f"/{SERVICE_NAME}/Play": Method("stream", view.RefereeMessage, bot_servicer.answer),
            f"/{HEALTH_SERVICE}/Check": Method("unary", health_pb2.HealthCheckRequest, health.Check),
            f"/{HEALTH_SERVICE}/Watch": Method("watch", health_pb2.HealthCheckRequest, health.status),
        }
        target = grpc_target(address)
        if target.startswith("unix:") and os.path.exists(target[5:]):
            os.unlink(target[5:])  # a stale socket of an earlier run
        try:
            listeners = listen(target)
        except OSError as error:
            raise OSError(f"cannot listen on {address!r}: {error}") from None
        self.server = Http2Server(methods, listeners)

    def start(self) -> BotServer:
        """Serve in a thread of its own, SERVING from now on."""
        self.server.start()
        self._set(health_pb2.HealthCheckResponse.SERVING)
        return self

    def run(self) -> None:
        """Serve in the calling thread, SERVING from now on, until ``request_stop`` has run its course."""
        self._set(health_pb2.HealthCheckResponse.SERVING)
        self.server.run()

    def stop(self, grace: float = 1.0) -> None:
        self._set(health_pb2.HealthCheckResponse.NOT_SERVING)
        self.server.stop(grace)

    def request_stop(self, grace: float = 1.0) -> None:
        """``stop`` for ``run``, from its own thread (a signal handler): NOT_SERVING, then the calls under way end
        within ``grace`` s and ``run`` returns."""
        self._set(health_pb2.HealthCheckResponse.NOT_SERVING)
        self.server.request_stop(grace)

    def _set(self, status: int) -> None:
        self.health.set(status)
        self.server.call_soon(self.server.changed)


def serve(bot: Bot, address: str | None = None) -> None:
    """Serve ``bot`` on ``address`` (default: ``$DURAK_BOT_ADDRESS``) until SIGTERM or SIGINT."""
    if not isinstance(bot, Bot):
        raise TypeError(f"serve() needs a Bot instance, got {bot!r} (did you pass the class? use serve(MyBot()))")
    address = address or os.environ.get(ADDRESS_VARIABLE)
    if not address:
        raise SystemExit(
            f"{ADDRESS_VARIABLE} is not set: it is the address to listen on (a unix socket path or host:port)."
            " The arena and `durak play --grpc` / `durak check` set it; to try by hand run `durak serve BOT`."
        )
    server = BotServer(bot, address)

    def stop(signum: int, frame: object) -> None:
        server.request_stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"{bot.name} {bot.version} serving on {address}", file=sys.stderr, flush=True)
    server.run()
