"""Train the policy against ``random`` with REINFORCE, numpy only, on one core: ``python train.py --seconds 60``.

Every episode is one game of the Gymnasium one-seat environment (``bots_sdk.rl.single_agent``). The
policy samples from its softmax; at the game's end each of its decisions moves the weights by the
reward (+1 not the durak, -1 the durak) less a running baseline, times the gradient of the chosen
action's log-probability, with a step that shrinks as games go by (large early to learn fast, small
later to settle). Then it plays ``--eval`` games greedily and writes the weights with the win
rate to ``policy.json`` (``--out``), where ``bot.py`` reads them.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from policy import Policy, features

import bots_sdk.rl

HERE = Path(__file__).resolve().parent


def train(seconds: float, seed: int = 0, rate: float = 0.2, opponents: tuple[str, ...] = ("random",),
          games: int | None = None) -> Policy:
    """A policy trained for ``seconds`` of wall time against ``opponents``, or ``games`` games if that is
    sooner (with a seed and a number of games, the same policy every time)."""
    env = bots_sdk.rl.single_agent(opponents=list(opponents))
    policy, rng = Policy(), np.random.default_rng(seed)
    baseline, played, deadline = 0.0, 0, time.perf_counter() + seconds
    observed, _ = env.reset(seed=seed)
    while time.perf_counter() < deadline and (games is None or played < games):
        gradient = np.zeros_like(policy.weights)
        over, reward = False, 0.0
        while not over:
            legal = np.flatnonzero(observed["action_mask"])
            rows = features(observed["observation"], legal)
            chances = policy.probabilities(rows)
            choice = rng.choice(len(legal), p=chances)
            gradient += rows[choice] - chances @ rows
            observed, reward, over, _, _ = env.step(int(legal[choice]))
        policy.weights += rate / np.sqrt(1 + played / 500) * (reward - baseline) * gradient
        baseline += 0.01 * (reward - baseline)
        played += 1
        observed, _ = env.reset()
    env.close()
    return policy


def win_rate(policy: Policy, games: int, seed: int = 1, opponents: tuple[str, ...] = ("random",)) -> float:
    """The share of ``games`` the greedy policy does not lose (a draw counts half)."""
    env = bots_sdk.rl.single_agent(opponents=list(opponents))
    score = 0.0
    for game in range(games):
        observed, _ = env.reset(seed=seed * 1_000_003 + game)
        over, reward = False, 0.0
        while not over:
            action = policy.best(observed["observation"], np.flatnonzero(observed["action_mask"]))
            observed, reward, over, _, _ = env.step(action)
        score += (reward + 1) / 2
    env.close()
    return score / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0, help="training time (default 60)")
    parser.add_argument("--eval", type=int, default=1000, help="games against random to measure it (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "policy.json")
    args = parser.parse_args()
    policy = train(args.seconds, args.seed)
    rate = win_rate(policy, args.eval)
    policy.save(args.out, trained_s=args.seconds, win_rate_vs_random=round(rate, 3), eval_games=args.eval)
    print(json.dumps({"trained_s": args.seconds, "win_rate_vs_random": round(rate, 3), "out": str(args.out)}))


if __name__ == "__main__":
    main()
