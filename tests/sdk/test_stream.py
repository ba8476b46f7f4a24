"""The ``Play`` stream from the referee's side: what a bot that breaks it gets, and bots without it.

The bots here are servicers written against the generated stubs (as a bot in another
language would be), served in this process on a unix socket; the referee is the real
``RemoteBot`` driven by ``play_game``. Faults of SDK bots over the stream (crash, wrong
type, illegal, timeout) are in test_serve.py, and through real processes in test_check.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk.bots import make_bot
from bots_sdk.engine import Reason, Rules
from bots_sdk.grpcio_servicers import GrpcioContext
from bots_sdk.local import play_game
from bots_sdk.remote import Limits, RemoteBot
from bots_sdk.server import BotServicer, grpc_target

from .helpers import MinBot

Answer = Callable[[pb.RefereeMessage, grpc.ServicerContext], "pb.BotMessage | None"]
"""How a raw bot answers one referee message; None ends its side of the stream."""


class UnaryBot(pb_grpc.BotServicer):
    """A bot of the unary calls only (MinBot's play), as bots written before the stream are; ``offers`` in Hello."""

    def __init__(self, offers: bool = False) -> None:
        self._sdk = BotServicer(MinBot())
        self._offers = offers

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloResponse:
        return pb.HelloResponse(name="raw", version="1", sdk="raw stubs", play=self._offers)

    def StartGame(self, request: pb.StartGameRequest, context: grpc.ServicerContext) -> pb.StartGameResponse:
        return self._sdk.StartGame(request, GrpcioContext(context))

    def Act(self, request: pb.ActRequest, context: grpc.ServicerContext) -> pb.ActResponse:
        return self._sdk.Act(request, GrpcioContext(context))

    def EndGame(self, request: pb.EndGameRequest, context: grpc.ServicerContext) -> pb.EndGameResponse:
        return self._sdk.EndGame(request, GrpcioContext(context))


class RawBot(UnaryBot):
    """Offers the stream and answers each of its messages with ``answer``."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(offers=True)
        self._answer = answer

    def Play(self, requests: Iterator[pb.RefereeMessage], context: grpc.ServicerContext) -> Iterator[pb.BotMessage]:
        for message in requests:
            answer = self._answer(message, context)
            if answer is None:
                return
            yield answer


def well(message: pb.RefereeMessage, context: grpc.ServicerContext) -> pb.BotMessage:
    """A correct answer: the least legal action, as MinBot."""
    kind = message.WhichOneof("message")
    if kind == "act":
        legal = min(message.act.observation.legal_actions, key=lambda action: action.text)
        return pb.BotMessage(act=pb.ActResponse(action=legal))
    if kind == "start":
        return pb.BotMessage(started=pb.StartGameResponse())
    return pb.BotMessage(ended=pb.EndGameResponse())


def on_act(broken: Answer) -> Answer:
    """Well-behaved, except for decisions, which ``broken`` answers."""
    return lambda message, context: broken(message, context) if message.HasField("act") else well(message, context)


def crash(message: pb.RefereeMessage, context: grpc.ServicerContext) -> pb.BotMessage:
    raise RuntimeError("the bot's stream handler failed")


def refuse(message: pb.RefereeMessage, context: grpc.ServicerContext) -> pb.BotMessage:
    context.abort(grpc.StatusCode.INVALID_ARGUMENT, "cannot read that observation")
    raise AssertionError("abort returns never")


@pytest.fixture
def serve_raw(tmp_path: Path) -> Iterator[Callable[[UnaryBot], RemoteBot]]:
    servers: list[grpc.Server] = []
    clients: list[RemoteBot] = []

    def start(bot: UnaryBot) -> RemoteBot:
        address = str(tmp_path / f"raw{len(servers)}.sock")
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        pb_grpc.add_BotServicer_to_server(bot, server)
        server.add_insecure_port(grpc_target(address))
        server.start()
        servers.append(server)
        client = RemoteBot(address, Limits(call_s=1.0, move_s=0.5, bank_s=0.5))
        clients.append(client)
        client.hello()
        return client

    yield start
    for client in clients:
        client.close()
    for server in servers:
        server.stop(0)


BROKEN: list[tuple[str, Answer, Reason, str]] = [
    ("wrong_answer", on_act(lambda m, c: pb.BotMessage(started=pb.StartGameResponse())), Reason.PROTOCOL,
     "the bot answered 'started' where 'act' was due"),
    ("nothing_set", on_act(lambda m, c: pb.BotMessage()), Reason.PROTOCOL, "the bot answered None where 'act' was due"),
    ("empty_action", on_act(lambda m, c: pb.BotMessage(act=pb.ActResponse())), Reason.PROTOCOL,
     "empty answer: ActResponse.action is not set"),
    ("kind99", on_act(lambda m, c: pb.BotMessage(act=pb.ActResponse(action=pb.Action(kind=99)))),  # type: ignore[arg-type]
     Reason.PROTOCOL, "malformed action: action.kind: 99 is not an ActionKind value"),
    ("garbage_text", on_act(lambda m, c: pb.BotMessage(act=pb.ActResponse(action=pb.Action(text="fold")))),
     Reason.PROTOCOL, "malformed action"),
    ("ends_stream", on_act(lambda m, c: None), Reason.PROTOCOL, "the bot ended the stream instead of answering 'act'"),
    ("refuses", on_act(refuse), Reason.PROTOCOL, "bot answered INVALID_ARGUMENT: cannot read that observation"),
    ("crashes", on_act(crash), Reason.CRASH, "bot error"),
    ("illegal", on_act(lambda m, c: pb.BotMessage(act=pb.ActResponse(action=pb.Action(text="attack AS")))),
     Reason.ILLEGAL, "attack AS"),
    ("start_crashes", crash, Reason.CRASH, "bot error"),
]


@pytest.mark.parametrize(("answer", "reason", "words"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_a_broken_stream_answer_is_the_fault_unary_would_record(
    serve_raw: Callable[[UnaryBot], RemoteBot], answer: Answer, reason: Reason, words: str
) -> None:
    remote = serve_raw(RawBot(answer))
    assert remote.play
    outcome = play_game(Rules.preset("classic", players=2), [make_bot("random", 1), remote], seed=2).game.outcome
    assert outcome is not None
    assert (outcome.reason, outcome.offender, outcome.durak) == (reason, 1, 1), outcome
    assert words in outcome.detail, outcome.detail
    # The bot outlives the broken stream: the next game is a new stream.
    following = play_game(Rules.preset("classic", players=2), [make_bot("random", 1), remote], seed=3).game.outcome
    assert following is not None and following.offender == 1


def test_a_well_behaved_raw_stream_bot_plays_as_minbot(serve_raw: Callable[[UnaryBot], RemoteBot]) -> None:
    rules = Rules.preset("transfer", players=3)
    remote = serve_raw(RawBot(well))
    played = play_game(rules, [make_bot("random", 1), remote, make_bot("random", 2)], seed=4)
    local = play_game(rules, [make_bot("random", 1), MinBot(), make_bot("random", 2)], seed=4)
    assert played.game.outcome is not None and played.game.outcome.offender is None, played.game.outcome
    assert played.game.steps() == local.game.steps()


def test_a_bot_with_only_the_unary_calls_still_plays(serve_raw: Callable[[UnaryBot], RemoteBot]) -> None:
    rules = Rules.preset("classic", players=2)
    remote = serve_raw(UnaryBot())  # type: ignore[abstract]  # no Play, as the bots before it
    assert not remote.play
    played = play_game(rules, [remote, make_bot("random", 1)], seed=5)
    local = play_game(rules, [MinBot(), make_bot("random", 1)], seed=5)
    assert played.game.outcome == local.game.outcome and played.game.outcome is not None
    assert played.game.outcome.offender is None
    assert played.game.steps() == local.game.steps()


def test_a_bot_that_offers_the_stream_without_serving_it_is_a_protocol_fault(
    serve_raw: Callable[[UnaryBot], RemoteBot],
) -> None:
    remote = serve_raw(UnaryBot(offers=True))  # type: ignore[abstract]  # says it plays, has no Play
    outcome = play_game(Rules.preset("classic", players=2), [remote, make_bot("random", 1)], seed=6).game.outcome
    assert outcome is not None
    assert (outcome.reason, outcome.offender) == (Reason.PROTOCOL, 0), outcome
    assert "UNIMPLEMENTED" in outcome.detail


def test_the_sdk_servicer_behind_grpcios_server_aborts_with_grpcs_codes(tmp_path: Path) -> None:
    """``GrpcioContext``: the SDK's servicer aborts with our status codes (bots_sdk/status.py); behind grpcio's
    server the client must still get the code and the details, not an UNKNOWN from grpcio or a hung call."""
    address = str(tmp_path / "unary.sock")
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
    pb_grpc.add_BotServicer_to_server(UnaryBot(), server)  # type: ignore[abstract]  # no Play, as the bots before it
    server.add_insecure_port(grpc_target(address))
    server.start()
    try:
        with grpc.insecure_channel(grpc_target(address)) as channel, pytest.raises(grpc.RpcError) as error:
            pb_grpc.BotStub(channel).StartGame(pb.StartGameRequest(game_id="g", rules=pb.Rules()), timeout=5)
    finally:
        server.stop(0)
    assert error.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "rules" in (error.value.details() or "")
