"""The referee's side of the contract: a bot in another process, used like a local ``Bot``.

``RemoteBot`` is a ``Bot`` whose ``choose_action`` asks the served bot over gRPC
under the arena's clock: a per-move limit plus a per-game time bank (as Kaggle
and poker dealers do). Every way a bot can fail becomes a ``BotFault`` with the
reason of the game record (timeout, crash, protocol), so one game driver
(``bots_sdk.local.play_game``) serves in-process and remote bots alike.
"""

from __future__ import annotations

import dataclasses
import time
import uuid

import grpc

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk._proto.grpc.health.v1 import health_pb2, health_pb2_grpc
from bots_sdk.bot import Bot
from bots_sdk.convert import action_from_pb, observation_to_pb, outcome_to_pb, rules_to_pb
from bots_sdk.engine import Action, DurakError, Observation, Outcome, Reason, Rules
from bots_sdk.faults import BotFault
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


def fault_of(error: grpc.RpcError, limit_s: float) -> BotFault:
    code = error.code()
    details = error.details() or ""
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return BotFault(Reason.TIMEOUT, f"no answer within {limit_s:.1f} s")
    if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
        return BotFault(Reason.CRASH, f"bot unreachable ({code.name.lower()}): {details}")
    if code in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN):
        return BotFault(Reason.CRASH, f"bot error: {details}")
    return BotFault(Reason.PROTOCOL, f"bot answered {code.name}: {details}")


class RemoteBot(Bot):
    """A served bot at ``address``, with the clock of ``limits``."""

    def __init__(self, address: str, limits: Limits = ARENA_LIMITS, label: str = "remote") -> None:
        self.address = address
        self.limits = limits
        self.name = label  # type: ignore[misc]  # replaced by the bot's own name after hello()
        self.version = ""  # type: ignore[misc]
        self.sdk = ""
        # Short reconnect backoff: the bot's socket appears a moment after its process starts, and
        # gRPC's default first backoff (1 s) would count against the bot's start time.
        self._channel = grpc.insecure_channel(grpc_target(address), options=[
            ("grpc.initial_reconnect_backoff_ms", 10),
            ("grpc.min_reconnect_backoff_ms", 10),
            ("grpc.max_reconnect_backoff_ms", 100),
        ])
        self._stub = pb_grpc.BotStub(self._channel)
        self._health = health_pb2_grpc.HealthStub(self._channel)
        self._game_id = ""
        self._request = pb.ActRequest()
        self.bank_left = limits.bank_s
        self.last_ms = 0.0

    # -------------------------------------------------------------- lifecycle

    def wait_serving(self, timeout: float | None = None) -> float:
        """Wait until the health service says SERVING; returns the seconds waited."""
        timeout = self.limits.start_s if timeout is None else timeout
        started = time.perf_counter()
        deadline = started + timeout
        last = "no answer"
        while time.perf_counter() < deadline:
            try:
                reply = self._health.Check(
                    health_pb2.HealthCheckRequest(service=SERVICE_NAME),
                    timeout=max(0.05, min(1.0, deadline - time.perf_counter())), wait_for_ready=True,
                )
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return time.perf_counter() - started
                last = f"health says {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}"
            except grpc.RpcError as error:
                last = f"{error.code().name}: {error.details()}"
            time.sleep(0.01)
        raise BotFault(Reason.TIMEOUT, f"not SERVING within {timeout:.1f} s ({last})")

    def hello(self) -> pb.HelloResponse:
        try:
            reply: pb.HelloResponse = self._stub.Hello(
                pb.HelloRequest(protocol="durak.v1", referee_version=f"bots_sdk {SDK_VERSION}"),
                timeout=self.limits.call_s,
            )
        except grpc.RpcError as error:
            raise fault_of(error, self.limits.call_s) from None
        self.name = reply.name or self.name  # type: ignore[misc]
        self.version = reply.version  # type: ignore[misc]
        self.sdk = reply.sdk
        return reply

    def close(self) -> None:
        self._channel.close()

    # -------------------------------------------------------------- the Bot interface

    def start_game(self, seat: int, rules: Rules) -> None:
        self._game_id = uuid.uuid4().hex
        self._request = pb.ActRequest(game_id=self._game_id)
        self.bank_left = self.limits.bank_s
        try:
            self._stub.StartGame(
                pb.StartGameRequest(game_id=self._game_id, seat=seat, rules=rules_to_pb(rules)),
                timeout=self.limits.call_s,
            )
        except grpc.RpcError as error:
            raise fault_of(error, self.limits.call_s) from None

    def choose_action(self, observation: Observation) -> Action:
        """Ask the bot, under the per-move limit plus what is left of the bank."""
        limit = self.limits.move_s + self.bank_left
        request = self._request
        observation_to_pb(observation, request.observation)
        request.clock.move_ms = int(limit * 1000)
        request.clock.bank_ms = int(self.bank_left * 1000)
        started = time.perf_counter()
        try:
            reply: pb.ActResponse = self._stub.Act(request, timeout=limit)
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
        try:
            self._stub.EndGame(
                pb.EndGameRequest(
                    game_id=self._game_id, outcome=outcome_to_pb(outcome),
                    observation=observation_to_pb(observation),
                ),
                timeout=self.limits.call_s,
            )
        except grpc.RpcError as error:
            raise fault_of(error, self.limits.call_s) from None
