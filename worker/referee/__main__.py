"""``python -m worker.referee BOT BOT [BOT ...]``: play a match between bot folders, sandboxed.

    python -m worker.referee ./alice ./bob --preset classic --games 10 --sandbox bwrap --json

``--games`` counts deals; each deal is played in every seat rotation (the
duplicate format) unless ``--single``, every rotation by freshly started bots
(``DURAK_START_AHEAD=auto|on|off``: whether the next rotation's bots start while the
current one ends; ``DURAK_WARM_POOL=auto|on|off``: whether bwrap bots start in sandboxes started
ahead, worker/sandbox/warm.py). With ``--json`` the output is one object,
``{"games": [{"durak", "draw", "reason", "offender", "detail"}, ...]}``; records
go to ``--records DIR`` if given.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bots_sdk.cli.progress import Progress
from bots_sdk.engine import PRESETS, DurakError, GameRecord
from worker.referee.launch import launcher_for
from worker.referee.match import GameResult, MatchSpec, play_spec
from worker.sandboxes import SANDBOXES


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m worker.referee", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bots", nargs="+", metavar="BOT", help="bot folders or reference bot names, one per seat")
    parser.add_argument("--preset", default="classic", choices=PRESETS)
    parser.add_argument("--games", type=int, default=1, help="deals to play (default 1)")
    parser.add_argument("--single", action="store_true", help="play each deal once, not in every seat rotation")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--sandbox", default="bwrap", choices=SANDBOXES,
                        help="bwrap (default), process (rlimits and a uid only), none (no isolation: development)")
    parser.add_argument("--move-s", type=float, default=1.0, help="seconds per decision (default 1.0)")
    parser.add_argument("--bank-s", type=float, default=10.0, help="time bank per game in seconds (default 10)")
    parser.add_argument("--start-s", type=float, default=10.0,
                        help="seconds from a bot's start until it serves (default 10)")
    parser.add_argument("--records", type=Path, help="write each game's record into this folder")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every game's result")
    args = parser.parse_args(argv)
    try:
        spec = MatchSpec(tuple(args.bots), args.preset, args.games, args.seed, not args.single,
                         move_s=args.move_s, bank_s=args.bank_s, start_s=args.start_s)
        launcher = launcher_for(args.sandbox)
        total = args.games * (1 if args.single else len(args.bots))
        with Progress(total, "games") as bar:
            results = play_spec(spec, launcher, on_game=lambda _result: bar.advance())
    except (DurakError, ValueError, OSError, RuntimeError) as error:
        print(f"python -m worker.referee: {error}", file=sys.stderr)
        return 2
    if args.records is not None:
        _write_records(args.records, results)
    if args.json:
        print(json.dumps({"games": [r.summary() for r in results]}))
    else:
        for r in results:
            names = [r.record["seats"][s]["bot"] for s in range(len(r.seats))]
            verdict = "draw" if r.draw else f"durak: seat {r.durak} ({names[r.durak]})"  # type: ignore[index]
            extra = f" [{r.reason}: {r.detail}]" if r.offender is not None else ""
            print(f"deal {r.deal} rotation {r.rotation}: {', '.join(names)} -> {verdict}{extra}")
    return 0


def _write_records(folder: Path, results: list[GameResult]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for index, result in enumerate(results, 1):
        GameRecord.from_dict(result.record).write(folder / f"game-{index:05d}.json")


if __name__ == "__main__":
    sys.exit(main())
