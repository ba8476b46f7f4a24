"""The solver against an exhaustive minimax written here independently: no pruning, no table, no scores,
just "each seat picks the ending it likes best" over every legal action, on small real endgames."""

from __future__ import annotations

import functools

import pytest

from bots_sdk.analysis.solver import Solver, Value, perfect_information
from bots_sdk.bots.gentle import GentleBot
from bots_sdk.engine import Game, Rules

Ending = tuple[int | None, int]
"""Who ends as the durak (``None``: a draw) and the number of the last bout."""


def liking(ending: Ending, seat: int) -> tuple[int, int]:
    """How much ``seat`` likes an ending: safe before a draw before the durak; a fast win, a slow loss."""
    durak, last = ending
    if durak is None:
        return (1, 0)
    return (2, -last) if durak != seat else (0, last)


def brute_force(game: Game) -> Ending:
    outcome = game.outcome
    if outcome is not None:
        return outcome.durak, game.bout
    seat = game.to_act
    assert seat is not None
    endings = []
    for action in game.legal_actions():
        child = game.clone()
        child.push(action)
        endings.append(brute_force(child))
    return max(endings, key=functools.partial(liking, seat=seat))


def as_value(ending: Ending, seat: int, bout: int) -> Value:
    durak, last = ending
    if durak is None:
        return Value("draw", 0)
    return Value("win" if durak != seat else "loss", last - bout + 1)


def small_endgames(count: int, cards: int) -> list[Game]:
    """Positions of gentle-against-gentle games with nothing hidden and at most ``cards`` cards in hands.

    Short games (24 cards, hands of 4) with a draw after 3 takes in a row keep brute force fast and reach
    every kind of ending: a win, a loss and both draws (both hands empty, the take limit)."""
    found = []
    for seed in range(400):
        for preset in ("classic", "transfer"):
            rules = Rules.preset(preset, players=2).replace(deck=24, hand_size=4, pickup_draw_limit=3)
            game = Game.new(rules, seed=seed)
            bot = GentleBot(seed=seed)
            while not game.is_over():
                held = game.hand_size(0) + game.hand_size(1)
                if perfect_information(game) and held <= cards and len(game.legal_actions()) > 1:
                    found.append(game.clone())
                    break
                seat = game.to_act
                assert seat is not None
                game.push(bot.choose_action(game.observation(seat)))
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} endgames found")


def label(game: Game) -> str:
    return f"{'transfer' if game.rules.transfer else 'classic'}-{game.hand_size(0)}v{game.hand_size(1)}"


@pytest.mark.parametrize("game", small_endgames(12, 5), ids=label)
def test_the_solver_agrees_with_brute_force_on_every_action(game: Game) -> None:
    seat = game.to_act
    assert seat is not None
    solver = Solver()
    values = solver.action_values(game)
    assert set(values) == set(game.legal_actions())
    for action, value in values.items():
        child = game.clone()
        child.push(action)
        assert value == as_value(brute_force(child), seat, game.bout), action
    assert solver.value(game) == as_value(brute_force(game), seat, game.bout)
    assert solver.value(game) == max(values.values(), key=Value.rank)


def test_the_result_stays_exact_when_the_bouts_are_beyond_the_budget() -> None:
    game = small_endgames(1, 5)[0]
    exact = Solver().value(game)
    assert exact.result != "draw"
    assert Solver(bout_nodes=1).value(game) == Value(exact.result, None)


def test_the_solver_refuses_hidden_cards() -> None:
    game = Game.new(Rules.preset("classic", players=2), seed=1)
    with pytest.raises(ValueError, match="empty stock"):
        Solver().value(game)


def test_the_positions_cover_wins_and_losses_for_the_side_to_move() -> None:
    results = {Solver().value(game).result for game in small_endgames(12, 5)}
    assert {"win", "loss"} <= results
