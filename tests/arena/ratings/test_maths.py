"""The loser-choice rating model: P(durak), the K update, the provisional rule and the batch fit.

The vectors are docs/ratings.md section 10; the fit is checked against an
independent oracle (scipy.optimize.minimize on a separately written negative
log-likelihood, and the closed form for two players) and on games simulated
from known ratings.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import minimize  # type: ignore[import-untyped,unused-ignore]

from arena.ratings.maths import (
    PRIOR_MEAN,
    Fit,
    GameSet,
    expected_durak,
    fit,
    is_provisional,
    k_update,
    log_loss,
)

FloatArray = npt.NDArray[np.float64]
NAT = math.log(10) / 400


def simulate(true: FloatArray, games: int, seed: int) -> tuple[list[list[int]], list[int]]:
    """Tables of 2-6 distinct players drawn at random, the durak drawn from the model (Gumbel-max)."""
    rng = np.random.default_rng(seed)
    n = true.size
    tables: list[list[int]] = []
    duraks: list[int] = []
    for size in rng.integers(2, min(6, n) + 1, games):
        table = rng.choice(n, size=int(size), replace=False)
        durak = int(np.argmax(-NAT * true[table] + rng.gumbel(size=int(size))))
        tables.append(table.tolist())
        duraks.append(durak)
    return tables, duraks


def oracle_nll(ratings: FloatArray, tables: list[list[int]], duraks: list[int]) -> float:
    """-log-likelihood written game by game, independently of the library."""
    total = 0.0
    for table, durak in zip(tables, duraks):
        weights = [10 ** (-(ratings[p] - ratings[table[0]]) / 400) for p in table]
        total -= math.log(weights[durak] / sum(weights))
    return total


def mixed_games(seed: int = 3) -> tuple[FloatArray, list[list[int]], list[int]]:
    true = np.array([1300.0, 1420.0, 1500.0, 1550.0, 1610.0, 1700.0])
    tables, duraks = simulate(true, 400, seed)
    return true, tables, duraks


# expected_durak


def test_two_players_is_elo() -> None:
    assert expected_durak([1500, 1700]) == pytest.approx([1 - 0.24025, 0.24025], abs=5e-6)
    for diff in (-500.0, -35.0, 0.0, 120.0):
        elo_loss = 1 / (1 + 10 ** (diff / 400))  # Elo: P(A loses) for A rated diff above B
        assert expected_durak([1500 + diff, 1500])[0] == pytest.approx(elo_loss, rel=1e-12)


def test_expected_durak_sums_to_one_and_ignores_a_common_shift() -> None:
    ratings = [1400.0, 1550.0, 1600.0, 1820.0, 1333.0, 1500.0]
    p = expected_durak(ratings)
    assert sum(p) == pytest.approx(1.0, rel=1e-15)
    assert expected_durak([r + 777 for r in ratings]) == pytest.approx(p, rel=1e-12)
    assert p.index(max(p)) == ratings.index(min(ratings))


def test_expected_durak_survives_extreme_ratings() -> None:
    p = expected_durak([-50_000.0, 0.0, 90_000.0])
    assert p[0] == pytest.approx(1.0)
    assert all(math.isfinite(x) for x in p)


# k_update


def test_k_update_elo_vector() -> None:
    after = k_update([1500, 1700], 1, 32)  # 1500 beats 1700: 1700 is the durak
    assert after[0] - 1500 == pytest.approx(24.31, abs=0.005)
    assert after[1] - 1700 == pytest.approx(-24.31, abs=0.005)


def test_k_update_four_equal_bots() -> None:
    assert k_update([1500] * 4, 2, 32) == pytest.approx([1508, 1508, 1476, 1508], abs=1e-9)


def test_draw_leaves_ratings_unchanged() -> None:
    assert k_update([1400.0, 1600.0, 1555.0], None, 40) == [1400.0, 1600.0, 1555.0]


def test_per_seat_k() -> None:
    before = [1500.0, 1500.0, 1500.0]
    after = k_update(before, 0, [40, 32, 32])
    assert [a - b for a, b in zip(after, before)] == pytest.approx([40 * (1 / 3 - 1), 32 / 3, 32 / 3])


@given(
    st.lists(st.floats(min_value=0, max_value=4000, allow_nan=False), min_size=2, max_size=6),
    st.data(),
    st.floats(min_value=1, max_value=64),
)
def test_k_update_is_zero_sum_with_equal_k(ratings: list[float], data: st.DataObject, k: float) -> None:
    durak = data.draw(st.integers(min_value=0, max_value=len(ratings) - 1))
    after = k_update(ratings, durak, k)
    assert math.fsum(after) == pytest.approx(math.fsum(ratings), abs=1e-9)
    assert after[durak] <= ratings[durak]
    assert all(a >= r for i, (a, r) in enumerate(zip(after, ratings)) if i != durak)


@pytest.mark.parametrize(
    ("ratings", "durak", "k"),
    [([1500.0], 0, 32.0), ([1500.0] * 7, 0, 32.0), ([1500.0, 1500.0], 2, 32.0), ([1500.0, 1500.0], 0, [32.0])],
)
def test_k_update_rejects_bad_tables(ratings: list[float], durak: int, k: float | list[float]) -> None:
    with pytest.raises(ValueError, match=r"table|seat|K factors"):
        k_update(ratings, durak, k)


# is_provisional


def test_provisional_rule_limits() -> None:
    assert not is_provisional(55.0, 30)
    assert is_provisional(55.01, 1000)
    assert is_provisional(10.0, 29)


# GameSet


def test_from_tables_drops_draws_and_pads() -> None:
    games = GameSet.from_tables([[3, 1], [0, 1, 2, 3, 4, 5], [2, 0, 4], [1, 0]], [0, 5, None, 1], 6)
    assert len(games) == 3
    assert games.players.dtype == np.int32
    assert games.durak.dtype == np.int8
    assert games.players.tolist() == [[3, 1, -1, -1, -1, -1], [0, 1, 2, 3, 4, 5], [1, 0, -1, -1, -1, -1]]
    assert games.durak.tolist() == [0, 5, 1]
    assert games.games_per_player().tolist() == [2, 3, 1, 2, 1, 1]


@pytest.mark.parametrize(
    ("tables", "duraks", "n", "message"),
    [
        ([[0]], [0], 2, "2 to 6"),
        ([[0, 1, 2, 3, 4, 5, 6]], [0], 7, "2 to 6"),
        ([[0, 1]], [2], 2, "seat"),
        ([[0, 2]], [0], 2, "indices"),
        ([[0, 0]], [1], 2, "twice"),
        ([[0, 1], [1, 0]], [0], 2, "duraks"),
    ],
)
def test_from_tables_rejects_bad_games(tables: list[list[int]], duraks: list[int], n: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameSet.from_tables(tables, duraks, n)


def test_gameset_rejects_padding_inside_a_table() -> None:
    players = np.array([[0, -1, 1, -1, -1, -1]], dtype=np.int32)
    with pytest.raises(ValueError, match="left"):
        GameSet(players, np.array([0], dtype=np.int8), 2)


# fit: vectors and the closed form


def test_two_bots_without_prior() -> None:
    games = GameSet.from_tables([[0, 1]] * 100, [0] * 45 + [1] * 55, 2)  # A is the durak in 45 of 100
    result = fit(games, prior_sd=None)
    diff, se = result.difference(0, 1)
    assert diff == pytest.approx(34.86, abs=0.005)
    assert diff == pytest.approx(400 * math.log10(0.55 / 0.45), rel=1e-9)  # closed form: 400 log10(p / (1 - p))
    assert se == pytest.approx(34.9, abs=0.05)
    assert se == pytest.approx(1 / (NAT * math.sqrt(100 * 0.45 * 0.55)), rel=1e-9)  # Fisher information
    assert result.ratings.mean() == pytest.approx(PRIOR_MEAN)
    assert result.converged
    assert result.mean_se == 0.0


def test_three_bots_at_one_table_without_prior() -> None:
    games = GameSet.from_tables([[0, 1, 2]] * 100, [0] * 20 + [1] * 30 + [2] * 50, 3)
    result = fit(games, prior_sd=None, prior_mean=0.0)
    assert result.ratings == pytest.approx([76.54, 6.10, -82.64], abs=0.005)
    # the Luce closed form for one table: r_i - r_j = 400 log10(d_j / d_i)
    assert result.ratings[0] - result.ratings[2] == pytest.approx(400 * math.log10(50 / 20), rel=1e-9)


def test_fit_without_prior_needs_identified_ratings() -> None:
    games = GameSet.from_tables([[0, 1], [0, 2], [1, 2]], [1, 1, 1], 3)  # player 0 is never the durak
    with pytest.raises(ValueError, match="not identified"):
        fit(games, prior_sd=None)
    result = fit(games)  # the prior keeps it finite
    assert result.converged
    assert np.all(np.isfinite(result.ratings))
    assert result.ratings[0] > result.ratings[1] > result.ratings[2]


# fit: against scipy.optimize.minimize


def test_fit_without_prior_matches_scipy() -> None:
    _, tables, duraks = mixed_games()
    result = fit(GameSet.from_tables(tables, duraks, 6), prior_sd=None)

    def objective(x: FloatArray) -> float:  # player 0 fixed at 0: the likelihood only sees differences
        return oracle_nll(np.concatenate([[0.0], x / NAT]), tables, duraks)

    oracle = minimize(objective, np.zeros(5), method="BFGS", options={"gtol": 1e-9})
    expected = np.concatenate([[0.0], oracle.x / NAT])
    assert result.ratings - result.ratings[0] == pytest.approx(expected, abs=0.01)
    assert -len(tables) * log_loss(result.ratings, GameSet.from_tables(tables, duraks, 6)) == pytest.approx(
        -oracle.fun, abs=1e-8
    )


def test_fit_with_prior_matches_scipy_and_its_hessian() -> None:
    _, tables, duraks = mixed_games(seed=4)
    prior_mean = np.array([1500.0, 1500.0, 1500.0, 1500.0, 1600.0, 1450.0])
    prior_sd = np.array([350.0, 350.0, 350.0, 350.0, 200.0, 120.0])
    result = fit(GameSet.from_tables(tables, duraks, 6), prior_sd=prior_sd, prior_mean=prior_mean)

    def posterior(r: FloatArray) -> float:
        return oracle_nll(r, tables, duraks) + float(np.sum((r - prior_mean) ** 2 / (2 * prior_sd**2)))

    oracle = minimize(lambda x: posterior(x / NAT), prior_mean * NAT, method="BFGS", options={"gtol": 1e-9})
    assert result.ratings == pytest.approx(oracle.x / NAT, abs=0.01)
    assert result.log_posterior == pytest.approx(-oracle.fun, abs=1e-8)

    # standard errors: the inverse of a finite-difference Hessian of the posterior, relative to the pool mean
    n, h = 6, 0.5
    hessian = np.zeros((n, n))
    at = result.ratings
    for i in range(n):
        for j in range(n):
            ei, ej = np.eye(n)[i] * h, np.eye(n)[j] * h
            hessian[i, j] = (
                posterior(at + ei + ej) - posterior(at + ei - ej) - posterior(at - ei + ej) + posterior(at - ei - ej)
            ) / (4 * h * h)
    centre = np.eye(n) - 1 / n
    cov = centre @ np.linalg.inv(hessian) @ centre
    assert result.se == pytest.approx(np.sqrt(np.diag(cov)), rel=1e-3)
    assert result.cov == pytest.approx(cov, rel=1e-3, abs=1e-3)
    ones = np.ones(n)
    assert result.mean_se == pytest.approx(math.sqrt(ones @ np.linalg.inv(hessian) @ ones) / n, rel=1e-3)


# fit: priors, intervals, warm starts


def test_prior_alone_decides_a_player_without_games() -> None:
    games = GameSet.from_tables([[0, 1]] * 40, [0] * 15 + [1] * 25, 4)
    result = fit(games, prior_mean=[1500, 1500, 1500, 1640], prior_sd=[350, 350, 350, 200])
    assert result.ratings[2] == pytest.approx(1500)
    assert result.ratings[3] == pytest.approx(1640)  # a new version seeded from its predecessor
    assert result.games.tolist() == [40, 40, 0, 0]
    assert result.se[3] > 150
    assert result.provisional(2)


def test_interval_and_difference() -> None:
    games = GameSet.from_tables(*simulate(np.array([1400.0, 1500.0, 1650.0]), 600, seed=5), n_players=3)
    result = fit(games)
    low, high = result.interval(1)
    assert (low + high) / 2 == pytest.approx(result.ratings[1])
    assert high - low == pytest.approx(2 * 1.96 * result.se[1], rel=1e-4)
    assert result.interval(1, z=1.0)[1] == pytest.approx(result.ratings[1] + result.se[1])
    diff, se = result.difference(2, 0)
    assert diff == pytest.approx(result.ratings[2] - result.ratings[0])
    assert 0 < se < result.se[0] + result.se[2]


def test_warm_start_reaches_the_same_fit_sooner() -> None:
    true = np.linspace(1200, 1800, 8)
    games = GameSet.from_tables(*simulate(true, 3000, seed=6), n_players=8)
    cold = fit(games)
    warm = fit(games, start=cold.ratings)
    assert warm.ratings == pytest.approx(cold.ratings, abs=1e-4)
    assert warm.iterations < cold.iterations


def test_empty_fit() -> None:
    result = fit(GameSet.from_tables([], [], 0))
    assert isinstance(result, Fit)
    assert result.ratings.size == 0


# fit: recovering known ratings


def test_fit_recovers_simulated_ratings() -> None:
    true = np.linspace(1200.0, 1800.0, 10)[np.random.default_rng(7).permutation(10)]
    tables, duraks = simulate(true, 20_000, seed=8)
    games = GameSet.from_tables(tables, duraks, 10)
    result = fit(games)
    assert result.converged
    assert np.argsort(result.ratings).tolist() == np.argsort(true).tolist()
    for i in range(1, 10):
        diff, se = result.difference(i, 0)
        assert abs(diff - (true[i] - true[0])) < 3 * se
    assert result.se.max() < 55  # ~8,000 games each: well past provisional
    # the fitted ratings predict held-out games better than equal ratings
    held_out = GameSet.from_tables(*simulate(true, 2000, seed=9), n_players=10)
    assert log_loss(result.ratings, held_out) < log_loss(np.full(10, 1500.0), held_out) - 0.05
