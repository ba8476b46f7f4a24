"""``durak replay FILE [--trace]``: re-execute a record (docs/protocol.md section 3).

Exit statuses: 0 replayed and equal to the stored result; 2 malformed record
(message on stderr, nothing on stdout); 3 an illegal action; 4 a different result.
Output is buffered until the verdict is known, so a malformed record prints nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bots_sdk.engine import GameRecord, RecordError
from bots_sdk.engine.replay import replay

_STATUS = {"ok": 0, "illegal": 3, "mismatch": 4}


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "replay", help="re-execute a game record and check its result",
        description="Re-execute a durak-game/1 record. Exit 0: result matches; 2: malformed record; "
        "3: an illegal action; 4: a different result.",
    )
    parser.add_argument("file", help="the record (JSON), or - for standard input")
    parser.add_argument("--trace", action="store_true", help="print every decision, forced ones included")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = GameRecord.from_json(sys.stdin.buffer.read()) if args.file == "-" else GameRecord.read(args.file)
        result = replay(record)
    except RecordError as error:
        print(f"durak replay: {args.file}: {error}", file=sys.stderr)
        return 2
    lines = [json.dumps(step.to_dict()) for step in result.steps] if args.trace else []
    lines.append(json.dumps(result.final_line()))
    sys.stdout.write("\n".join(lines) + "\n")
    return _STATUS[result.status]
