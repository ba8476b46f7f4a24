"""The figures a strength test shows, computed by ``arena.ratings.sprt`` (not re-derived here).

``sprt()`` gives the LLR, the decision, and Elo estimates that allow for the
early stop (median-unbiased Elo, the sequential 95 % interval, LOS). Those
estimates come from a Brownian model of the LLR whose variance is the data's,
and its root search gives up at the ±1000 search limit when it finds no root.
That happens where Durak often is: pairs that are mostly split (near-equal
deterministic bots split 90 % of duplicate pairs) give, for instance,
[4, 4, 108, 3, 1] -> Elo -1000 with interval [-1000, 26], and every all-split
start gives a collapsed interval at -1000; a few pairs all won give +1000.
When the point estimate sits at the search limit or its interval is empty,
the page shows the fixed-length estimate of ``elo_from_results`` instead and
says so; the LLR and the decision always come from ``sprt()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.ratings.sprt import ELO_LIMIT, Decision, elo_from_results, sprt


@dataclass(frozen=True)
class Figures:
    """One update of a test: the LLR against its bounds, the decision, and the Elo difference of B over A."""

    llr: float
    lower: float
    upper: float
    decision: Decision | None
    elo: float
    elo_low: float
    elo_high: float
    los: float
    estimate: str
    """'sequential' (from ``sprt()``) or 'fixed' (``elo_from_results``, see the module docstring)."""


def degenerate(elo: float, low: float, high: float) -> bool:
    """The sequential search failed: a point estimate at the search limit or outside its interval, or no interval."""
    return abs(elo) >= ELO_LIMIT or not (low < high and low <= elo <= high)


def figures(results: Sequence[float], elo0: float, elo1: float, alpha: float, beta: float) -> Figures:
    """The test's figures for pentanomial (pairs) or trinomial (games) ``results``, low to high."""
    result = sprt(results, elo0, elo1, alpha=alpha, beta=beta, model="logistic")
    elo, (low, high), los, estimate = result.elo, result.ci, result.los, "sequential"
    if degenerate(elo, low, high):
        fixed = elo_from_results(results)
        elo, low, high, los = fixed.elo, fixed.elo - fixed.half_width, fixed.elo + fixed.half_width, fixed.los
        estimate = "fixed"
    return Figures(
        llr=result.llr, lower=result.lower, upper=result.upper, decision=result.decision,
        elo=elo, elo_low=low, elo_high=high, los=los, estimate=estimate,
    )
