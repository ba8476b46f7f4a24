"""``durak play BOT BOT [...]``: a local match between bot folders and reference bots.

In-process by default (fast, tracebacks visible); ``--grpc`` runs every bot as
its own served process over a unix socket, exactly as the arena talks to it.
A ``command`` bot (any language) always runs as a process.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import zlib
from pathlib import Path
from typing import Any

from bots_sdk.bot import Bot
from bots_sdk.botdir import load_bot, load_spec
from bots_sdk.cli.match_report import play_and_report
from bots_sdk.engine import PRESETS
from bots_sdk.match import table_rules


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play", help="play bots (folders or reference names) against each other",
        description="Play a local match; seats rotate every game. BOT is a bot folder (with bot.toml) or a "
        "reference bot: random, gentle, strong.",
    )
    parser.add_argument("bots", nargs="+", metavar="BOT",
                        help="one per seat (2 to 6), or under a team preset one per team")
    parser.add_argument("--preset", default="classic", choices=PRESETS)
    parser.add_argument("--players", type=int,
                        help="table size (default: the number of bots, or under a team preset the table with that"
                        " many teams)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="0", help="seed of the deals; the same seed replays the same games")
    parser.add_argument("--grpc", action="store_true", help="run every bot as a served process over gRPC")
    parser.add_argument("--records", type=Path, help="write each game's record into this folder")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if len(args.bots) < 2:
        raise ValueError("give at least two bots, one per seat")
    try:
        rules = table_rules(args.preset, len(args.bots), args.players)
    except ValueError as error:
        raise ValueError(f"BOT: {error}") from None
    specs = [load_spec(argument) for argument in args.bots]
    per_entry = rules.players // len(specs)  # a bot playing a whole team runs once per seat
    with contextlib.ExitStack() as stack:
        bots: list[list[Bot]] = []
        for index, spec in enumerate(specs):
            instances: list[Bot] = []
            for k in range(per_entry):
                if args.grpc or not spec.in_process:
                    from bots_sdk.process import BotProcess  # needs grpcio; in-process play does not

                    process = stack.enter_context(BotProcess(spec))
                    process.wait_serving()
                    process.bot.hello()
                    instances.append(process.bot)
                else:
                    instances.append(load_bot(spec, seed=zlib.crc32(f"{args.seed}/{index}/{k}".encode())))
            bots.append(instances)
        if args.grpc:
            print("bots run as served processes over gRPC", file=sys.stderr)
        return play_and_report(rules, bots, args.games, args.seed, args.records)
