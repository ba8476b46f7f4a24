"""``play_game`` times each decision as measured, so ``durak check`` reports fractions of a millisecond; the
record keeps the times whole, as ``durak-game/1`` has them."""

from __future__ import annotations

import time

from bots_sdk.bots import RandomBot
from bots_sdk.engine import Action, Observation, Rules
from bots_sdk.local import play_game

from .helpers import MinBot


class Pauses(MinBot):
    """Takes 1.5 ms over each decision."""

    def choose_action(self, observation: Observation) -> Action:
        until = time.perf_counter() + 0.0015
        while time.perf_counter() < until:
            pass
        return super().choose_action(observation)


def test_decision_times_keep_their_fractions_and_the_record_rounds_them() -> None:
    played = play_game(Rules.preset("classic"), [Pauses(), RandomBot(1)], seed=3)
    mine = [ms for (seat, _), ms in zip(played.game.decisions(), played.ms, strict=True) if seat == 0]
    assert mine and all(ms >= 1.5 for ms in mine)
    assert any(not float(ms).is_integer() for ms in mine)
    assert [action.ms for action in played.record().actions] == [round(ms) for ms in played.ms]
