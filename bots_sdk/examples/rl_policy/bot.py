"""The trained policy as a bot: ``durak play bots_sdk/examples/rl_policy random``, ``durak check`` it, submit it.

It encodes each observation exactly as the environment did in training (``bots_sdk.rl.encoding``) and
plays the legal action the policy scores best. ``policy.json`` beside it holds the weights ``train.py`` wrote.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from policy import Policy

from bots_sdk import Action, Bot, Observation, serve
from bots_sdk.rl.encoding import index_action, legal_indices, observation_vector

WEIGHTS = Path(__file__).resolve().parent / "policy.json"


class PolicyBot(Bot):
    name = "rl-policy"

    def __init__(self) -> None:
        self.policy = Policy.load(WEIGHTS)

    def choose_action(self, observation: Observation) -> Action:
        legal = np.array(legal_indices(observation))
        return index_action(self.policy.best(observation_vector(observation), legal))


if __name__ == "__main__":
    serve(PolicyBot())
