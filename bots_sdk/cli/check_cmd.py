"""``durak check BOT``: play a bot exactly as the arena will, and report every violation.

The bot runs as its own process over gRPC under the arena's deadlines
(``bots_sdk.remote.ARENA_LIMITS``) and plays a fixed set of deals against the
reference bots across the presets. Each violation (slow start, health not
serving, timeout, crash, illegal or malformed action) is reported with the
preset, seed and trace step to reproduce it, and the game's record is kept so
``durak replay FILE --trace`` shows the moment. Exit 0: no violation.

A bot that offers the ``Play`` stream in Hello is checked on both paths, as the
arena may use either: the even-numbered games on the stream, the odd-numbered ones
with the unary calls. A bot that does not offer it plays every game with the unary calls.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from pathlib import Path
from typing import Any

from bots_sdk.bot import Bot
from bots_sdk.botdir import load_spec
from bots_sdk.bots import make_bot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import Rules
from bots_sdk.faults import BotFault
from bots_sdk.local import play_game
from bots_sdk.process import BotProcess


@dataclasses.dataclass(frozen=True)
class CheckGame:
    preset: str
    opponents: tuple[str, ...]
    seed: str


_GROUPS = [  # preset, opponents, games
    ("classic", ("random",), 4),
    ("classic", ("gentle",), 4),
    ("classic", ("gentle", "random"), 2),
    ("transfer", ("random", "gentle"), 2),
    ("kawu", ("gentle",), 2),
    ("table", ("random", "random", "gentle", "random"), 2),
    ("house", ("random", "gentle"), 2),
    ("pagat", ("random", "gentle", "random"), 2),
    ("pagat-pairs", ("gentle", "random", "gentle"), 2),
    ("pagat-trios", ("random", "gentle", "random", "gentle", "random"), 1),
]
CHECK_GAMES = tuple(
    CheckGame(preset, opponents, f"check-{index}")
    for index, (preset, opponents) in enumerate(
        (preset, opponents) for preset, opponents, count in _GROUPS for _ in range(count)
    )
)
"""The fixed deals of a check: every preset (partnerships too), 2 to 6 players, the bot in a different seat
each time."""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "check", help="play a bot as the arena does and report every violation",
        description="Start BOT as its own process over gRPC, play fixed deals against the reference bots "
        "under the arena's deadlines, and report every violation with the seed and step. Exit 0: clean.",
    )
    parser.add_argument("bot", metavar="BOT", help="a bot folder (or a reference bot name)")
    parser.add_argument("--records", type=Path, default=Path("durak-check"),
                        help="where to keep the records of faulty games (default ./durak-check)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    spec = load_spec(args.bot)
    violations: list[str] = []
    latencies: list[float] = []
    process = BotProcess(spec)
    try:
        try:
            started = process.wait_serving()
            print(f"{spec.name}: SERVING after {started * 1000:.0f} ms")
            hello = process.bot.hello()
            print(f"{spec.name}: hello from {hello.name!r} version {hello.version!r} ({hello.sdk or 'no sdk named'})")
            print(f"{spec.name}: " + (
                "offers the Play stream: games alternate between the stream and the unary calls" if hello.play
                else "does not offer the Play stream: every game with the unary calls"
            ))
        except BotFault as fault:
            print(f"VIOLATION start: {fault.detail}\n{process.log_tail()}", file=sys.stderr)
            return 1
        with Progress(len(CHECK_GAMES), "check") as bar:
            for index, check in enumerate(CHECK_GAMES):
                process = _play_one(process, spec, index, check, args.records, violations, latencies)
                bar.advance()
        if not process.alive():
            violations.append("after the games: the bot process has exited")
        else:
            try:
                process.bot.wait_serving(timeout=2.0)
            except BotFault as fault:
                violations.append(f"after the games: health not SERVING ({fault.detail})")
    finally:
        process.stop()
    if latencies:
        ordered = sorted(latencies)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(f"{len(latencies)} decisions: median {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms,"
              f" max {ordered[-1]:.1f} ms (limit {process.bot.limits.move_s * 1000:.0f} ms a move"
              f" + {process.bot.limits.bank_s:.0f} s bank a game)")
    for line in violations:
        print(f"VIOLATION {line}")
    print(f"{spec.name}: {'FAILED' if violations else 'passed'} {len(CHECK_GAMES)} games"
          f" with {len(violations)} violation(s)")
    return 1 if violations else 0


def _play_one(
    process: BotProcess, spec: Any, index: int, check: CheckGame, records: Path,
    violations: list[str], latencies: list[float],
) -> BotProcess:
    """Play one check game; returns the process to use next (a fresh one after a fault)."""
    players = len(check.opponents) + 1
    rules = Rules.preset(check.preset, players=players)
    seat = index % players
    process.bot.stream = index % 2 == 0  # used only if the bot offers the stream
    opponents: list[Bot] = [make_bot(name, seed=index) for name in check.opponents]
    bots: list[Bot] = [*opponents[:seat], process.bot, *opponents[seat:]]
    played = play_game(rules, bots, seed=check.seed)
    outcome = played.game.outcome
    assert outcome is not None
    latencies.extend(ms for s, ms in zip((s for s, _ in played.game.decisions()), played.ms) if s == seat)
    if outcome.offender != seat:
        return process
    records.mkdir(parents=True, exist_ok=True)
    path = records / f"{spec.name}-{check.seed}.json"
    played.record().write(path)
    step = len(played.game.steps())
    violations.append(
        f"{outcome.reason.value}: {outcome.detail} (preset {check.preset}, {players} players, seed {check.seed!r},"
        f" seat {seat}, trace step {step}; replay: durak replay {path} --trace)"
    )
    if outcome.reason.value in ("timeout", "crash"):
        tail = process.log_tail(8)
        if tail:
            violations.append(f"bot output before that fault:\n{tail}")
        process.stop()
        process = BotProcess(spec)
        process.wait_serving()
        process.bot.hello()
    return process
