"""The engine's memos of legal actions: right answers, and bounded however long a process plays."""

from __future__ import annotations

import random

from bots_sdk.engine import Game, Rules
from bots_sdk.engine.game import _DEFENCES, _HALF_ATTACKS, _THROW_INS, _attack_actions, _defend_actions, _Memo


def test_a_memo_answers_every_set_and_stops_growing_at_its_size() -> None:
    memo = _Memo(lambda cards: tuple(_attack_actions(cards)), size=1000)
    rng = random.Random(5)
    masks = [rng.getrandbits(64) & 0x7FFC_7FFC_7FFC_7FFC for _ in range(3000)]  # real cards only
    for mask in masks:
        assert memo[mask] == tuple(_attack_actions(mask))
    assert len(memo) == 1000
    for mask in masks[-100:]:
        assert memo[mask] == tuple(_attack_actions(mask)), "a set past the size is still answered"


def test_the_memos_of_a_long_run_hold_what_random_play_met() -> None:
    for preset, players in (("classic", 2), ("house", 4)):
        rules = Rules.preset(preset, players=players)
        rng = random.Random(9)
        for _ in range(200):
            game = Game.new(rules, rng)
            while not game.is_over():
                game.push(rng.choice(game.legal_actions()))
    assert 0 < len(_THROW_INS) <= 1 << 15
    assert 0 < len(_HALF_ATTACKS) <= 1 << 15
    assert 0 < sum(map(len, _DEFENCES)) <= 64 << 10
    for cards, legal in list(_THROW_INS.items())[:200]:
        assert [str(a) for a in legal] == [*(str(a) for a in _attack_actions(cards)), "pass"]
    for card, memo in enumerate(_DEFENCES):
        for beaters, legal in list(memo.items())[:20]:
            assert list(legal) == [*_defend_actions(card, beaters), legal[-1]]
            assert str(legal[-1]) == "take"
