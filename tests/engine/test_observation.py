"""A seat's observation shows its own hand and public facts only (docs/rules.md section 9).

Proof by experiment: games whose only difference is in cards hidden from a seat
(other seats' unknown cards, the stock order above the turned-up card) give
that seat exactly the same observation. Two ways to build such games:
``determinize`` samples (hidden cards dealt afresh), and an independent one:
swapping two hidden cards in the deal and replaying the same decisions.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from bots_sdk.engine import Action, Card, Event, Game, Observation, Outcome, Rules, TablePair, determinize
from bots_sdk.engine.cards import deck_mask, mask_to_cards
from tests.engine.helpers import CONFIGS, CheckedGame, advance_random, check_conservation, check_outcome, play_random


def positions(preset: str, players: int, seeds: range, per_game: int = 4) -> Iterator[Game]:
    """Positions of random games: the start, a few random moments, and the end."""
    rules = Rules.preset(preset, players)
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(rules, seed)
        yield game.clone()
        for _ in range(per_game):
            advance_random(game, rng, rng.randrange(1, 40))
            yield game.clone()
        play_random(game, rng)
        yield game


def compare(real: Observation, other: Observation, context: str) -> None:
    """Every field except the engine's entries (``_history``) equal, and the public history equal."""
    for field in dataclasses.fields(Observation):
        if field.name == "_history":
            continue
        mine, theirs = getattr(real, field.name), getattr(other, field.name)
        assert mine == theirs, f"{context}: observation field {field.name} differs: {mine!r} != {theirs!r}"
    assert real.history == other.history, f"{context}: public history differs"


def hidden_from(game: Game, seat: int) -> set[Card]:
    """Cards ``seat`` cannot know: other seats' unknown cards and the stock except the turned-up card."""
    public = game.hand_mask(seat) | game.discard_mask()
    for attack, cover in game.table():
        public |= attack.mask | (cover.mask if cover else 0)
    for other in range(game.players):
        public |= game.known_mask(other)
    if game.stock_size:
        public |= game.trump_card.mask
    return set(mask_to_cards(deck_mask(game.rules.deck) & ~public))


def cards_in(value: object) -> Iterator[Card]:
    """Every card mentioned anywhere in an observation (its fields, the table, the history, actions)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, Action):
        for card in (value.card, value.target):
            if card is not None:
                yield card
    elif isinstance(value, Observation):
        for field in dataclasses.fields(Observation):
            if field.name not in ("rules", "_history"):
                yield from cards_in(getattr(value, field.name))
        yield from cards_in(value.history)
    elif isinstance(value, TablePair | Event | Outcome):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_determinized_games_give_the_seat_to_act_the_same_observation(preset: str, players: int) -> None:
    """The way search bots use it: the seat to act determinizes its own observation."""
    differing = 0
    compared = 0
    for game in positions(preset, players, range(3)):
        seat = game.to_act
        if seat is None:
            continue
        observation = game.observation(seat)
        for k in range(4):
            sample = determinize(observation, random.Random(k))
            context = f"{preset} p{players} bout {game.bout} seat {seat} sample {k}"
            compare(observation, sample.observation(seat), context)
            compared += 1
            if any(sample.hand_mask(s) != game.hand_mask(s) for s in range(players)):
                differing += 1
    assert compared > 0
    assert differing > compared // 2, "the samples hardly ever differ from the real game: the test proves nothing"


def test_determinized_games_give_a_waiting_seat_the_same_observation() -> None:
    """Any seat's observation, also one that is not to act, must be kept by its samples.

    The seat to act has a real decision (two or more legal actions), which is public.
    A sample that dealt it a hand with a single legal action (a defender with no card
    that beats, an attacker with nothing to add) would have the final ``push(None)`` of
    ``Game.from_observation`` apply forced moves and move past the observed moment; the sampler
    must reject such deals.
    """
    failures: list[str] = []
    compared = 0
    for preset, players in CONFIGS:
        for game in positions(preset, players, range(2)):
            for seat in range(players):
                if seat == game.to_act:
                    continue
                observation = game.observation(seat)
                for k in range(3):
                    sample = determinize(observation, random.Random(k))
                    compared += 1
                    try:
                        compare(observation, sample.observation(seat), f"{preset} p{players} seat {seat} sample {k}")
                    except AssertionError as error:
                        failures.append(str(error).splitlines()[0])
    assert not failures, (
        f"{len(failures)} of {compared} samples changed a waiting seat's observation, e.g. {failures[0]}"
    )


def test_determinize_for_a_waiting_seat_minimal_example() -> None:
    """classic, 2 players, seed 0: seat 0 must answer JS; seat 1's samples must leave seat 0 to act."""
    game = Game.new(Rules.preset("classic", players=2), 0)
    for text in ["attack 7D", "defend 7D QC", "attack 6S", "defend 6S 9C", "attack AH", "take", "pass", "attack JS"]:
        game.apply(text)
    assert game.to_act == 0
    assert game.legal_actions().texts() == ["defend JS 7C", "defend JS KS", "take"]
    observation = game.observation(1)
    for k in range(10):
        sample = determinize(observation, random.Random(k))
        assert sample.to_act == 0, f"sample {k}: seat 0 was dealt no card beating JS, the engine took for it"
        assert sample.table() == game.table()
        assert len(sample.legal_actions()) >= 2


def swapped_game(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The game dealt with two of ``seat``'s hidden cards swapped, replaying the same decisions.

    ``None`` when the swap changes the public course of the game: another first
    attacker (the lowest trump moved), a move that becomes forced or stops being
    forced (the history records which moves were forced), a different decision.
    """
    hidden = sorted(hidden_from(game, seat))
    if len(hidden) < 2:
        return None
    first, second = rng.sample(hidden, 2)
    deck = list(game.deck)
    i, j = deck.index(first), deck.index(second)
    deck[i], deck[j] = deck[j], deck[i]
    other = Game.from_deck(game.rules, deck, game.dealer)
    for who, action in game.decisions():
        if other.is_over() or other.to_act != who or action not in other.legal_actions():
            return None
        other.push(action)
    if other.events() != game.events() or other.attacker != game.attacker or other.to_act != game.to_act:
        return None
    if game.is_over() and other.outcome != game.outcome:
        return None
    return other


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_swapping_hidden_cards_keeps_the_observation(preset: str, players: int) -> None:
    accepted = 0
    hands_changed = 0
    rng = random.Random(players)
    for game in positions(preset, players, range(3, 6)):
        for seat in range(players):
            for _ in range(4):
                other = swapped_game(game, seat, rng)
                if other is None:
                    continue
                accepted += 1
                assert other.hand_mask(seat) == game.hand_mask(seat)
                if any(other.hand_mask(s) != game.hand_mask(s) for s in range(players)):
                    hands_changed += 1
                real = game.observation(seat)
                seen = other.observation(seat)
                compare(real, seen, f"{preset} p{players} bout {game.bout} seat {seat}")
                assert real.history == seen.history
    assert accepted >= 20, f"only {accepted} swaps kept the game's public course"
    assert hands_changed >= 5


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_observation_holds_no_hidden_card(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players)
    for seed in range(3):
        rng = random.Random(seed)
        game = CheckedGame.new(rules, seed)
        while True:
            if not game.is_over() and rng.random() > 0.15:
                game.apply(rng.choice(game.legal_actions()))
                continue
            for seat in range(players):
                observation = game.observation(seat)
                assert observation.seat == seat
                assert list(observation.hand) == game.hand(seat)
                assert observation.hand_sizes == tuple(game.hand_size(s) for s in range(players))
                leaked = set(cards_in(observation)) & hidden_from(game, seat)
                assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"
                for other in range(players):
                    known = set(observation.known_cards[other])
                    assert known <= set(game.hand(other))
                    # Only cards the seat publicly picked up, or the turned-up card it drew or swapped in.
                    public = set(mask_to_cards(game.chk_public[other]))
                    assert known == public & set(game.hand(other)), f"known cards of seat {other}"
                if seat == game.to_act:
                    assert observation.legal_actions == game.legal_actions()
                    assert observation.my_turn
                else:
                    assert len(observation.legal_actions) == 0
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_determinize_continues_the_real_position(preset: str, players: int) -> None:
    for index, game in enumerate(positions(preset, players, range(6, 8))):
        for seat in range(players):
            sample = determinize(game.observation(seat), random.Random(index * 10 + seat))
            check_conservation(sample)
            if seat != game.to_act and not game.is_over():
                # A waiting seat's sample may have moved on (see the tests above); it still plays to the end.
                play_random(sample, random.Random(index))
                check_outcome(sample)
                continue
            assert sample.hand_mask(seat) == game.hand_mask(seat)
            assert sample.stock_size == game.stock_size
            assert sample.trump_card == game.trump_card
            assert sample.to_act == game.to_act
            assert sample.is_over() == game.is_over()
            assert sample.outcome == game.outcome
            for other in range(players):
                assert sample.hand_size(other) == game.hand_size(other)
                assert sample.known_mask(other) == game.known_mask(other)
                assert sample.is_out(other) == game.is_out(other)
            assert sample.table() == game.table()
            assert sample.discard_mask() == game.discard_mask()
            if seat == game.to_act:
                assert sample.legal_actions() == game.legal_actions()
                assert sample.legal_actions().texts() == game.legal_actions().texts()
            play_random(sample, random.Random(index))
            assert sample.is_over()
            check_outcome(sample)


def test_determinize_stock_keeps_the_turned_up_card_at_the_bottom() -> None:
    for preset, players in CONFIGS:
        for game in positions(preset, players, range(2)):
            if not game.stock_size or game.is_over():
                continue
            for k in range(3):
                sample = determinize(game.observation(game.to_act or 0), random.Random(k))
                assert sample.stock()[-1] is game.trump_card


def test_every_legal_action_of_the_real_game_is_legal_in_a_sample() -> None:
    for preset, players in CONFIGS:
        for game in positions(preset, players, range(2)):
            if game.is_over():
                continue
            seat = game.to_act
            assert seat is not None
            sample = determinize(game.observation(seat), random.Random(5))
            for action in game.legal_actions():
                copy = sample.clone()
                copy.apply(action, seat=seat)
                real = game.clone()
                real.apply(action, seat=seat)
                assert copy.steps()[len(game.steps())] == real.steps()[len(game.steps())] == (seat, action, False)


def test_the_typed_history_replaces_the_raw_tuples() -> None:
    """Bots read ``Observation.history`` (``Event``s); the old tuple form still answers, with a warning."""
    game = Game.new(Rules.preset("transfer", players=3), 2)
    advance_random(game, random.Random(2), 30)
    observation = game.observation(0)
    assert observation.history == tuple(game.events())
    assert {event.kind for event in observation.history} == {"action", "draw"}
    with pytest.warns(DeprecationWarning, match="read Observation.history"):
        raw = observation.raw_history
    assert len(raw) == len(observation.history)
