"""How much duplicate deals narrow a bot's interval: the correlation of its results within a duplicate set.

A duplicate set is one shuffled deck played in every seat rotation, N games for
N seats. Let X_r be 1 when a bot was the durak in rotation r. docs/ratings.md
section 5: Var(mean of a set) = sigma^2 (1 + (N-1) rho) / N, so duplicate sets
need ``1 + (N-1) rho`` times the games that independent deals need for the same
interval (``1 + rho`` for 2-player pairs). Card luck makes rho negative: the
good hand changes owner between the rotations.

rho is estimated as the intraclass correlation of a one-way analysis of
variance with the sets as classes, pooled over groups (one group = one bot in
one match), each group centred on its own mean, because a bot's durak rate
depends on the opponents of that match and that is not luck of the deal. Per
group, the number of sets k, the bot's duraks D and the sum of squared durak
counts per set SS give the between-set and within-set sums of squares,
SSB = SS/N - D^2/(kN) and SSW = D - SS/N.

The interval is the wider of two (their union), because durak results are 0/1,
not normal, and each interval fails in one corner:

- the F interval of the intraclass correlation (Fisher; Searle 1971): MSB/MSW
  divided by E[MSB]/E[MSW] = (1 + (N-1) rho)/(1 - rho) follows F(df_between,
  df_within) for normal data. Simulated pairs (1000 runs each) cover the true
  rho 93-95 % of the time at durak rates near 1/2, 98-99 % when one bot loses
  85-95 % of its games, but only 75 % when rho is near -1 (the deal decides
  almost every game);
- a jackknife over sets on Fisher's scale z = 1/2 ln(MSB/MSW) (the same ratio):
  94-97 % near 1/2 and near rho = -1, but 73-88 % for lopsided pairings with
  few duraks.

The union covers 95-100 % in all those cases. Only per-group histograms
leave the database (how many sets of the group had each durak count), so the
jackknife's leave-one-set-out values come in closed form, one per histogram
cell. ``tests/bench/duplicate_correlation.py`` shows both intervals
and a bootstrap over sets on real games.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.stats import f as f_distribution  # type: ignore[import-untyped,unused-ignore]

from bots_sdk.stats import Z95

LEVEL = 0.95


@dataclass(frozen=True)
class SetSums:
    """The analysis of variance's sums over duplicate sets of ``size`` games (additive over groups)."""

    size: int
    """N: games in a set, the table size."""
    sets: int
    groups: int
    between: float
    """SSB: sum over sets of N (set mean - group mean)^2."""
    within: float
    """SSW: sum over games of (X - set mean)^2."""

    @classmethod
    def of_group(cls, size: int, set_duraks: Sequence[int]) -> SetSums:
        """The sums of one group from its durak count in each set (how the SQL computes them, for checks).

        >>> SetSums.of_group(2, [1, 1, 1])  # the deal alone decided: one durak per pair, never two
        SetSums(size=2, sets=3, groups=1, between=0.0, within=1.5)
        """
        k = len(set_duraks)
        duraks = sum(set_duraks)
        squares = sum(s * s for s in set_duraks)
        return cls(size, k, 1, squares / size - duraks * duraks / (k * size), duraks - squares / size)

    def __add__(self, other: SetSums) -> SetSums:
        if other.size != self.size:
            raise ValueError(f"sets of {self.size} and of {other.size} games do not pool")
        return SetSums(self.size, self.sets + other.sets, self.groups + other.groups,
                       self.between + other.between, self.within + other.within)

    @property
    def df_between(self) -> int:
        return self.sets - self.groups

    @property
    def df_within(self) -> int:
        return self.sets * (self.size - 1)


def pooled(size: int, parts: Iterable[SetSums]) -> SetSums:
    total = SetSums(size, 0, 0, 0.0, 0.0)
    for part in parts:
        total = total + part
    return total


@dataclass(frozen=True)
class Correlation:
    """rho with its 95 % interval, and what it means for the games a duplicate design needs."""

    size: int
    sets: int
    rho: float
    low: float
    high: float

    def factor_of(self, rho: float) -> float:
        """Games needed with duplicate sets / games needed with independent deals, for the same interval."""
        return max(0.0, 1 + (self.size - 1) * rho)

    @property
    def factor(self) -> float:
        return self.factor_of(self.rho)

    @property
    def factor_low(self) -> float:
        return self.factor_of(self.low)

    @property
    def factor_high(self) -> float:
        return self.factor_of(self.high)


def _rho_of_ratio(ratio: float, size: int) -> float:
    """rho from theta = (1 + (N-1) rho) / (1 - rho), the ratio of the expected mean squares."""
    if math.isinf(ratio):
        return 1.0
    return (ratio - 1) / (ratio + size - 1)


def correlation(sums: SetSums, df_scale: float = 1.0) -> Correlation | None:
    """The intraclass correlation of ``sums`` with its F interval; None when the data cannot say.

    ``df_scale`` < 1 widens the interval when the groups are not independent: pooled over
    all bots of a table, the N bots of one set share its games (in 2-player games without
    draws one bot's results are the other's mirror), so the pooled interval counts each set
    once (``df_scale = 1/N``).

    >>> luck = SetSums.of_group(2, [1] * 50)
    >>> c = correlation(luck)
    >>> c.rho, c.factor
    (-1.0, 0.0)
    """
    n = sums.size
    df_b, df_w = sums.df_between * df_scale, sums.df_within * df_scale
    if n < 2 or sums.df_between < 1 or sums.df_within < 1:
        return None
    ms_b, ms_w = sums.between / sums.df_between, sums.within / sums.df_within
    if ms_b + (n - 1) * ms_w <= 1e-12:
        return None  # the bot was the durak in every game or in none: no variance to correlate
    rho = (ms_b - ms_w) / (ms_b + (n - 1) * ms_w)
    tail = (1 - LEVEL) / 2
    ratio = ms_b / ms_w if ms_w > 1e-12 else math.inf
    low_ratio = ratio / float(f_distribution.ppf(1 - tail, df_b, df_w))
    high_ratio = ratio * float(f_distribution.ppf(1 - tail, df_w, df_b))
    floor = -1 / (n - 1)
    return Correlation(n, sums.sets, max(floor, rho), max(floor, _rho_of_ratio(low_ratio, n)),
                       max(floor, _rho_of_ratio(high_ratio, n)))


def correlation_of_sets(
    size: int, group: Sequence[int] | npt.NDArray[np.int64], duraks: Sequence[int] | npt.NDArray[np.int64],
    count: Sequence[int] | npt.NDArray[np.int64], dependence: float = 1.0,
) -> Correlation | None:
    """rho from per-group histograms: ``count[i]`` sets of group ``group[i]`` had ``duraks[i]`` duraks.

    The interval is the union of the F interval and the jackknife's on Fisher's scale (see the
    module's docstring). ``dependence`` > 1 says the groups share sets (all N bots of a table,
    pooled): the F interval's degrees of freedom are divided by it and the jackknife's variance
    multiplied by it.

    >>> independent = correlation_of_sets(2, [0, 0, 0], [0, 1, 2], [25, 50, 25])
    >>> round(independent.rho, 3), independent.low < 0 < independent.high
    (0.005, True)
    """
    g = np.asarray(group, dtype=np.int64)
    s = np.asarray(duraks, dtype=np.float64)
    c = np.asarray(count, dtype=np.float64)
    if g.size == 0:
        return None
    n = float(size)
    ids, row_group = np.unique(g, return_inverse=True)
    k = np.bincount(row_group, c).astype(np.float64)
    d = np.bincount(row_group, s * c).astype(np.float64)
    ss = np.bincount(row_group, s * s * c).astype(np.float64)
    b = ss / n - d * d / (k * n)
    sums = SetSums(size, int(k.sum()), int(ids.size), float(b.sum()), float((d - ss / n).sum()))
    f_interval = correlation(sums, df_scale=1 / dependence)
    if f_interval is None:
        return None
    sets = round(sums.sets / dependence)  # pooled, each set is counted once per bot: report the deals
    jackknife = _jackknife_z(sums, k[row_group], d[row_group], ss[row_group], b[row_group], s, c)
    if jackknife is None:
        return dataclasses.replace(f_interval, sets=sets)
    ms_b, ms_w = sums.between / sums.df_between, sums.within / sums.df_within
    z = 0.5 * math.log(ms_b / ms_w)
    half = Z95 * math.sqrt(jackknife * dependence)
    floor = -1 / (size - 1)
    low = max(floor, _rho_of_ratio(math.exp(2 * (z - half)), size))
    high = max(floor, _rho_of_ratio(math.exp(2 * (z + half)), size))
    return Correlation(size, sets, f_interval.rho, min(low, f_interval.low), max(high, f_interval.high))


def _jackknife_z(
    sums: SetSums, k: npt.NDArray[np.float64], d: npt.NDArray[np.float64], ss: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64], s: npt.NDArray[np.float64], c: npt.NDArray[np.float64],
) -> float | None:
    """The jackknife variance of z = 1/2 ln(MSB/MSW), leaving out one set at a time (one value per histogram cell)."""
    n = float(sums.size)
    total = float(sums.sets)
    if total < 3 or sums.between <= 1e-12 or sums.within <= 1e-12:
        return None  # z is infinite (no variation between or within sets): the F interval alone speaks
    k1, d1, ss1 = k - 1, d - s, ss - s * s
    with np.errstate(divide="ignore", invalid="ignore"):
        b1 = np.where(k1 > 0, ss1 / n - d1 * d1 / np.where(k1 > 0, k1 * n, 1.0), 0.0)
    between = sums.between - b + b1
    within = sums.within - (s - s * s / n)
    df_b = sums.df_between - (k1 > 0)
    df_w = sums.df_within - (n - 1)
    if np.any(df_b < 1) or np.any(between <= 1e-12) or np.any(within <= 1e-12):
        return None
    z = 0.5 * np.log((between / df_b) / (within / df_w))
    mean = float((z * c).sum() / total)
    return float((total - 1) / total * ((z - mean) ** 2 * c).sum())
