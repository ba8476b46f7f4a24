"""Small statistics for match summaries: rates with honest intervals.

>>> low, high = wilson_interval(30, 100)
>>> round(low, 3), round(high, 3)
(0.219, 0.396)
"""

from __future__ import annotations

import math
from typing import Final

Z95: Final = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution: every interval of the project (durak rates,
ratings, duplicate comparisons, game lengths) uses this one value."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) for a rate of ``successes`` in ``trials``.

    Wilson's interval stays inside [0, 1] and behaves at rates near 0 or 1 and at
    small counts, where the plain normal approximation says nonsense.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def format_rate(successes: int, trials: int) -> str:
    """``"31.2 % (28.1-34.5)"``: a rate with its 95 % interval, for tables."""
    if trials <= 0:
        return "-"
    low, high = wilson_interval(successes, trials)
    return f"{100 * successes / trials:.1f} % ({100 * low:.1f}-{100 * high:.1f})"
