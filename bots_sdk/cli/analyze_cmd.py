"""``durak analyze FILE [--json]``: the verdict on every decision of a game record (``bots_sdk.analysis``).

Exit statuses: 0 analysed; 2 a record that does not replay (malformed, or an illegal action), with the
reason on stderr and nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bots_sdk.analysis.review import SAMPLES, THRESHOLD, analyze
from bots_sdk.engine import GameRecord, RecordError


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "analyze", help="rate every decision of a game record: exact in two-player endgames, else estimated",
        description="Print one line per decision: step, seat, action, the value before and after it, the best "
        "actions, and MISTAKE (the solved result dropped) or inaccuracy (the estimated durak chance rose by "
        "more than the threshold). Exit 2: the record does not replay.",
    )
    parser.add_argument("file", help="the record (JSON, as durak replay reads it), or - for standard input")
    parser.add_argument("--json", action="store_true", help="one JSON object per decision")
    parser.add_argument("--samples", type=int, default=SAMPLES, help=f"sampled deals per estimate ({SAMPLES})")
    parser.add_argument("--threshold", type=float, default=THRESHOLD,
                        help=f"durak chance an inaccuracy adds at least ({THRESHOLD})")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the sampled deals (0)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = GameRecord.from_json(sys.stdin.buffer.read()) if args.file == "-" else GameRecord.read(args.file)
        reviews = analyze(record, args.samples, args.threshold, args.seed)
        first = next(reviews, None)  # a record that does not replay fails here, before anything is printed
    except RecordError as error:
        print(f"durak analyze: {args.file}: {error}", file=sys.stderr)
        return 2
    if first is None:
        return 0
    for review in (first, *reviews):
        print(json.dumps(review.to_dict()) if args.json else review.line(), flush=True)
    return 0
