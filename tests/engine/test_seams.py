"""The engine's public seams: building a game from an observation, watching its steps, its documented state."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bots_sdk import engine
from bots_sdk.engine import Action, Game, InvalidDealError, Rules, Watcher
from bots_sdk.engine.cards import Card
from bots_sdk.engine.game import GAME_SLOTS
from tests.engine.helpers import CONFIGS, advance_random


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_from_observation_with_the_true_cards_continues_the_same_game(preset: str, players: int) -> None:
    """Given the real hidden cards, the rebuilt game shows every seat the same and plays on identically."""
    rules = Rules.preset(preset, players)
    for seed in range(3):
        rng = random.Random(seed)
        game = Game.new(rules, seed)
        advance_random(game, rng, rng.randrange(5, 80))
        if game.is_over():
            continue
        seat = (game.to_act or 0) if seed % 2 else game.bout % players
        rebuilt = Game.from_observation(
            game.observation(seat), [game.hand_mask(s) for s in range(players)], game.stock()
        )
        for other in range(players):
            assert rebuilt.observation(other) == game.observation(other), (seed, other)
        while not game.is_over():
            action = rng.choice(game.legal_actions())
            assert rebuilt.legal_actions() == game.legal_actions()
            game.push(action)
            rebuilt.push(action)
        assert rebuilt.outcome == game.outcome


def test_from_observation_says_what_does_not_fit() -> None:
    game = Game.new(Rules.preset("classic", 3), 1)
    observation = game.observation(0)
    hands = [game.hand_mask(s) for s in range(3)]
    with pytest.raises(ValueError, match=r"hands: sizes \[5, 6, 6\], the observation shows \[6, 6, 6\]"):
        Game.from_observation(observation, [hands[0] & (hands[0] - 1), *hands[1:]], game.stock())
    with pytest.raises(ValueError, match="stock: 17 cards, the observation shows 18"):
        Game.from_observation(observation, hands, game.stock()[1:])


def test_from_observation_rejects_cards_that_would_have_forced_the_observed_decision() -> None:
    """classic, 2 players, seed 0: seat 0 must answer JS and may beat it with 7C (trump) or KS. Given
    cards that beat nothing instead, the engine would take for it: the sample contradicts the observation."""
    game = Game.new(Rules.preset("classic", players=2), 0)
    for text in ["attack 7D", "defend 7D QC", "attack 6S", "defend 6S 9C", "attack AH", "take", "pass", "attack JS"]:
        game.apply(text)
    jack = Card.parse("JS")
    beaters = [card for card in game.hand(0) if card.suit == game.trump or (card.suit == jack.suit and card > jack)]
    assert [str(card) for card in beaters] == ["KS", "7C"]
    stock = game.stock()
    harmless = [card for card in stock[:-1] if card.suit not in (game.trump, jack.suit)][:2]
    hand = game.hand_mask(0)
    for old, new in zip(beaters, harmless, strict=True):
        hand ^= old.mask | new.mask
        stock[stock.index(new)] = old
    with pytest.raises(InvalidDealError, match="seat 0 would have had a single option"):
        Game.from_observation(game.observation(1), [hand, game.hand_mask(1)], stock)


class _Steps(Watcher):
    def __init__(self) -> None:
        self.seen: list[tuple[int, Action, bool]] = []
        self.bouts: list[tuple[int, bool]] = []
        self.open: tuple[int, Action, bool] | None = None

    def before_step(self, game: Game, seat: int, action: Action, forced: bool) -> None:
        assert self.open is None
        self.open = (seat, action, forced)

    def after_step(self, game: Game) -> None:
        assert self.open is not None
        self.seen.append(self.open)
        self.open = None

    def before_bout_end(self, game: Game) -> None:
        assert game.table(), "the bout's cards are still on the table"

    def after_bout_end(self, game: Game, over: bool) -> None:
        assert not game.table()
        self.bouts.append((game.bout, over))


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("transfer", 4), ("pagat-pairs", 4)])
def test_a_watcher_sees_every_step_but_the_polling_passes_and_every_end_of_a_bout(preset: str, players: int) -> None:
    watcher = _Steps()
    game = Game.new(Rules.preset(preset, players), 3, watcher)
    rng = random.Random(3)
    clone_steps = 0
    while not game.is_over():
        clone = game.clone()
        clone.push(rng.choice(clone.legal_actions()))  # a clone is not watched
        clone_steps += 1
        game.push(rng.choice(game.legal_actions()))
    polled = [s for s in game.steps() if s[2] and str(s[1]) == "pass"]
    assert [s for s in game.steps() if s not in polled or s in watcher.seen] == watcher.seen
    assert len(watcher.seen) == len(game.steps()) - len(polled)
    assert watcher.bouts[-1] == (game.bout, True)
    assert [over for _, over in watcher.bouts].count(True) == 1
    assert len(watcher.bouts) == game.bout
    assert clone_steps > 0


def test_every_slot_of_a_game_is_in_its_glossary() -> None:
    # From the source: the compiled class keeps no docstring.
    tree = ast.parse((Path(engine.__file__).parent / "game.py").read_text())
    (doc,) = [ast.get_docstring(c) or "" for c in tree.body if isinstance(c, ast.ClassDef) and c.name == "Game"]
    assert [name for name in GAME_SLOTS if f"``{name}``" not in doc] == []


def test_a_clone_copies_every_slot_and_owns_the_lists_it_changes() -> None:
    """``clone`` writes its slots out one by one: a slot added to ``Game`` but not to ``clone`` fails here."""
    game = Game.new(Rules.preset("classic", players=3), 5)
    advance_random(game, random.Random(5), 20)
    clone = game.clone()
    for name in GAME_SLOTS:
        if name == "_watcher":
            assert clone._watcher is None
            continue
        original, copied = getattr(game, name), getattr(clone, name)
        assert copied == original, name
        if name in ("_hands", "_known", "_att", "_cov", "_history"):
            assert copied is not original, f"{name} is changed in place: a clone must own its copy"
