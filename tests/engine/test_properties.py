"""Property tests: random games of every preset and table size never break the rules.

Every game is a ``CheckedGame`` (tests/engine/helpers.py): each step, forced or
chosen, is checked against an independent model of docs/rules.md: who acts, the
legal actions, L1-L3, that the defender answers before a bout ends, drawing,
going out, the next roles and the end of the game. On top of that the tests
here check card conservation, that every applied action was legal
(``Game.apply`` raises otherwise), termination within ``max_bouts``, and the
outcome.
"""

from __future__ import annotations

import copy as pycopy
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from bots_sdk.engine import PRESETS, Game, IllegalActionError, Rules
from tests.engine.helpers import (
    CONFIGS,
    PLAYER_COUNTS,
    CheckedGame,
    check_conservation,
    check_outcome,
    play_random,
)

configs = st.sampled_from(CONFIGS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
slow = pytest.mark.skipif(os.environ.get("DURAK_SLOW") != "1", reason="long property run: set DURAK_SLOW=1")
"""The ``slow`` variants run with ``DURAK_SLOW=1 pytest -m slow tests/engine``."""


def play_checked(rules: Rules, seed: int, choice_seed: int | None = None) -> CheckedGame:
    game = CheckedGame.new(rules, seed)
    game.check()
    rng = random.Random(seed if choice_seed is None else choice_seed)
    play_random(game, rng)
    assert game.is_over(), f"{rules.preset_name} p{rules.players} seed {seed} did not end"
    check_outcome(game)
    return game


def test_configs_cover_every_preset() -> None:
    assert {preset for preset, _ in CONFIGS} == set(PRESETS)
    for preset, counts in PLAYER_COUNTS.items():
        for players in range(2, 7):
            if players in counts:
                assert Rules.preset(preset, players).players == players
            else:
                with pytest.raises(ValueError, match="players"):
                    Rules.preset(preset, players)


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_random_games_follow_the_rules(preset: str, players: int) -> None:
    for seed in range(4):
        play_checked(Rules.preset(preset, players), seed)


@settings(max_examples=80, deadline=None)
@given(config=configs, deal_seed=seeds, choice_seed=seeds)
def test_random_game_follows_the_rules(config: tuple[str, int], deal_seed: int, choice_seed: int) -> None:
    play_checked(Rules.preset(*config), deal_seed, choice_seed)


@pytest.mark.slow
@slow
@settings(max_examples=1500, deadline=None)
@given(config=configs, deal_seed=seeds, choice_seed=seeds)
def test_random_game_follows_the_rules_many(config: tuple[str, int], deal_seed: int, choice_seed: int) -> None:
    play_checked(Rules.preset(*config), deal_seed, choice_seed)


@st.composite
def custom_rules(draw: st.DrawFn) -> Rules:
    """Any valid combination of options, not just the presets (deck sizes, hand sizes, limits)."""
    deck = draw(st.sampled_from([24, 36, 52]))
    players = draw(st.integers(2, 6))
    hand_size = draw(st.integers(1, min(8, deck // players)))
    small = st.none() | st.integers(1, 7)
    return Rules(
        players=players, deck=deck, hand_size=hand_size,
        first_attacker=draw(st.sampled_from(["lowest_trump", "dealer_left"])),
        throw_in=draw(st.sampled_from(["all", "neighbours"])),
        bout_limit=draw(small), first_bout_limit=draw(small),
        multi_card_attacks=draw(st.booleans()), transfer=draw(st.booleans()),
        early_out=draw(st.booleans()), trump_exchange=draw(st.booleans()),
        pickup_draw_limit=draw(st.none() | st.integers(1, 6)),
        max_bouts=draw(st.sampled_from([1, 2, 5, 30, 1000])),
        teams=draw(st.none() | team_lists(players)),
    )


def team_lists(players: int) -> st.SearchStrategy[tuple[tuple[int, ...], ...]]:
    """Any split of the seats into at least two teams, seed 004's layouts or not (adjacent partners too)."""
    labels = st.lists(st.integers(0, players - 1), min_size=players, max_size=players).filter(
        lambda teams: len(set(teams)) >= 2)
    return labels.map(lambda teams: tuple(
        tuple(s for s in range(players) if teams[s] == t) for t in sorted(set(teams))))


@settings(max_examples=120, deadline=None)
@given(rules=custom_rules(), deal_seed=seeds, choice_seed=seeds)
def test_custom_rules_games_follow_the_rules(rules: Rules, deal_seed: int, choice_seed: int) -> None:
    play_checked(rules, deal_seed, choice_seed)


@pytest.mark.slow
@slow
@settings(max_examples=1500, deadline=None)
@given(rules=custom_rules(), deal_seed=seeds, choice_seed=seeds)
def test_custom_rules_games_follow_the_rules_many(rules: Rules, deal_seed: int, choice_seed: int) -> None:
    play_checked(rules, deal_seed, choice_seed)


def _midgame(config: tuple[str, int], deal_seed: int, choice_seed: int) -> Game | None:
    """A game after up to 60 random decisions, or None if it ended before them."""
    game = Game.new(Rules.preset(*config), deal_seed)
    rng = random.Random(choice_seed)
    for _ in range(rng.randrange(0, 60)):
        if game.is_over():
            return None
        game.push(rng.choice(game.legal_actions()))
    return None if game.is_over() else game


@settings(max_examples=60, deadline=None)
@given(config=configs, deal_seed=seeds, choice_seed=seeds)
def test_game_is_deterministic_and_clone_is_independent(
    config: tuple[str, int], deal_seed: int, choice_seed: int
) -> None:
    game = _midgame(config, deal_seed, choice_seed)
    if game is None:
        return
    rules = game.rules
    before = [game.observation(s) for s in range(rules.players)]
    copy = game.clone()
    play_random(copy, random.Random(choice_seed + 1))
    assert copy.is_over()
    after = [game.observation(s) for s in range(rules.players)]
    assert before == after, "playing a clone changed the original"
    # The same deal and the same decisions give the same game.
    again = Game.from_deck(rules, game.deck, game.dealer)
    for seat, action in game.decisions():
        again.apply(action, seat=seat)
    assert again.steps() == game.steps()
    assert [again.observation(s) for s in range(rules.players)] == after


@settings(max_examples=60, deadline=None)
@given(config=configs, deal_seed=seeds, choice_seed=seeds)
def test_a_clone_plays_on_exactly_as_its_original(config: tuple[str, int], deal_seed: int, choice_seed: int) -> None:
    """Search bots clone at every node: a clone must hold the whole state, not just what one path reads."""
    game = _midgame(config, deal_seed, choice_seed)
    if game is None:
        return
    rules = game.rules
    copy = game.clone() if choice_seed % 2 else pycopy.copy(game)
    assert copy.steps() == game.steps()
    assert repr(copy) == repr(game)
    moves = random.Random(choice_seed + 1)
    while not game.is_over():
        legal = game.legal_actions()
        assert copy.legal_actions() == legal
        action = moves.choice(legal)
        game.push(action)
        copy.push(action)
    assert copy.outcome == game.outcome
    assert copy.steps() == game.steps()
    assert [copy.observation(s) for s in range(rules.players)] == [game.observation(s) for s in range(rules.players)]


class GameMachine(RuleBasedStateMachine):
    """Random play under hypothesis' control, with an illegal action tried now and then."""

    game: CheckedGame

    @initialize(config=configs, seed=seeds)
    def deal(self, config: tuple[str, int], seed: int) -> None:
        self.game = CheckedGame.new(Rules.preset(*config), seed)
        self.game.check()

    @precondition(lambda self: not self.game.is_over())
    @rule(index=st.integers(min_value=0, max_value=200))
    def act(self, index: int) -> None:
        legal = self.game.legal_actions()
        self.game.apply(legal[index % len(legal)], seat=self.game.to_act)

    @precondition(lambda self: not self.game.is_over())
    @rule(seed=seeds, steps=st.integers(min_value=1, max_value=40))
    def act_many(self, seed: int, steps: int) -> None:
        play_random(self.game, random.Random(seed), steps)

    @precondition(lambda self: not self.game.is_over())
    @rule(seed=seeds)
    def play_to_the_end(self, seed: int) -> None:
        play_random(self.game, random.Random(seed))
        assert self.game.is_over()

    @rule(text=st.sampled_from(["take", "pass", "exchange", "attack 6S", "defend 6S 7S", "transfer 9H", "attack AD"]))
    def illegal_actions_change_nothing(self, text: str) -> None:
        game = self.game
        before = game.observation(0)
        steps = len(game.steps())
        legal = game.legal_actions()
        if text in legal.texts():
            return
        with pytest.raises(IllegalActionError):
            game.apply(text)
        assert game.observation(0) == before
        assert len(game.steps()) == steps

    @precondition(lambda self: not self.game.is_over())
    @rule()
    def wrong_seat_is_refused(self) -> None:
        game = self.game
        seat = game.to_act
        assert seat is not None
        other = (seat + 1) % game.players
        with pytest.raises(IllegalActionError, match="not to act"):
            game.apply(game.legal_actions()[0], seat=other)

    @invariant()
    def cards_are_conserved(self) -> None:
        check_conservation(self.game)

    @invariant()
    def checked_position(self) -> None:
        self.game.check()

    @invariant()
    def over_means_no_decision(self) -> None:
        game = self.game
        assert game.is_over() == (game.to_act is None) == (len(game.legal_actions()) == 0)
        assert game.bout <= game.rules.max_bouts


def _run_machine(**options: Any) -> None:
    run_state_machine_as_test(
        GameMachine,
        settings=settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], **options),
    )


def test_game_machine() -> None:
    _run_machine(max_examples=40, stateful_step_count=30)


@pytest.mark.slow
@slow
def test_game_machine_many() -> None:
    _run_machine(max_examples=400, stateful_step_count=60)


def test_every_preset_reaches_interesting_positions() -> None:
    """The random games above do reach the rules' corners (transfers, exchanges, takes, draws)."""
    seen: dict[str, set[str]] = {preset: set() for preset in PRESETS}
    for preset, players in CONFIGS:
        for seed in range(30):
            game = Game.new(Rules.preset(preset, players), seed)
            play_random(game, random.Random(seed))
            seen[preset] |= {str(action).split()[0] for _, action, _ in game.steps()}
    assert seen["transfer"] >= {"attack", "defend", "take", "pass", "transfer"}
    assert seen["house"] >= {"transfer"}
    assert seen["pagat"] >= {"exchange"}
    for preset in ("classic", "kawu", "table"):
        assert "transfer" not in seen[preset]
        assert "exchange" not in seen[preset]
