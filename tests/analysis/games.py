"""A real game with a known mistake, for the analysis tests: the endgame of ``tests/bots/test_strong.py`` in
which only one move wins (gentle misses it), with another move played there, then gentle to the end."""

from __future__ import annotations

import dataclasses

from bots_sdk.bots import GentleBot
from bots_sdk.engine import GameRecord, SeatInfo
from tests.bots.test_strong import ENDGAMES, endgame


@dataclasses.dataclass(frozen=True)
class MissedWin:
    record: GameRecord
    step: int
    """The trace's number of the thrown step (forced steps counted; the replay viewer shows it at step + 1)."""
    seat: int
    thrown: str
    winning: str


def missed_win(name: str = "seed-332") -> MissedWin:
    game = endgame(name)
    winning = ENDGAMES[name][2]
    seat = game.to_act
    assert seat is not None
    thrown = next(a for a in game.legal_actions() if str(a) != winning)
    step = len(game.steps())
    game.apply(thrown)
    bot = GentleBot(seed=1)
    while not game.is_over():
        acting = game.to_act
        assert acting is not None
        game.push(bot.choose_action(game.observation(acting)))
    record = GameRecord.from_game(game, [SeatInfo("gentle", "1"), SeatInfo("strong", "1")])
    return MissedWin(record, step, seat, str(thrown), winning)
