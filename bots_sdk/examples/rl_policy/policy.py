"""A linear softmax policy over the legal actions, in numpy only.

Each legal action is described by a few features read from the observation vector and the action's
integer (the layout of docs/rl.md, ``bots_sdk.rl.encoding``): its kind, the rank of the card it plays and
whether that card is a trump, how a defence spends its card, how much is left in the stock. The policy
scores every legal action as ``features @ weights`` and picks by softmax (training) or the best (play).
Only features that differ between the actions of one decision can move a softmax, so what describes the
table (the stock, the hand sizes) enters multiplied by the kind of action. Features that do not depend on
the table size let a policy trained at two seats play at six.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bots_sdk.rl import encoding as e

KINDS = ("attack", "transfer", "take", "pass", "exchange", "defend")
FEATURES = (*KINDS, "rank", "trump", "trump rank", "defence gap", "trump on plain", "same rank in hand",
            "stock x attack", "stock x take", "stock x trump", "my cards x take", "their cards x pass",
            "room x attack")
Floats = npt.NDArray[np.float64]


def features(vector: npt.NDArray[np.float32], legal: npt.NDArray[np.int64]) -> Floats:
    """One row of ``FEATURES`` per legal action integer."""
    rows = np.zeros((len(legal), len(FEATURES)))
    kind = np.select([legal < e.TRANSFER, legal < e.TAKE, legal == e.TAKE, legal == e.PASS, legal == e.EXCHANGE],
                     [0, 1, 2, 3, 4], 5)
    rows[np.arange(len(legal)), kind] = 1
    card = np.where(legal < e.TAKE, legal % e.CARDS, np.where(legal >= e.DEFEND, (legal - e.DEFEND) % e.CARDS, -1))
    target = np.where(legal >= e.DEFEND, (legal - e.DEFEND) // e.CARDS, -1)
    has_card = card >= 0
    trump = int(np.argmax(vector[e.TRUMP:e.TRUMP + 4]))
    rank = np.where(has_card, card % 13, 0) / 12
    is_trump = has_card & (card // 13 == trump)
    rows[:, 6] = rank
    rows[:, 7] = is_trump
    rows[:, 8] = rank * is_trump
    defends = target >= 0
    rows[:, 9] = np.where(defends, (card % 13 - target % 13) / 12, 0) * (card // 13 == target // 13)
    rows[:, 10] = defends & is_trump & (target // 13 != trump)
    hand = vector[e.HAND:e.HAND + e.CARDS].reshape(4, 13).sum(axis=0)
    rows[:, 11] = np.where(has_card, hand[np.maximum(card, 0) % 13] - 1, 0) / 3
    stock = vector[e.STOCK]
    rows[:, 12] = stock * (kind == 0)
    rows[:, 13] = stock * (kind == 2)
    rows[:, 14] = stock * is_trump
    rows[:, 15] = vector[e.HAND_SIZES] * 4 * (kind == 2)
    rows[:, 16] = vector[e.HAND_SIZES + 1] * 4 * (kind == 3)
    rows[:, 17] = vector[e.ROOM] * (kind == 0)
    return rows


class Policy:
    def __init__(self, weights: Floats | None = None) -> None:
        self.weights = np.zeros(len(FEATURES)) if weights is None else np.asarray(weights, dtype=np.float64)

    def probabilities(self, rows: Floats) -> Floats:
        scores = rows @ self.weights
        scores = np.exp(scores - scores.max())
        result: Floats = scores / scores.sum()
        return result

    def best(self, vector: npt.NDArray[np.float32], legal: npt.NDArray[np.int64]) -> int:
        return int(legal[int(np.argmax(features(vector, legal) @ self.weights))])

    def save(self, path: Path, **facts: Any) -> None:
        path.write_text(json.dumps({"features": FEATURES, "weights": self.weights.round(4).tolist(), **facts},
                                   indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> Policy:
        data = json.loads(path.read_text())
        if list(data.get("features", [])) != list(FEATURES):
            raise ValueError(f"{path}: trained on other features ({data.get('features')}); train it again")
        return cls(np.array(data["weights"], dtype=np.float64))
