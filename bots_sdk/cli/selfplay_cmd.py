"""``durak selfplay``: engine-only bots play each other locally, with a summary table."""

from __future__ import annotations

import argparse
import zlib
from pathlib import Path
from typing import Any

from bots_sdk.bot import Bot
from bots_sdk.bots import REFERENCE_BOTS, make_bot
from bots_sdk.cli.match_report import play_and_report
from bots_sdk.engine import PRESETS
from bots_sdk.match import table_rules


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "selfplay", help="play reference bots against each other and summarise",
        description="Play engine-only bots against each other (seats rotate every game) and print "
        "durak rates per bot and per seat with 95 % intervals, draws, mean bouts and speed.",
    )
    parser.add_argument("--preset", default="classic", choices=PRESETS, help="rules preset (default classic)")
    parser.add_argument("--players", type=int, help="table size (default: the number of --bots, at least 2)")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument(
        "--bots", default="gentle,random",
        help="comma-separated bot names, one per seat, one per team under a team preset, or one for every seat"
        f" ({', '.join(sorted(REFERENCE_BOTS))})",
    )
    parser.add_argument("--seed", default="0", help="seed of the deals; the same seed replays the same games")
    parser.add_argument("--records", type=Path, help="write each game's durak-game/1 record into this folder")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if not names:
        raise ValueError("--bots: give at least one bot name")
    if len(names) == 1:
        names = names * (args.players if args.players is not None else 2)
    try:
        rules = table_rules(args.preset, len(names), args.players)
    except ValueError as error:
        raise ValueError(f"--bots: {error}") from None
    per_entry = rules.players // len(names)  # one instance per seat the bot plays
    bots: list[list[Bot]] = [
        [make_bot(name, seed=zlib.crc32(f"{args.seed}/{index}/{k}".encode())) for k in range(per_entry)]
        for index, name in enumerate(names)
    ]
    return play_and_report(rules, bots, args.games, args.seed, args.records)
