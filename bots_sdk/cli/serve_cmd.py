"""``durak serve BOT``: serve a bot folder or a reference bot on a socket, until Ctrl-C."""

from __future__ import annotations

import argparse
import os
import subprocess
from typing import Any

from bots_sdk.botdir import load_bot, load_spec
from bots_sdk.server import ADDRESS_VARIABLE, serve


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve", help="serve a bot over gRPC (as the arena runs it)",
        description=f"Serve BOT on --address (default ${ADDRESS_VARIABLE}, else ./NAME.sock).",
    )
    parser.add_argument("bot", metavar="BOT", help="a bot folder or a reference bot name")
    parser.add_argument("--address", help="a unix socket path or host:port")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    spec = load_spec(args.bot)
    address = args.address or os.environ.get(ADDRESS_VARIABLE) or f"{spec.name}.sock"
    if not spec.in_process:
        env = {**os.environ, ADDRESS_VARIABLE: address}
        return subprocess.run(list(spec.entry), cwd=spec.folder, env=env, check=False).returncode
    serve(load_bot(spec), address)
    return 0
