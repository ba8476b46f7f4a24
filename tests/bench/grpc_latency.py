"""gRPC latency of the bot contract over a unix socket.

    .venv/bin/python tests/bench/grpc_latency.py [BOT] [--decisions N] [--games G] [--json] [--smoke]

``BOT`` is the bot measured (default ``random``): a reference bot, a bot folder, or a built bot's store
entry (``python -m worker.build`` prints it), in any language.

- ``median_ms`` / ``p99_ms``: one decision on the game's ``Play`` stream (unary calls for a bot that
  does not offer it), referee to bot and back, with a full observation (history included), the bot in
  its own process; ``unary_median_ms`` / ``unary_p99_ms``: the same decisions with the
  unary ``Act`` call (what a bot that does not offer the stream gets); ``grpcio_median_ms`` /
  ``grpcio_p99_ms``: the same decisions on a ``Play`` stream spoken through grpcio's Python API
  (``GrpcioStream``: the referee's transport before ``bots_sdk/http2.py``, the yardstick of
  docs/protocol.md section 10). The paths alternate in rounds against the same process, so load
  on the machine hits them alike.
- ``games_per_s_grpc`` against ``games_per_s_inprocess``: whole two-player games of
  ``random`` vs ``random``, both bots served as processes, against the same games
  in-process; ``overhead_ms_per_decision`` is the difference per decision.
- ``start_ms``: process start to SERVING, per reference bot, or of ``BOT`` (median of 5 starts).
- ``floor_ms``: the median of the smallest call there is (a health check) to the same
  process, in the same run: what gRPC Python itself costs on this machine, the yardstick
  for the decision figures on a noisy shared machine.

Everything runs as a worker's referee plays (worker/referee/cores.py): this process claims a core, and
the bots it starts run on it with it; ``--unpinned`` leaves both to the scheduler (``pinned`` in the JSON
says which).
"""

from __future__ import annotations

import argparse
import json
import math
import queue
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import grpc

from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk.botdir import load_spec
from bots_sdk.bots import REFERENCE_BOTS, make_bot
from bots_sdk.cli.progress import Progress
from bots_sdk.convert import ObservationEncoder, rules_to_pb
from bots_sdk.engine import Action, Game, Observation, Rules
from bots_sdk.local import play_game
from bots_sdk.process import BotProcess
from bots_sdk.remote import PLAY_PATH, RemoteBot, act_request, on_play
from bots_sdk.server import grpc_target
from worker.referee.cores import claim_core


class GrpcioStream:
    """The ``Play`` stream through grpcio's Python API, as the referee spoke it before ``bots_sdk/http2.py``.

    The requests go through a queue that grpcio's request-reader thread drains, the answers
    come back from the channel's poller thread; the same messages as ``RemoteBot`` encodes,
    without its clock and fault handling, which the measured figure does not need (the
    watchdog that cancelled a late answer cost a lock).
    """

    def __init__(self, address: str) -> None:
        self._channel = grpc.insecure_channel(grpc_target(address))
        self._play: grpc.StreamStreamMultiCallable[bytes, pb.BotMessage] = self._channel.stream_stream(
            PLAY_PATH, response_deserializer=pb.BotMessage.FromString)
        self._outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._call: Any = None
        self._game_field = b""
        self._observations = ObservationEncoder()

    def start_game(self, seat: int, rules: Rules) -> None:
        self.close()
        self._outbox = queue.SimpleQueue()
        self._call = self._play(iter(self._outbox.get, None))
        game_id = uuid.uuid4().hex
        self._game_field = pb.ActRequest(game_id=game_id).SerializeToString()
        self._observations = ObservationEncoder()
        start = pb.StartGameRequest(game_id=game_id, seat=seat, rules=rules_to_pb(rules))
        self._ask(pb.RefereeMessage(start=start).SerializeToString())

    def choose_action(self, observation: Observation) -> Action:
        request = act_request(self._game_field, self._observations.encode(observation), 11000, 0)
        return Action.parse(self._ask(on_play(request)).act.action.text)

    def _ask(self, message: bytes) -> pb.BotMessage:
        self._outbox.put(message)
        reply: pb.BotMessage = next(self._call)
        return reply

    def close(self) -> None:
        if self._call is not None:
            self._outbox.put(None)
            self._call.cancel()
            self._call = None


def observations(count: int) -> list[Observation]:
    """Real decisions of random games, spread over whole games (so histories of every length)."""
    rng = random.Random(7)
    found: list[Observation] = []
    seed = 0
    while len(found) < count:
        game = Game.new(Rules.preset("classic", players=2), seed)
        seed += 1
        while not game.is_over():
            seat = game.to_act
            assert seat is not None
            found.append(game.observation(seat))
            game.push(rng.choice(game.legal_actions()))
    return found[:count]


def percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def decision_latency(count: int, bot: str = "random", rounds: int = 10) -> tuple[dict[str, list[float]], float]:
    """Milliseconds per decision on each path (``stream``, ``unary``, ``grpcio``), and the health-check floor."""
    samples = observations(count)
    times: dict[str, list[float]] = {"stream": [], "unary": [], "grpcio": []}
    with BotProcess(load_spec(bot)) as process:
        process.wait_serving()
        unary = RemoteBot(process.address, stream=False)
        for remote in (process.bot, unary):
            remote.hello()
        clients: dict[str, RemoteBot | GrpcioStream] = {"stream": process.bot, "unary": unary}
        if process.bot.play:
            clients["grpcio"] = GrpcioStream(process.address)
        assert bot != "random" or process.bot.play, "the random bot does not offer the Play stream"
        floor = []
        for _ in range(count):
            started = time.perf_counter()
            process.bot.wait_serving()
            floor.append((time.perf_counter() - started) * 1000)
        per_round = max(1, count // rounds)
        with Progress(len(clients) * count, "decisions") as bar:
            for first in range(0, count, per_round):
                for path, client in clients.items():
                    for observation in samples[first:first + per_round]:
                        if observation.bout == 1 and not observation.history:
                            client.start_game(observation.seat, observation.rules)
                        started = time.perf_counter()
                        client.choose_action(observation)
                        times[path].append((time.perf_counter() - started) * 1000)
                        bar.advance()
        for path in ("unary", "grpcio"):
            if path in clients:
                clients[path].close()
    return times, statistics.median(floor)


def game_speed(games: int) -> tuple[float, float, float]:
    rules = Rules.preset("classic", players=2)
    started = time.perf_counter()
    decisions = 0
    for g in range(games):
        decisions += len(play_game(rules, [make_bot("random", 1), make_bot("random", 2)], seed=g).ms)
    local = games / (time.perf_counter() - started)
    local_decisions = decisions
    with BotProcess(load_spec("random")) as one, BotProcess(load_spec("random")) as two:
        for process in (one, two):
            process.wait_serving()
            process.bot.hello()
        started = time.perf_counter()
        decisions = 0
        with Progress(games, "games over gRPC") as bar:
            for g in range(games):
                decisions += len(play_game(rules, [one.bot, two.bot], seed=g).ms)
                bar.advance()
        remote_seconds = time.perf_counter() - started
    remote = games / remote_seconds
    overhead = (remote_seconds / decisions - (games / local) / local_decisions) * 1000
    return remote, local, overhead


def start_times(names: list[str], repeats: int = 5) -> dict[str, float]:
    out = {}
    for name in names:
        waits = []
        for _ in range(repeats):
            with BotProcess(load_spec(name)) as process:
                waits.append(process.wait_serving() * 1000)
        out[name] = statistics.median(waits)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bot", nargs="?", default="random", help="the bot measured (default random)")
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a few of everything: that it runs, in seconds")
    parser.add_argument("--unpinned", action="store_true", help="the referee and its bots on any core")
    args = parser.parse_args()
    if args.smoke:
        args.decisions, args.games = 200, 2
    # A lock directory of its own: a worker on this host keeps its cores.
    pinned = not args.unpinned and claim_core(Path(tempfile.mkdtemp(prefix="durak-bench-cores-"))) is not None
    times, floor = decision_latency(args.decisions, args.bot)
    median, p99 = statistics.median(times["stream"]), percentile(times["stream"], 0.99)
    unary_median, unary_p99 = statistics.median(times["unary"]), percentile(times["unary"], 0.99)
    grpcio = times["grpcio"] or [math.nan]  # empty for a bot without the stream
    grpcio_median, grpcio_p99 = statistics.median(grpcio), percentile(grpcio, 0.99)
    remote, local, overhead = game_speed(args.games)
    measured = [args.bot] if args.bot != "random" or args.smoke else sorted(REFERENCE_BOTS)
    starts = start_times(measured, repeats=1 if args.smoke else 5)
    print(f"{'figure (bot: ' + load_spec(args.bot).name + ')':<34} {'value':>12}")
    print(f"{'decision median, stream (ms)':<34} {median:>12.3f}")
    print(f"{'decision p99, stream (ms)':<34} {p99:>12.3f}")
    print(f"{'decision median, stream/grpcio (ms)':<34} {grpcio_median:>12.3f}")
    print(f"{'decision p99, stream/grpcio (ms)':<34} {grpcio_p99:>12.3f}")
    print(f"{'decision median, unary (ms)':<34} {unary_median:>12.3f}")
    print(f"{'decision p99, unary (ms)':<34} {unary_p99:>12.3f}")
    print(f"{'gRPC floor: health check (ms)':<34} {floor:>12.3f}")
    print(f"{'games/s over gRPC (random x2)':<34} {remote:>12.1f}")
    print(f"{'games/s in-process':<34} {local:>12.1f}")
    print(f"{'overhead per decision (ms)':<34} {overhead:>12.3f}")
    for name, ms in starts.items():
        print(f"{'start to SERVING, ' + load_spec(name).name + ' (ms)':<34} {ms:>12.0f}")
    if args.json:
        print(json.dumps({
            "median_ms": round(median, 3), "p99_ms": round(p99, 3),
            "grpcio_median_ms": round(grpcio_median, 3), "grpcio_p99_ms": round(grpcio_p99, 3),
            "unary_median_ms": round(unary_median, 3), "unary_p99_ms": round(unary_p99, 3), "floor_ms": round(floor, 3),
            "games_per_s_grpc": round(remote, 1),
            "games_per_s_inprocess": round(local, 1), "overhead_ms_per_decision": round(overhead, 3),
            "start_ms": {load_spec(name).name: round(ms) for name, ms in starts.items()},
            "bot": load_spec(args.bot).name, "language": load_spec(args.bot).language, "pinned": pinned,
        }))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
