"""Is version B stronger than A? Elo estimates and sequential probability ratio tests (SPRT).

An author's test plays B against A in two-player duplicate pairs (the same deal
twice, seats swapped), unrated, and stops as soon as the evidence is strong
enough either way (docs/ratings.md section 9). The statistics are those of fishtest and
cutechess-cli, re-derived here from the mathematics (fishtest has no licence,
cutechess is GPL):

* results are frequencies from low to high: a trinomial [L, D, W] of scores
  0, 1/2, 1 (games, or pairs scored 0, 1/2, 1), or a pentanomial
  [LL, LD+DL, LW+DD+WL, DW+WD, WW] of pair scores 0, 1/4, 1/2, 3/4, 1;
* the generalized SPRT (GSPRT) compares the best multinomial whose expected
  score is s1 with the best one whose expected score is s0, so it needs no
  model of draws; logistic Elo maps a score s to -400 log10(1/s - 1);
* the classic SPRT in the BayesElo model (cutechess) and BayesElo bounds
  (older fishtest tests) are there to compare with those tools.

Zero counts are replaced by 1e-3 before any GSPRT or estimate (as fishtest
does): it keeps the constrained maximum-likelihood distribution inside the
simplex and the variance positive, and changes nothing measurable otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq  # type: ignore[import-untyped,unused-ignore]
from scipy.special import log_ndtr, ndtr, ndtri  # type: ignore[import-untyped,unused-ignore]

FloatArray = npt.NDArray[np.float64]

ZERO_COUNT = 1e-3
"""What a zero frequency counts as (see the module docstring)."""
ELO_LIMIT = 1000.0
"""The sequential estimate searches true Elo differences within ±1000: beyond it a test is meaningless."""

Decision = Literal["H0", "H1"]


def logistic_score(elo: float) -> float:
    """Expected score of an Elo difference: 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def logistic_elo(score: float) -> float:
    """The Elo difference of an expected score, finite only strictly between 0 and 1."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's stopping bounds on the LLR: accept H0 below ln(β/(1-α)), H1 above ln((1-β)/α).

    >>> [round(x, 3) for x in bounds(0.05, 0.05)]
    [-2.944, 2.944]
    """
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _distribution(results: Sequence[float]) -> tuple[float, FloatArray, FloatArray]:
    """Count, scores and empirical frequencies of a trinomial or pentanomial."""
    counts = np.asarray(results, dtype=np.float64)
    if counts.shape not in ((3,), (5,)):
        raise ValueError("results are 3 frequencies (L, D, W) or 5 (pentanomial pairs), low to high")
    if np.any(counts < 0) or not np.all(np.isfinite(counts)):
        raise ValueError("frequencies must be finite and non-negative")
    counts = np.where(counts == 0, ZERO_COUNT, counts)
    total = float(counts.sum())
    scores = np.linspace(0.0, 1.0, counts.size)
    return total, scores, counts / total


def _mean_variance(scores: FloatArray, probabilities: FloatArray) -> tuple[float, float]:
    mean = float(probabilities @ scores)
    return mean, float(probabilities @ (scores - mean) ** 2)


class EloEstimate(NamedTuple):
    """An Elo difference with the half-width of its 95 % interval and the likelihood of superiority."""

    elo: float
    half_width: float
    los: float


def elo_from_results(results: Sequence[float]) -> EloEstimate:
    """Elo, ±95 % and LOS of a fixed-length match from its trinomial or pentanomial results.

    The mean score is asymptotically normal with the empirical variance; the
    interval is that of the score mapped through the logistic curve (hence
    slightly asymmetric in Elo, reported as half its width), and LOS is the
    normal probability that the true score exceeds 1/2.
    """
    total, scores, frequencies = _distribution(results)
    mean, variance = _mean_variance(scores, frequencies)
    error = math.sqrt(variance / total)
    z = float(ndtri(0.975))

    def elo(score: float) -> float:
        return logistic_elo(min(max(score, ZERO_COUNT), 1 - ZERO_COUNT))

    return EloEstimate(
        elo=elo(mean),
        half_width=(elo(mean + z * error) - elo(mean - z * error)) / 2,
        los=float(ndtr((mean - 0.5) / error)),
    )


def elo_from_score(losses: float, draws: float, wins: float) -> EloEstimate:
    """Elo, ±95 % and LOS from losses, draws and wins (B's point of view).

    >>> [round(x, 4) for x in elo_from_score(45, 0, 55)]
    [34.8597, 69.3736, 0.8426]
    """
    return elo_from_results([losses, draws, wins])


def draw_elo(losses: float, draws: float, wins: float, prior: float = 0.0) -> float:
    """BayesElo's drawElo fitted exactly to the win and loss rates (``prior`` pseudo-games added to each count).

    In BayesElo P(win) = f(Δ - drawElo) and P(loss) = f(-Δ - drawElo), f(x) = 1 / (1 + 10^(-x/400)),
    so the two observed rates give Δ and drawElo in closed form.
    """
    w, l, d = wins + prior, losses + prior, draws + prior
    total = w + l + d
    p_win, p_loss = w / total, l / total
    if not (0 < p_win < 1 and 0 < p_loss < 1):
        raise ValueError("drawElo needs both wins and losses (or a prior)")
    return 200.0 * math.log10((1 - p_loss) / p_loss * (1 - p_win) / p_win)


def _bayeselo_probabilities(bayeselo: float, draw: float) -> tuple[float, float, float]:
    """(loss, draw, win) probabilities of a BayesElo difference at a given drawElo."""
    win = 1.0 / (1.0 + 10.0 ** ((draw - bayeselo) / 400.0))
    loss = 1.0 / (1.0 + 10.0 ** ((draw + bayeselo) / 400.0))
    return loss, 1.0 - win - loss, win


def bayeselo_to_elo(bayeselo: float, draw: float) -> float:
    """The logistic Elo of a BayesElo difference: the Elo of its expected score at that drawElo."""
    _, draw_p, win = _bayeselo_probabilities(bayeselo, draw)
    return logistic_elo(win + draw_p / 2)


def _constrained_mle(scores: FloatArray, frequencies: FloatArray, s: float) -> FloatArray:
    """The distribution on ``scores`` of largest likelihood for the observed frequencies whose mean is s.

    Maximising sum f_i ln p_i subject to sum p_i = 1 and sum p_i (a_i - s) = 0
    with a Lagrange multiplier x gives p_i = f_i / (1 + x (a_i - s)); x solves
    sum f_i (a_i - s) / (1 + x (a_i - s)) = 0, whose left side decreases in x on
    the interval where every 1 + x (a_i - s) > 0, so brentq finds it there.
    """
    d = scores - s
    if not d.min() < 0 < d.max():
        raise ValueError(f"expected score {s} is not strictly inside the range of scores")
    low, high = -1.0 / d.max(), -1.0 / d.min()
    margin = 1e-12 * (high - low)

    def secular(x: float) -> float:
        return float(np.sum(frequencies * d / (1.0 + x * d)))

    x = float(brentq(secular, low + margin, high - margin, xtol=1e-15, rtol=4 * np.finfo(float).eps))
    p: FloatArray = frequencies / (1.0 + x * d)
    total: FloatArray = p / p.sum()
    return total


def llr_logistic(results: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1: Elo = elo1 against H0: Elo = elo0 (logistic Elo).

    For trinomial (games) or pentanomial (pairs) results: each hypothesis is the
    multinomial of largest likelihood with that expected score.

    >>> round(llr_logistic([10789, 19328, 33806, 19402, 10543], -3, 1), 4)
    2.1311
    """
    total, scores, frequencies = _distribution(results)
    p0 = _constrained_mle(scores, frequencies, logistic_score(elo0))
    p1 = _constrained_mle(scores, frequencies, logistic_score(elo1))
    return total * float(frequencies @ (np.log(p1) - np.log(p0)))


def _bayeselo_bounds(losses: float, draws: float, wins: float, elo0: float, elo1: float) -> tuple[float, float]:
    counts = [ZERO_COUNT if c == 0 else c for c in (losses, draws, wins)]
    draw = draw_elo(*counts)
    return bayeselo_to_elo(elo0, draw), bayeselo_to_elo(elo1, draw)


def llr_bayeselo(losses: float, draws: float, wins: float, elo0: float, elo1: float) -> float:
    """The GSPRT LLR with bounds given in BayesElo, converted to logistic Elo at the drawElo of the data.

    >>> round(llr_bayeselo(591, 2163, 716, 0, 6), 3)
    2.986
    """
    low, high = _bayeselo_bounds(losses, draws, wins, elo0, elo1)
    return llr_logistic([losses, draws, wins], low, high)


def llr_bayeselo_model(losses: float, draws: float, wins: float, elo0: float, elo1: float, prior: float = 0.5) -> float:
    """The classic SPRT LLR in the BayesElo model, as cutechess-cli computes it.

    The nuisance drawElo is estimated from the data with ``prior`` pseudo-games
    per result (Jeffreys' 1/2, which keeps it finite without draws or losses);
    the bounds, in logistic Elo, become BayesElo by the slope of the expected
    score at zero, 4x / (1 + x)^2 with x = 10^(-drawElo/400); the LLR compares
    the two fully specified trinomials.
    """
    draw = draw_elo(losses, draws, wins, prior)
    x = 10.0 ** (-draw / 400.0)
    slope = 4 * x / (1 + x) ** 2
    p0 = _bayeselo_probabilities(elo0 / slope, draw)
    p1 = _bayeselo_probabilities(elo1 / slope, draw)
    return sum(n * math.log(b / a) for n, a, b in zip((losses, draws, wins), p0, p1) if n)


def _log_normal_mass(high: FloatArray, low: FloatArray) -> FloatArray:
    """ln(Φ(high) - Φ(low)) for high >= low, accurate in both tails."""
    upper = low > 0  # both in the upper tail: use the mirror image, Φ(-low) - Φ(-high)
    a = np.where(upper, -low, high)
    b = np.where(upper, -high, low)
    la, lb = log_ndtr(a), log_ndtr(b)
    with np.errstate(divide="ignore"):
        out: FloatArray = la + np.log1p(-np.exp(np.minimum(lb - la, 0.0)))
    return out


def _worse_outcome(mu: float, var: float, lower: float, upper: float, time: float, level: float) -> float:
    """P(a Brownian LLR path does worse than the observed test), for drift mu and variance var per unit time.

    The path X starts at 0 and stops at ``lower`` (accept H0) or ``upper``
    (accept H1). The observed test stands at ``level`` after ``time`` samples.
    A worse outcome is: stopping at ``lower`` before ``time``, or still running
    at ``time`` below ``level``. Let q be the density of X at ``time`` for the
    paths still running; by the method of images (period 2L, L = upper - lower)
    and Girsanov's change of drift (factor e^(γx - γ² var time / 2), γ = mu/var)
    its integrals are sums of normal masses. Then

        P(worse) = h(0) - ∫ q h + ∫_lower^level q,

    h(x) being the probability of leaving at ``lower`` first from x (the scale
    function), since paths still running at ``time`` leave later.
    """
    width = upper - lower
    sd = math.sqrt(var * time)
    shift = mu * time
    gamma = mu / var
    if abs(gamma * width) < 1e-7:  # no drift to speak of: h is linear; nudging γ changes P by < 1e-7
        gamma = math.copysign(1e-7, gamma or 1.0) / width
        shift = gamma * var * time
    reach = math.ceil((abs(shift) + 12 * sd + abs(level)) / (2 * width)) + 2
    k = np.arange(-reach, reach + 1, dtype=np.float64)
    centres = np.concatenate([2 * k * width, 2 * lower + 2 * k * width])
    signs = np.concatenate([np.ones_like(k), -np.ones_like(k)])

    def integral(theta: float, top: float, log_factor: float) -> float:
        """factor * ∫_lower^top e^((theta - γ) x) q(x) dx: each image term is e^(theta c) times a normal mass."""
        drift = theta * var * time  # the mean shift of the tilted normal
        masses = _log_normal_mass((top - centres - drift) / sd, (lower - centres - drift) / sd)
        log_terms = log_factor + theta * centres + masses
        largest = float(np.max(log_terms))
        if largest == -np.inf:
            return 0.0
        return float(np.sum(signs * np.exp(log_terms - largest))) * math.exp(largest)

    below = integral(gamma, level, 0.0)  # ∫_lower^level q
    if gamma > 0:
        # h(x) = (e^(-2γ(x - lower)) - e^(-2γL)) / (1 - e^(-2γL))
        tail = math.exp(-2 * gamma * width)
        scale = -math.expm1(-2 * gamma * width)
        h0 = (math.exp(2 * gamma * lower) - tail) / scale
        qh = (integral(-gamma, upper, 2 * gamma * lower) - tail * integral(gamma, upper, 0.0)) / scale
    else:
        # h(x) = (1 - e^(2γ(upper - x))) / (1 - e^(2γL))
        scale = -math.expm1(2 * gamma * width)
        h0 = -math.expm1(2 * gamma * upper) / scale
        qh = (integral(gamma, upper, 0.0) - integral(-gamma, upper, 2 * gamma * upper)) / scale
    return min(max(h0 - qh + below, 0.0), 1.0)


@dataclass(frozen=True)
class SprtResult:
    """The state of a sequential test: its LLR against the bounds, and Elo estimates that allow for the stopping.

    ``elo`` is median-unbiased and ``ci`` is the confidence interval of the
    sequential test (the true Elo at which the observed outcome would be the
    median, or the 2.5 % / 97.5 % quantile, of all outcomes), and ``los`` is
    the probability of an outcome worse than this one if the versions were
    equal: a naive fixed-length estimate overstates a test that stopped early.
    """

    llr: float
    lower: float
    upper: float
    decision: Decision | None
    elo: float
    ci: tuple[float, float]
    los: float
    elo0: float
    elo1: float
    """The bounds as tested, in logistic Elo (converted from BayesElo if so given)."""


def sprt(
    results: Sequence[float],
    elo0: float,
    elo1: float,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
    model: Literal["logistic", "bayeselo"] = "logistic",
    level: float = 0.95,
) -> SprtResult:
    """The GSPRT of H1: Elo = elo1 against H0: Elo = elo0 on trinomial or pentanomial results.

    ``model="bayeselo"`` takes the bounds in BayesElo (trinomial results only)
    and converts them to logistic Elo at the drawElo of the data. The decision
    uses Wald's bounds. The Elo estimates model the LLR as a Brownian motion
    stopped at the bounds: with N results and an empirical variance v, the LLR
    grows per result by ((s - (s0 + s1)/2)(s1 - s0) / v_s) with variance
    (s1 - s0)² / v_s, where s is the true expected score and
    v_s = v + (s - mean)² the variance of the best distribution with mean s.
    """
    if model == "bayeselo":
        if len(results) != 3:
            raise ValueError("BayesElo bounds need trinomial results (L, D, W)")
        elo0, elo1 = _bayeselo_bounds(results[0], results[1], results[2], elo0, elo1)
    if not elo0 < elo1:
        raise ValueError("elo0 must be below elo1")
    if not 0 < level < 1:
        raise ValueError("level must lie strictly between 0 and 1")
    lower, upper = bounds(alpha, beta)
    llr = llr_logistic(results, elo0, elo1)
    decision: Decision | None = "H1" if llr >= upper else "H0" if llr <= lower else None

    total, scores, frequencies = _distribution(results)
    mean, variance = _mean_variance(scores, frequencies)
    s0, s1 = logistic_score(elo0), logistic_score(elo1)

    def drift_variance(s: float) -> tuple[float, float]:
        v = variance + (s - mean) ** 2
        return (s - (s0 + s1) / 2) * (s1 - s0) / v, (s1 - s0) ** 2 / v

    # the observed point of the Brownian path; a test past a bound is taken where its line crossed it
    slope, _ = drift_variance(mean)
    time, position = total, total * slope
    if position > upper or position < lower:
        position = upper if position > upper else lower
        time = position / slope

    def worse(elo: float) -> float:
        mu, var = drift_variance(logistic_score(elo))
        return _worse_outcome(mu, var, lower, upper, time, position)

    def quantile(p: float) -> float:
        """The true Elo at which this outcome has probability p of being beaten by a worse one: worse = 1 - p."""
        centre, spread = (elo0 + elo1) / 2, elo1 - elo0
        reach = 30.0
        while True:
            low, high = max(centre - reach * spread, -ELO_LIMIT), min(centre + reach * spread, ELO_LIMIT)
            f_low, f_high = worse(low) - (1 - p), worse(high) - (1 - p)
            if f_low * f_high <= 0:
                return float(brentq(lambda e: worse(e) - (1 - p), low, high, xtol=1e-10))
            if low <= -ELO_LIMIT and high >= ELO_LIMIT:
                return high if f_low > 0 else low
            reach *= 2

    tail = (1 - level) / 2
    return SprtResult(
        llr=llr,
        lower=lower,
        upper=upper,
        decision=decision,
        elo=quantile(0.5),
        ci=(quantile(tail), quantile(1 - tail)),
        los=worse(0.0),
        elo0=elo0,
        elo1=elo1,
    )
