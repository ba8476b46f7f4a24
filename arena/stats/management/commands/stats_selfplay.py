"""``manage.py stats_selfplay --games N --players K``: gentle plays itself so the statistics page has data.

Plays N deals of ``classic`` with the reference bot gentle in all K seats, each deal
in every seat rotation as every arena match is (N x K games stored), as unrated
challenge matches through the matches services with the plain process launcher
(no sandbox, no worker needed). The page's comparison with docs/rules.md section 10
counts one game per deal, so N is the sample it shows: the source played 3000,
2300 and 1600 games at 2, 3 and 4 players.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.stats.services import SelfplayError, selfplay_play
from bots_sdk.cli.progress import Progress
from worker.referee.match import GameResult


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0] if __doc__ else ""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, required=True,
                            help="deals to play (the games the comparison counts); each is played in every rotation")
        parser.add_argument("--players", type=int, default=2, help="table size, 2 to 6 (default 2)")
        parser.add_argument("--seed", default=None, help="seed of the run (default: random)")

    def handle(self, *args: Any, **options: Any) -> None:
        deals, players = options["games"], options["players"]
        if deals < 1:
            raise CommandError("--games must be a positive number")
        if not 2 <= players <= 6:
            raise CommandError("--players must be between 2 and 6")
        started = time.perf_counter()
        with Progress(deals * players, f"gentle self-play, {players} players") as progress:
            def advance(result: GameResult) -> None:
                progress.advance()

            try:
                matches = selfplay_play(deals=deals, players=players, seed=options["seed"], on_game=advance)
            except SelfplayError as error:
                raise CommandError(str(error)) from None
        seconds = time.perf_counter() - started
        ids = f"{matches[0].pk}" if len(matches) == 1 else f"{matches[0].pk}-{matches[-1].pk}"
        self.stdout.write(
            f"stored {deals * players} games ({deals} deals x {players} rotations) in {len(matches)} unrated "
            f"challenge match{'es' if len(matches) != 1 else ''} ({ids}) in {seconds:.1f} s; see /stats/"
        )
