"""Playing a match from the command line and printing its summary: shared by ``selfplay`` and ``play``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bots_sdk.bot import Bot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import Rules
from bots_sdk.match import play_match


def play_and_report(
    rules: Rules, bots: Sequence[Bot | Sequence[Bot]], games: int, seed: str, records: Path | None
) -> int:
    if games < 1:
        raise ValueError(f"--games: {games} is not a positive number of games")
    with Progress(games, f"{rules.preset_name} p{rules.players}") as bar:
        summary = play_match(
            rules, bots, games, seed=seed, records=records, on_game=lambda _g, _played: bar.advance()
        )
    print(summary.table(), end="")
    if records is not None:
        print(f"records: {records}/game-*.json (replay one with: durak replay FILE --trace)")
    return 0
