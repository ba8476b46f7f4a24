"""The reinforcement-learning environment (docs/rl.md): PettingZoo's own API test at every kind of table, the
documented vector layout checked card by card against the engine, the rewards, and the Gymnasium one-seat
wrapper  against reference bots, a Python bot folder and the Node bot over gRPC."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

import bots_sdk.rl
from bots_sdk.engine import Observation
from bots_sdk.rl import encoding as e

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "bots_sdk" / "examples" / "javascript"
POLICY_BOT = ROOT / "bots_sdk" / "examples" / "rl_policy"


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("transfer", 3), ("pagat-pairs", 4), ("table", 6)])
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # its hints for dict observations, as its own games get
def test_pettingzoo_api_test_passes(preset: str, players: int) -> None:
    api_test(bots_sdk.rl.env(preset=preset, players=players), num_cycles=200)


def planes(vector: np.ndarray, start: int, count: int = 1) -> np.ndarray:
    found: np.ndarray = vector[start:start + e.CARDS * count].reshape(count, e.CARDS).sum(axis=0)
    return found


def check_layout(view: Observation, observed: dict[str, np.ndarray]) -> None:
    """The vector holds exactly what the observation says, in the places docs/rl.md gives."""
    vector, mask = observed["observation"], observed["action_mask"]
    assert vector.shape == (e.SIZE,) and vector.dtype == np.float32
    assert sorted(np.flatnonzero(mask)) == sorted(e.action_index(a) for a in view.legal_actions)
    assert all(e.index_action(e.action_index(a)) is a for a in view.legal_actions)
    assert set(np.flatnonzero(planes(vector, e.HAND))) == {e.card_id(c) for c in view.hand}
    assert set(np.flatnonzero(planes(vector, e.UNBEATEN))) == {e.card_id(c) for c in view.unbeaten}
    # Every card of the deck is in exactly one place this seat knows of, or unseen.
    under_stock = np.zeros(e.CARDS)
    if view.trump_drawn_by is None and view.stock_size:
        under_stock[e.card_id(view.trump_card)] = 1
    places = (planes(vector, e.HAND) + planes(vector, e.UNBEATEN) + planes(vector, e.BEATEN)
              + planes(vector, e.COVERS) + planes(vector, e.DISCARD) + planes(vector, e.KNOWN, e.SEATS - 1)
              + planes(vector, e.UNSEEN) + under_stock)
    assert sorted(np.flatnonzero(places)) == sorted(e._DECK_IDS[view.rules.deck]) and places.max() == 1
    assert vector[e.TRUMP + int(view.trump)] == 1 and vector[e.TURN_UP + e.card_id(view.trump_card)] == 1
    n = len(view.hand_sizes)
    for seat in range(n):
        assert vector[e.HAND_SIZES + (seat - view.seat) % n] == pytest.approx(view.hand_sizes[seat] / view.rules.deck)
    assert vector[e.ROLE + e.ROLES.index(view.role)] == 1 and vector[e.PLAYERS + n - 2] == 1
    assert vector[e.DEFENDER + (view.defender - view.seat) % n] == 1


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("pagat-pairs", 4)])
def test_the_vector_follows_the_documented_layout_and_the_reward_goes_to_the_durak(preset: str, players: int) -> None:
    env = bots_sdk.rl.env(preset=preset, players=players)
    rng = np.random.default_rng(3)
    for deal in range(3):
        env.reset(seed=deal)
        for agent in env.agent_iter():
            observed, reward, over, truncated, info = env.last()
            view = info["observation"]
            assert isinstance(view, Observation) and view.seat == int(agent.split("_")[1])
            check_layout(view, observed)
            if over:
                outcome = view.outcome
                assert outcome is not None and not truncated
                losers = outcome.losers if outcome.losers is not None else [outcome.durak]
                assert reward == (0 if outcome.draw else -1 if view.seat in losers else 1)
                env.step(None)
                continue
            assert view.my_turn and observed["action_mask"].sum() == len(view.legal_actions)
            env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
        assert env.agents == []
    env.reset(seed=0)
    with pytest.raises(ValueError, match="is illegal"):
        env.step(e.action_index(next(iter(env.infos[env.agent_selection]["observation"].legal_actions))) ^ 1)


def test_one_seat_against_reference_bots_and_bot_folders() -> None:
    one = bots_sdk.rl.single_agent(opponents=["gentle"])
    first, again = one.reset(seed=5)[0], one.reset(seed=5)[0]
    assert one.observation_space.contains(first)
    assert all(np.array_equal(first[key], again[key]) for key in first), "a seed repeats the deal and the seat"
    results = []
    for game in range(20):
        observed, info = one.reset(seed=game)
        over, reward = False, 0.0
        while not over:
            assert info["observation"].seat == info["seat"] and info["observation"].my_turn
            observed, reward, over, _, info = one.step(int(np.flatnonzero(observed["action_mask"])[0]))
        results.append(reward)
    assert set(results) <= {-1.0, 0.0, 1.0} and results.count(-1.0) > 10, "always the first legal action loses"
    one.close()

    node = shutil.which("node") and (NODE_BOT / "node_modules").is_dir()
    folders = [str(POLICY_BOT), *([str(NODE_BOT)] if node else [])]
    three = bots_sdk.rl.single_agent(opponents=folders, players=len(folders) + 1)
    try:
        observed, info = three.reset(seed=1, options={"seat": 0})
        assert {bot.name for bot in three.opponents.values()} == {"rl-policy", "node-example"} if node else True
        over = False
        while not over:
            observed, _, over, _, info = three.step(int(np.flatnonzero(observed["action_mask"])[-1]))
        assert info["observation"].outcome is not None
    finally:
        three.close()
