"""The contract end to end: a ``Bot`` behind ``BotServer`` on a unix socket, the referee's ``RemoteBot`` in front.

The server runs in a thread of this process, so the served bot's own record of what it was
told can be compared with what the same bot is told in-process.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from bots_sdk import Action, Bot, Observation, serve
from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk._proto.durak.v1 import bot_pb2_grpc as pb_grpc
from bots_sdk._proto.grpc.health.v1 import health_pb2, health_pb2_grpc
from bots_sdk.bots import make_bot
from bots_sdk.convert import observation_to_pb, rules_to_pb
from bots_sdk.engine import Game, Reason, Rules, SeatInfo
from bots_sdk.faults import BotFault
from bots_sdk.local import play_game
from bots_sdk.remote import Limits, RemoteBot, fault_of
from bots_sdk.server import SDK_VERSION, SERVICE_NAME, BotServer, grpc_target

from .helpers import MinBot, observation_differences

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@dataclasses.dataclass
class Served:
    bot: Bot
    server: BotServer
    remote: RemoteBot
    address: str


@pytest.fixture
def served_factory(tmp_path: Path) -> Iterator[list[Served]]:
    started: list[Served] = []
    yield started
    for item in started:
        item.remote.close()
        item.server.stop(grace=0.2)


def start(
    started: list[Served], tmp_path: Path, bot: Bot, limits: Limits | None = None, stream: bool = True
) -> Served:
    """Serve ``bot``; with ``stream`` the client plays on the Play stream (after hello), else with unary calls."""
    address = str(tmp_path / f"bot{len(started)}.sock")
    server = BotServer(bot, address).start()
    remote = RemoteBot(address, limits or Limits(), label="served", stream=stream)
    item = Served(bot, server, remote, address)
    started.append(item)
    remote.wait_serving(timeout=5)
    if stream:
        remote.hello()
        assert remote.play
    return item


PATHS = pytest.mark.parametrize("stream", [True, False], ids=["stream", "unary"])
"""Run a test on both paths of the contract: the Play stream and the unary calls."""


# ------------------------------------------------------------------ hello and health


def test_wait_serving_and_hello(served_factory: list[Served], tmp_path: Path) -> None:
    item = start(served_factory, tmp_path, MinBot(), stream=False)
    assert item.remote.name == "served"
    assert 0 <= item.remote.wait_serving() < 5
    reply = item.remote.hello()
    assert (reply.name, reply.version, reply.sdk) == ("minbot", "7", f"bots_sdk {SDK_VERSION}")
    assert (item.remote.name, item.remote.version, item.remote.sdk) == ("minbot", "7", f"bots_sdk {SDK_VERSION}")
    assert reply.play and item.remote.play and not item.remote.stream  # offered; this client plays unary


def test_health_check_names_the_services(served_factory: list[Served], tmp_path: Path) -> None:
    item = start(served_factory, tmp_path, MinBot())
    with grpc.insecure_channel(grpc_target(item.address)) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", SERVICE_NAME):
            assert health.Check(health_pb2.HealthCheckRequest(service=service), timeout=2).status == SERVING
        with pytest.raises(grpc.RpcError) as error:
            health.Check(health_pb2.HealthCheckRequest(service="durak.v1.Other"), timeout=2)
        assert error.value.code() is grpc.StatusCode.NOT_FOUND
        stream = health.Watch(health_pb2.HealthCheckRequest(service="durak.v1.Other"), timeout=3)
        assert next(stream).status == health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
        stream.cancel()


def test_health_turns_not_serving_when_stopping_then_the_socket_refuses(tmp_path: Path) -> None:
    address = str(tmp_path / "bot.sock")
    server = BotServer(MinBot(), address).start()
    with grpc.insecure_channel(grpc_target(address)) as channel:
        stream = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=SERVICE_NAME))
        assert next(stream).status == SERVING
        stopping = threading.Thread(target=server.stop, args=(3.0,))
        started = time.perf_counter()
        stopping.start()
        try:
            assert next(stream).status == NOT_SERVING  # sent to a watcher during the grace period
        finally:
            stream.cancel()
            stopping.join(timeout=10)
    assert not stopping.is_alive()
    assert time.perf_counter() - started < 5
    remote = RemoteBot(address, Limits(start_s=0.5, call_s=0.5))
    try:
        with pytest.raises(BotFault) as fault:
            remote.wait_serving()
        assert fault.value.reason is Reason.TIMEOUT
        assert "not SERVING within 0.5 s" in fault.value.detail
        with pytest.raises(BotFault) as fault:
            remote.hello()
        assert fault.value.reason in (Reason.CRASH, Reason.TIMEOUT)
    finally:
        remote.close()


def test_a_stale_socket_file_is_replaced(tmp_path: Path) -> None:
    address = tmp_path / "bot.sock"
    address.write_text("left over by an earlier run")
    server = BotServer(MinBot(), str(address)).start()
    remote = RemoteBot(str(address))
    try:
        remote.wait_serving(timeout=5)
        assert remote.hello().name == "minbot"
    finally:
        remote.close()
        server.stop(0.2)


def test_an_address_it_cannot_listen_on_is_an_os_error(tmp_path: Path) -> None:
    address = str(tmp_path / "no" / "such" / "folder" / "bot.sock")
    with pytest.raises(OSError, match="cannot listen on"):
        BotServer(MinBot(), address)


# ------------------------------------------------------------------ whole games


GAMES = [("classic", 2, 1), ("classic", 3, 2), ("transfer", 2, 3), ("pagat", 2, 4), ("house", 3, 5), ("kawu", 2, 6)]


@PATHS
@pytest.mark.parametrize(("preset", "players", "seed"), GAMES)
def test_a_served_bot_plays_exactly_as_in_process(
    served_factory: list[Served], tmp_path: Path, preset: str, players: int, seed: int, stream: bool
) -> None:
    rules = Rules.preset(preset, players=players)
    served_bot, local_bot = MinBot(), MinBot()
    item = start(served_factory, tmp_path, served_bot, stream=stream)
    item.remote.hello()

    def opponents() -> list[Bot]:
        return [make_bot("random", seed * 10 + i) for i in range(players - 1)]

    remote_game = play_game(rules, [item.remote, *opponents()], seed=seed)
    local_game = play_game(rules, [local_bot, *opponents()], seed=seed)
    outcome = remote_game.game.outcome
    assert outcome is not None
    assert outcome.offender is None, outcome.detail
    assert outcome == local_game.game.outcome
    assert remote_game.game.steps() == local_game.game.steps()
    assert remote_game.seats[0] == local_game.seats[0] == SeatInfo("minbot", "7")

    assert served_bot.started == local_bot.started == [(0, rules)]
    assert len(served_bot.seen) == len(local_bot.seen) > 0
    limits = item.remote.limits
    for step, (remote_view, local_view) in enumerate(zip(served_bot.seen, local_bot.seen)):
        differences = observation_differences(remote_view, local_view, ignore=("time_left", "bank_left"))
        assert not differences, f"decision {step}: {differences}"
        assert local_view.time_left is None and local_view.bank_left is None
        assert remote_view.bank_left == pytest.approx(limits.bank_s, abs=0.01)
        assert remote_view.time_left == pytest.approx(limits.move_s + limits.bank_s, abs=0.01)
    assert len(served_bot.ended) == len(local_bot.ended) == 1
    assert served_bot.ended[0][0] == local_bot.ended[0][0] == outcome


@PATHS
def test_end_game_gets_the_same_final_view_as_in_process(
    served_factory: list[Served], tmp_path: Path, stream: bool
) -> None:
    rules = Rules.preset("classic", players=2)
    served_bot, local_bot = MinBot(), MinBot()
    item = start(served_factory, tmp_path, served_bot, stream=stream)
    play_game(rules, [item.remote, make_bot("random", 1)], seed=11)
    play_game(rules, [local_bot, make_bot("random", 1)], seed=11)
    (_, remote_view), (_, local_view) = served_bot.ended[0], local_bot.ended[0]
    assert local_view.outcome is not None
    assert observation_differences(remote_view, local_view, ignore=("time_left", "bank_left")) == []


@PATHS
def test_several_games_in_a_row_on_one_connection(served_factory: list[Served], tmp_path: Path, stream: bool) -> None:
    bot = MinBot()
    item = start(served_factory, tmp_path, bot, stream=stream)
    rules = Rules.preset("transfer", players=2)
    for seed in range(4):
        outcome = play_game(rules, [make_bot("random", seed), item.remote], seed=seed).game.outcome
        assert outcome is not None and outcome.offender is None
    assert [seat for seat, _ in bot.started] == [1, 1, 1, 1]
    assert len(bot.ended) == 4


# ------------------------------------------------------------------ the clock


class SleepyBot(MinBot):
    """Sleeps ``seconds`` on its 3rd decision."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def choose_action(self, observation: Observation) -> Action:
        if len(self.seen) == 2:
            time.sleep(self.seconds)
        return super().choose_action(observation)


@PATHS
def test_a_slow_move_spends_the_bank(served_factory: list[Served], tmp_path: Path, stream: bool) -> None:
    limits = Limits(move_s=0.2, bank_s=0.6)
    bot = SleepyBot(0.5)
    item = start(served_factory, tmp_path, bot, limits, stream=stream)
    outcome = play_game(Rules.preset("classic", players=2), [item.remote, make_bot("random", 3)], seed=3).game.outcome
    assert outcome is not None and outcome.offender is None, outcome
    assert len(bot.seen) > 3
    spent = 0.5 - limits.move_s
    assert bot.seen[3].bank_left == pytest.approx(limits.bank_s - spent, abs=0.08)
    assert bot.seen[3].time_left == pytest.approx(limits.move_s + limits.bank_s - spent, abs=0.08)
    assert item.remote.bank_left == pytest.approx(limits.bank_s - spent, abs=0.08)


@PATHS
def test_a_move_past_the_limit_and_the_bank_is_a_timeout(
    served_factory: list[Served], tmp_path: Path, stream: bool
) -> None:
    limits = Limits(move_s=0.2, bank_s=0.3)
    item = start(served_factory, tmp_path, SleepyBot(1.0), limits, stream=stream)
    started = time.perf_counter()
    played = play_game(Rules.preset("classic", players=2), [item.remote, make_bot("random", 3)], seed=3)
    outcome = played.game.outcome
    assert outcome is not None
    assert (outcome.reason, outcome.offender, outcome.durak) == (Reason.TIMEOUT, 0, 0)
    assert outcome.detail == "no answer within 0.5 s"
    assert time.perf_counter() - started < 3


def test_on_the_stream_a_timeout_is_at_the_deadline_and_the_next_game_plays(
    served_factory: list[Served], tmp_path: Path
) -> None:
    """The late read is cut at the limit (the socket's timeout), the call cancelled, and the next game connects anew."""
    limits = Limits(move_s=0.1, bank_s=0.1)
    bot = SleepyBot(0.6)
    item = start(served_factory, tmp_path, bot, limits)
    ask = item.remote.choose_action
    waited: list[float] = []

    def timed(observation: Observation) -> Action:
        started = time.perf_counter()
        try:
            return ask(observation)
        finally:
            waited.append(time.perf_counter() - started)

    item.remote.choose_action = timed  # type: ignore[method-assign]
    rules = Rules.preset("classic", players=2)
    outcome = play_game(rules, [item.remote, make_bot("random", 3)], seed=3).game.outcome
    assert outcome is not None and (outcome.reason, outcome.offender) == (Reason.TIMEOUT, 0)
    assert outcome.detail == "no answer within 0.2 s"
    assert 0.2 <= waited[-1] < 0.45, waited[-1]
    bot.seconds = 0.0  # the bot wakes up; the next game is a new stream on a new connection
    time.sleep(0.5)
    outcome = play_game(rules, [item.remote, make_bot("random", 3)], seed=4).game.outcome
    assert outcome is not None and outcome.offender is None, outcome


# ------------------------------------------------------------------ faults: the same in-process and over gRPC


class CrashingBot(Bot):
    name = "crashing"

    def choose_action(self, observation: Observation) -> Action:
        raise ZeroDivisionError("the bot divided by zero")


class WrongTypeBot(Bot):
    name = "wrong_type"

    def choose_action(self, observation: Observation) -> Action:
        return str(observation.legal_actions[0])  # type: ignore[return-value]


class IllegalBot(Bot):
    name = "illegal"

    def choose_action(self, observation: Observation) -> Action:
        return Action.parse("take") if observation.role != "defender" else Action.parse("pass")


class StartCrashBot(MinBot):
    def start_game(self, seat: int, rules: Rules) -> None:
        raise RuntimeError("no game for me")


@pytest.mark.parametrize(
    ("make", "reason", "words"),
    [
        (CrashingBot, Reason.CRASH, "ZeroDivisionError: the bot divided by zero"),
        (IllegalBot, Reason.ILLEGAL, "not a legal action"),
        (StartCrashBot, Reason.CRASH, "RuntimeError: no game for me"),
        (WrongTypeBot, Reason.PROTOCOL, "not an Action"),
    ],
    ids=["crash", "illegal", "start_crash", "wrong_type"],
)
@PATHS
def test_a_fault_is_classified_the_same_in_process_and_over_grpc(
    served_factory: list[Served], tmp_path: Path, make: type[Bot], reason: Reason, words: str, stream: bool
) -> None:
    rules = Rules.preset("classic", players=2)
    item = start(served_factory, tmp_path, make(), stream=stream)
    local = play_game(rules, [make(), make_bot("random", 1)], seed=5).game.outcome
    remote = play_game(rules, [item.remote, make_bot("random", 1)], seed=5).game.outcome
    assert local is not None and remote is not None
    assert (local.reason, local.offender) == (reason, 0), local
    assert words in local.detail
    assert words in remote.detail, remote
    assert (remote.reason, remote.offender) == (local.reason, local.offender), remote


# ------------------------------------------------------------------ the server is strict about what it reads


def test_the_server_rejects_malformed_requests(served_factory: list[Served], tmp_path: Path) -> None:
    item = start(served_factory, tmp_path, MinBot())
    game = Game.new(Rules.preset("classic", players=2), seed=1)
    with grpc.insecure_channel(grpc_target(item.address)) as channel:
        stub = pb_grpc.BotStub(channel)
        with pytest.raises(grpc.RpcError) as error:
            stub.StartGame(pb.StartGameRequest(game_id="g", seat=0, rules=pb.Rules()), timeout=2)
        assert error.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "rules" in (error.value.details() or "")
        stub.StartGame(pb.StartGameRequest(game_id="g", seat=0, rules=rules_to_pb(game.rules)), timeout=2)
        observation = observation_to_pb(game.observation(game.to_act or 0))
        observation.trump = 9  # type: ignore[assignment]
        with pytest.raises(grpc.RpcError) as error:
            stub.Act(pb.ActRequest(game_id="g", observation=observation), timeout=2)
        assert error.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "observation.trump" in (error.value.details() or "")
    fault = fault_of(error.value, 2.0)  # the referee reads INVALID_ARGUMENT as a protocol fault
    assert fault.reason is Reason.PROTOCOL
    assert "INVALID_ARGUMENT" in fault.detail and "observation.trump" in fault.detail


def test_act_without_start_game_still_answers(served_factory: list[Served], tmp_path: Path) -> None:
    item = start(served_factory, tmp_path, MinBot())
    game = Game.new(Rules.preset("transfer", players=3), seed=8)
    seat = game.to_act
    assert seat is not None
    with grpc.insecure_channel(grpc_target(item.address)) as channel:
        reply = pb_grpc.BotStub(channel).Act(
            pb.ActRequest(game_id="never-started", observation=observation_to_pb(game.observation(seat))), timeout=2
        )
    assert reply.action.text == str(min(game.legal_actions(), key=str))


# ------------------------------------------------------------------ serve()


def test_serve_without_an_address_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DURAK_BOT_ADDRESS", raising=False)
    with pytest.raises(SystemExit) as stop:
        serve(MinBot())
    assert "DURAK_BOT_ADDRESS" in str(stop.value.code)


def test_a_bot_script_without_an_address_exits_with_the_message(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(
        "from bots_sdk import Action, Bot, serve\n"
        "class B(Bot):\n"
        "    def choose_action(self, observation):\n"
        "        return observation.legal_actions[0]\n"
        "serve(B())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DURAK_BOT_ADDRESS"}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert "DURAK_BOT_ADDRESS is not set" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_of_the_class_instead_of_an_instance_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"did you pass the class\? use serve\(MyBot\(\)\)"):
        serve(MinBot)  # type: ignore[arg-type]


@pytest.mark.parametrize("signals", [("SIGTERM",), ("SIGINT",)])
def test_a_served_bot_stops_cleanly_on_a_signal(tmp_path: Path, signals: tuple[str, ...]) -> None:
    """``serve()`` runs the server in the bot's main thread, which also handles the signals: SIGTERM or Ctrl-C
    after a game ends it with status 0 and no traceback."""
    address = str(tmp_path / "bot.sock")
    env = {**os.environ, "DURAK_BOT_ADDRESS": f"unix:{address}"}
    bot = subprocess.Popen([sys.executable, "-m", "bots_sdk.bots", "random"], env=env, stderr=subprocess.PIPE,
                           text=True, cwd=tmp_path)
    try:
        remote = RemoteBot(address, Limits(start_s=20))
        remote.wait_serving()
        outcome = play_game(Rules.preset("classic"), [remote, make_bot("random", 1)], seed=3).game.outcome
        assert outcome is not None and outcome.reason is Reason.NORMAL
        remote.close()
        for name in signals:
            bot.send_signal(getattr(signal, name))
        _, errors = bot.communicate(timeout=20)
    finally:
        bot.kill()
    assert bot.returncode == 0, errors
    assert "Traceback" not in errors, errors
