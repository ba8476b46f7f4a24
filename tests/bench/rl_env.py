"""The reinforcement-learning environment's speed, and the example policy's strength after its minute.

    python tests/bench/rl_env.py                 # 5 s per environment, then the example's 60 s of training
    python tests/bench/rl_env.py --json --train-seconds 60 --eval 2000

Figures (docs/development.md, Benchmarks): ``aec_steps_per_s``, the PettingZoo environment's steps per
second (``last()`` with the observation vector and the mask, a random legal action, ``step``) over whole
two-player games; ``single_steps_per_s``, the Gymnasium one-seat wrapper's learner steps per second
against ``random`` (its opponent's moves included in the time); ``win_rate`` of the example
(``bots_sdk/examples/rl_policy``) against ``random`` after ``--train-seconds`` of training, over
``--eval`` greedy games (a draw counts half), with its 95 % interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

import bots_sdk.rl

EXAMPLE = Path(__file__).resolve().parents[2] / "bots_sdk" / "examples" / "rl_policy"


def aec_steps_per_s(seconds: float, players: int) -> float:
    env = bots_sdk.rl.env(preset="classic", players=players)
    rng = np.random.default_rng(0)
    steps, deal, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=deal)
        deal += 1
        for _agent in env.agent_iter():
            observed, _, over, truncated, _ = env.last()
            env.step(None if over or truncated else int(rng.choice(np.flatnonzero(observed["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - started)


def single_steps_per_s(seconds: float) -> float:
    env = bots_sdk.rl.single_agent(opponents=["random"])
    rng = np.random.default_rng(0)
    steps, started = 0, time.perf_counter()
    observed, _ = env.reset(seed=0)
    while time.perf_counter() - started < seconds:
        observed, _, over, _, _ = env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
        steps += 1
        if over:
            observed, _ = env.reset()
    return steps / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per environment speed figure")
    parser.add_argument("--train-seconds", type=float, default=60.0, help="the example's training time")
    parser.add_argument("--eval", type=int, default=1000, help="greedy games against random to measure it")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object last")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.train_seconds, args.eval = 0.3, 1.0, 20
    sys.path.insert(0, str(EXAMPLE))
    from train import train, win_rate  # the example's own script

    figures: dict[str, float] = {}
    for players in (2, 4):
        print(f"PettingZoo environment, {players} players, {args.seconds:.0f} s ...", file=sys.stderr)
        figures[f"aec_steps_per_s_{players}p"] = round(aec_steps_per_s(args.seconds, players))
    print("Gymnasium one seat against random ...", file=sys.stderr)
    figures["single_steps_per_s"] = round(single_steps_per_s(args.seconds))
    print(f"training the example for {args.train_seconds:.0f} s, then {args.eval} games ...", file=sys.stderr)
    rate = win_rate(train(args.train_seconds), args.eval)
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / args.eval)
    figures.update(train_s=args.train_seconds, eval_games=args.eval, win_rate=round(rate, 3),
                   win_rate_low=round(max(rate - half, 0), 3), win_rate_high=round(min(rate + half, 1), 3))
    for key, value in figures.items():
        print(f"{key:>24} {value:>10}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
