"""The ``durak`` command: one entry point, one module per subcommand.

Every user error (a bad option, a malformed record, a missing file) ends with a
one-line message naming what was wrong and exit status 2, never a traceback.
Set ``DURAK_DEBUG=1`` to see the traceback of an unexpected failure.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from bots_sdk import __version__
from bots_sdk.botdir import BotSpecError
from bots_sdk.cli import analyze_cmd, dataset_cmd, new_cmd, play_cmd, replay_cmd, selfplay_cmd, submit_cmd
from bots_sdk.engine import DurakError
from bots_sdk.faults import BotFault
from bots_sdk.native import engine_build

USAGE_ERROR = 2


class UsageError(Exception):
    """A command-line option that does not make sense; the message says which."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="durak", description="Durak Arena tools: the rules engine, local play and records."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({engine_build()} engine)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    new_cmd.add_parser(commands)
    play_cmd.add_parser(commands)
    _add_grpc_commands(commands)
    replay_cmd.add_parser(commands)
    analyze_cmd.add_parser(commands)
    selfplay_cmd.add_parser(commands)
    submit_cmd.add_parser(commands)
    dataset_cmd.add_parser(commands)
    return parser


def _add_grpc_commands(commands: Any) -> None:
    """``serve`` and ``check`` need grpcio; without it they are missing, and the rest still works."""
    try:
        from bots_sdk.cli import check_cmd, serve_cmd
    except ImportError:
        return
    serve_cmd.add_parser(commands)
    check_cmd.add_parser(commands)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except (UsageError, DurakError, BotSpecError, BotFault, OSError, ValueError) as error:
        if os.environ.get("DURAK_DEBUG"):
            raise
        print(f"durak {args.command}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print(f"durak {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
