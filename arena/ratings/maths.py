"""Rating mathematics of the arena: the "loser-choice" model, its online update and its batch fit.

A Durak game at a table of 2-6 players has exactly one loser, the durak, so the
model is the Luce choice of that one loser (docs/ratings.md section 1):

    P(i is the durak | table T) = 10^(-r_i/400) / sum_{j in T} 10^(-r_j/400)

With two players this is exactly Elo, so the numbers read like chess ratings,
and a table of N counts as one event rather than N - 1 pairwise games (which
would over-count it and pull the safe players together). A game without a
durak (a draw) says nothing about who is stronger in this model and is left out.

Pure numpy/scipy, no Django: the services feed it arrays and store the results.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.linalg  # type: ignore[import-untyped,unused-ignore]
import scipy.sparse  # type: ignore[import-untyped,unused-ignore]
from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped,unused-ignore]

from bots_sdk.stats import Z95

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

ELO_SCALE = 400.0
"""Points per factor of ten in the odds: the chess convention, so that two-player ratings are plain Elo."""
_NAT = math.log(10) / ELO_SCALE
"""Natural-log units per rating point: the fit works in u = r * _NAT, where P(durak) is a softmax of -u."""

MIN_SEATS = 2
MAX_SEATS = 6
"""Durak is played by 2 to 6 players (docs/rules.md section 1); the arrays are padded to six seats."""

PRIOR_MEAN = 1500.0
PRIOR_SD = 350.0
"""The weak prior of the batch fit: every version starts at 1500 (lichess's start), SD 350 (docs/ratings.md section 3).
It keeps a version with few or one-sided games finite and pins the scale, so no anchor bot is needed."""

K_ESTABLISHED = 32.0
K_PROVISIONAL = 40.0
"""Online K factors between fits: 32 once established, 40 while provisional, FIDE's K for a new player
(docs/ratings.md section 2)."""

PROVISIONAL_MAX_SE = 55.0
"""A rating stays provisional while its SE exceeds 55 points: a 95 % interval wider than ±110, the width at
which lichess drops its "?" (RD 110) (docs/ratings.md section 4)."""
PROVISIONAL_MIN_GAMES = 30
"""... or while it has fewer than 30 rated games, FIDE's K = 40 period for a new player (docs/ratings.md section 4)."""


def expected_durak(ratings: Sequence[float]) -> list[float]:
    """The probability that each seat of one table ends as the durak.

    Computed relative to the lowest rating, so that every weight is at most one
    and no rating, however far from 1500, overflows.

    >>> expected_durak([1500, 1500, 1500, 1500])
    [0.25, 0.25, 0.25, 0.25]
    >>> [round(p, 5) for p in expected_durak([1500, 1700])]
    [0.75975, 0.24025]
    """
    if not ratings:
        raise ValueError("a table needs at least one rating")
    low = min(ratings)
    weights = [10.0 ** (-(r - low) / ELO_SCALE) for r in ratings]
    total = math.fsum(weights)
    return [w / total for w in weights]


def k_update(ratings: Sequence[float], durak: int | None, k: float | Sequence[float] = K_ESTABLISHED) -> list[float]:
    """The online update after one game: r_i += K_i * (S_i - E_i), S_i = 1 if safe else 0, E_i = 1 - P(i durak).

    It moves the ladder at once between batch fits. With equal K the changes
    sum to zero over the table; a per-seat K (40 while provisional) lets a new
    version find its level faster without moving the others more. ``durak`` is
    the seat index of the durak; None (a draw) leaves every rating unchanged.

    >>> [round(r, 2) for r in k_update([1500, 1700], 1, 32)]
    [1524.31, 1675.69]
    >>> k_update([1500, 1500, 1500, 1500], 0, 32)
    [1476.0, 1508.0, 1508.0, 1508.0]
    """
    n = len(ratings)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} players, not {n}")
    ks = [float(k)] * n if isinstance(k, int | float) else [float(x) for x in k]
    if len(ks) != n:
        raise ValueError(f"{len(ks)} K factors for {n} players")
    if durak is None:
        return [float(r) for r in ratings]
    if not 0 <= durak < n:
        raise ValueError(f"durak seat {durak} is not at a table of {n}")
    p = expected_durak(ratings)
    # S_i - E_i = [i safe] - (1 - p_i) = p_i - [i is the durak]
    return [r + ki * (pi - (i == durak)) for i, (r, ki, pi) in enumerate(zip(ratings, ks, p))]


def is_provisional(se: float, games: int) -> bool:
    """Whether a rating is still too uncertain to rank (shown with "?", kept off the ranks).

    >>> is_provisional(40.0, 100), is_provisional(60.0, 100), is_provisional(40.0, 29)
    (False, True, True)
    """
    return se > PROVISIONAL_MAX_SE or games < PROVISIONAL_MIN_GAMES


@dataclass(frozen=True, eq=False)
class GameSet:
    """Rated games with a durak, as arrays: compact enough for a million games and fast to fit.

    ``players[g, s]`` is the player index (0 .. n_players - 1) in seat s of game
    g, seats filled from the left and padded with -1 up to six; ``durak[g]`` is
    the seat of the durak. Draws are not stored: they carry no rating
    information in this model (``from_tables`` drops them).
    """

    players: npt.NDArray[np.int32]
    durak: npt.NDArray[np.int8]
    n_players: int

    def __post_init__(self) -> None:
        players, durak = self.players, self.durak
        if players.ndim != 2 or players.shape[1] != MAX_SEATS:
            raise ValueError(f"players must have shape (games, {MAX_SEATS}), not {players.shape}")
        if durak.shape != (players.shape[0],):
            raise ValueError(f"durak must have shape ({players.shape[0]},), not {durak.shape}")
        if self.n_players < 0:
            raise ValueError("n_players must not be negative")
        if players.size and (players.min() < -1 or players.max() >= self.n_players):
            raise ValueError(f"player indices must lie in 0..{self.n_players - 1} (-1 pads)")
        seated = players >= 0
        # padding only at the right: a seat is taken only if the seat before it is
        if np.any(seated[:, 1:] & ~seated[:, :-1]):
            raise ValueError("seats must be filled from the left, -1 only as padding at the end")
        sizes = seated.sum(axis=1)
        if np.any(sizes < MIN_SEATS):
            raise ValueError(f"every table needs at least {MIN_SEATS} players")
        if np.any((durak < 0) | (durak >= sizes)):
            raise ValueError("every durak must be an occupied seat of its table")
        ordered = np.sort(players, axis=1)
        if np.any((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)):
            raise ValueError("a player sits twice at one table")

    @classmethod
    def from_tables(cls, tables: Sequence[Sequence[int]], duraks: Sequence[int | None], n_players: int) -> GameSet:
        """Build from one list of player indices per game and the durak's seat (None for a draw, dropped).

        >>> games = GameSet.from_tables([[0, 1], [2, 0, 1], [1, 2]], [1, 0, None], 3)
        >>> len(games), games.players[1].tolist(), games.durak.tolist()
        (2, [2, 0, 1, -1, -1, -1], [1, 0])
        """
        if len(tables) != len(duraks):
            raise ValueError(f"{len(tables)} tables but {len(duraks)} duraks")
        count = len(tables)
        sizes = np.fromiter(map(len, tables), dtype=np.int64, count=count)
        if np.any((sizes < MIN_SEATS) | (sizes > MAX_SEATS)):
            raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} players")
        durak = np.fromiter((-1 if d is None else d for d in duraks), dtype=np.int64, count=count)
        flat = np.fromiter(itertools.chain.from_iterable(tables), dtype=np.int64, count=int(sizes.sum()))
        players = np.full((count, MAX_SEATS), -1, dtype=np.int32)
        rows = np.repeat(np.arange(count), sizes)
        starts = np.cumsum(sizes) - sizes
        cols = np.arange(flat.size) - np.repeat(starts, sizes)
        players[rows, cols] = flat
        if np.any(durak >= sizes) or np.any(durak < -1):
            raise ValueError("every durak must be a seat of its table or None")
        keep = durak >= 0
        return cls(players[keep], durak[keep].astype(np.int8), n_players)

    def __len__(self) -> int:
        return int(self.players.shape[0])

    def games_per_player(self) -> IntArray:
        """Rated games each player took part in."""
        seated = self.players[self.players >= 0]
        return np.bincount(seated, minlength=self.n_players).astype(np.int64)


@dataclass(frozen=True, eq=False)
class Fit:
    """The batch fit: ratings, their standard errors and covariance (rating points), and how it converged.

    ``se`` and ``cov`` are relative to the pool mean, the way Ordo and BayesElo
    report errors: only differences are observed, and with a prior the common
    level of all ratings is known only to about prior_sd / sqrt(n) (``mean_se``).
    Folding that shared term into every rating would add the same ~64 points
    to each SE of a 30-bot ladder and keep every bot provisional forever,
    although it moves no bot relative to another.
    """

    ratings: FloatArray
    se: FloatArray
    cov: FloatArray
    mean_se: float
    games: IntArray
    iterations: int
    converged: bool
    log_posterior: float

    def interval(self, i: int, z: float = Z95) -> tuple[float, float]:
        """The normal-approximation interval of player i (95 % by default), as shown on the ladder."""
        r, half = float(self.ratings[i]), z * float(self.se[i])
        return r - half, r + half

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """r_i - r_j and its standard error: correlated ratings make it differ from the SEs combined."""
        var = self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j]
        return float(self.ratings[i] - self.ratings[j]), math.sqrt(max(float(var), 0.0))

    def provisional(self, i: int) -> bool:
        return is_provisional(float(self.se[i]), int(self.games[i]))


@dataclass(frozen=True, eq=False)
class _Block:
    """Games of one table size, so the inner loops run without padding or masks."""

    players: IntArray  # (games, size)
    durak_players: IntArray  # (games,)
    pair_index: IntArray  # (games * size * (size - 1) / 2,): i * n + j for each unordered seat pair
    pair_a: IntArray  # the seat pairs, to multiply p[:, a] * p[:, b]
    pair_b: IntArray


def _blocks(games: GameSet) -> list[_Block]:
    n = games.n_players
    sizes = (games.players >= 0).sum(axis=1)
    blocks = []
    for size in range(MIN_SEATS, MAX_SEATS + 1):
        rows = np.flatnonzero(sizes == size)
        if not rows.size:
            continue
        players = games.players[rows, :size].astype(np.int64)
        durak_players = players[np.arange(rows.size), games.durak[rows].astype(np.int64)]
        a, b = np.triu_indices(size, k=1)
        pair_index = (players[:, a] * n + players[:, b]).ravel()
        blocks.append(_Block(players, durak_players, pair_index, a.astype(np.int64), b.astype(np.int64)))
    return blocks


def _durak_probabilities(u: FloatArray, block: _Block) -> tuple[FloatArray, float]:
    """P(durak) per seat of each game, and the block's log-likelihood sum_g log P(durak_g)."""
    x = -u[block.players]
    columns = range(1, x.shape[1])
    # row max and sum column by column: numpy's axis=1 reductions are slow over 2-6 columns
    top = x[:, 0].copy()
    for c in columns:
        np.maximum(top, x[:, c], out=top)
    e = np.exp(x - top[:, None])
    z = e[:, 0].copy()
    for c in columns:
        z += e[:, c]
    p: FloatArray = e / z[:, None]
    log_norm = np.log(z) + top
    loglik = float(-u[block.durak_players].sum() - log_norm.sum())
    return p, loglik


def _log_likelihood(u: FloatArray, blocks: Sequence[_Block]) -> tuple[float, list[FloatArray]]:
    probabilities = []
    total = 0.0
    for block in blocks:
        p, ll = _durak_probabilities(u, block)
        probabilities.append(p)
        total += ll
    return total, probabilities


def _gradient_and_information(
    n: int, blocks: Sequence[_Block], probabilities: Sequence[FloatArray], duraks: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Gradient and observed information (minus the Hessian) of the log-likelihood, in u units.

    Per game, d log P(durak) / du_i = p_i - [i is the durak], and the Hessian is
    -(diag(p) - p p^T), summed into the n x n matrix with bincount (much faster
    than np.add.at) over the precomputed flat pair indices.
    """
    grad = -duraks.copy()
    diag = np.zeros(n)
    off = np.zeros(n * n)
    for block, p in zip(blocks, probabilities):
        flat_players = block.players.ravel()
        grad += np.bincount(flat_players, weights=p.ravel(), minlength=n)
        diag += np.bincount(flat_players, weights=(p * (1.0 - p)).ravel(), minlength=n)
        weights = (p[:, block.pair_a] * p[:, block.pair_b]).ravel()
        off += np.bincount(block.pair_index, weights=weights, minlength=n * n)
    upper = off.reshape(n, n)
    info = -(upper + upper.T)
    info[np.diag_indices(n)] += diag
    return grad, info


def _as_vector(value: float | npt.ArrayLike, n: int, name: str) -> FloatArray:
    vector = np.broadcast_to(np.asarray(value, dtype=np.float64), (n,)).copy()
    if not np.all(np.isfinite(vector)):
        raise ValueError(f"{name} must be finite")
    return vector


def _check_identified(games: GameSet) -> None:
    """Without a prior, finite ML ratings exist only if the "was safe when j was the durak" graph is strongly
    connected (the Zermelo/Ford/Hunter condition for Luce models): otherwise some group never loses to the
    rest, and its ratings run off to infinity."""
    n = games.n_players
    seated = games.players >= 0
    rows = np.arange(len(games))
    durak_players = games.players[rows, games.durak.astype(np.int64)]
    safe = seated.copy()
    safe[rows, games.durak.astype(np.int64)] = False
    winners = games.players[safe]
    losers = np.broadcast_to(durak_players[:, None], safe.shape)[safe]
    graph = scipy.sparse.coo_matrix((np.ones(winners.size), (winners, losers)), shape=(n, n)).tocsr()
    components, _ = connected_components(graph, directed=True, connection="strong")
    if components != 1:
        raise ValueError(
            f"without a prior the ratings are not identified: the players split into {components} groups of which "
            "some never lose to the others (e.g. a player never durak, or unconnected pools); use a prior"
        )


def log_loss(ratings: npt.ArrayLike, games: GameSet) -> float:
    """Mean -ln P(observed durak) per game: the yardstick for backtesting ratings on held-out games.

    >>> round(log_loss([1500.0, 1500.0], GameSet.from_tables([[0, 1]], [0], 2)), 4)
    0.6931
    """
    if not len(games):
        return 0.0
    u = np.asarray(ratings, dtype=np.float64) * _NAT
    loglik, _ = _log_likelihood(u, _blocks(games))
    return -loglik / len(games)


def fit(
    games: GameSet,
    *,
    prior_sd: float | npt.ArrayLike | None = PRIOR_SD,
    prior_mean: float | npt.ArrayLike = PRIOR_MEAN,
    start: npt.ArrayLike | None = None,
    tol: float = 1e-6,
    max_iter: int = 100,
) -> Fit:
    """Maximum a posteriori ratings of every player over all ``games``, with standard errors.

    A version is frozen code whose strength does not drift, so one fit over the
    whole history beats any running update (docs/ratings.md section 3). Each rating has a
    Gaussian prior N(prior_mean, prior_sd); both may be per-player arrays, so a
    new version can be seeded from its predecessor (e.g. its rating, SD 200).

    The log-posterior is concave, so Newton's method on it converges in a
    handful of steps; a step that would lower it is halved until it does not,
    which guards the first steps from a poor start. It stops when the largest
    change is below ``tol`` rating points. ``se`` and ``cov`` come from the
    inverse of the negative Hessian at the optimum (the Laplace approximation),
    taken relative to the pool mean (see ``Fit``).

    ``prior_sd=None`` (or inf) fits plain maximum likelihood. The likelihood
    then only sees differences, so the fit pins the mean rating to the mean of
    ``prior_mean`` (1500: the pool average, Ordo's default). This is exact, not a
    tiny prior: it adds a penalty on the mean alone, which the likelihood cannot
    feel, and ``cov`` is then the pseudo-inverse of the information, i.e. the
    covariance of the mean-centred ratings, and ``mean_se`` is 0. Finite
    ML ratings exist only when every group of players sometimes is the durak
    against the rest; otherwise ValueError.
    """
    n = games.n_players
    if n == 0:
        empty = np.zeros(0)
        return Fit(empty, empty, np.zeros((0, 0)), 0.0, np.zeros(0, dtype=np.int64), 0, True, 0.0)
    blocks = _blocks(games)
    durak_players = games.players[np.arange(len(games)), games.durak.astype(np.int64)]
    duraks = np.bincount(durak_players, minlength=n).astype(np.float64)
    mean = _as_vector(prior_mean, n, "prior_mean") * _NAT
    if prior_sd is not None and not np.all(np.isinf(np.asarray(prior_sd, dtype=np.float64))):
        sd = _as_vector(prior_sd, n, "prior_sd")
        if np.any(sd <= 0):
            raise ValueError("prior_sd must be positive")
        precision = 1.0 / (sd * _NAT) ** 2
        pin = 0.0
        target = 0.0
    else:
        _check_identified(games)
        precision = np.zeros(n)
        target = float(mean.mean())
        mean = np.full(n, target)
        # weight of the mean penalty: of the order of the information per player, for a well-conditioned solve
        pin = max(float(np.bincount(games.players[games.players >= 0], minlength=n).sum()) / (4.0 * n * n), 1e-9)

    def log_posterior(u: FloatArray) -> tuple[float, list[FloatArray]]:
        loglik, probabilities = _log_likelihood(u, blocks)
        penalty = 0.5 * float(np.sum(precision * (u - mean) ** 2)) + 0.5 * pin * float(np.sum(u - target)) ** 2
        return loglik - penalty, probabilities

    u = mean.copy() if start is None else _as_vector(start, n, "start") * _NAT
    value, probabilities = log_posterior(u)
    converged = False
    iterations = 0
    while True:
        grad, info = _gradient_and_information(n, blocks, probabilities, duraks)
        grad -= precision * (u - mean) + pin * float(np.sum(u - target))
        info[np.diag_indices(n)] += precision
        if pin:
            info += pin
        factor = scipy.linalg.cho_factor(info, check_finite=False)
        if converged or iterations == max_iter:
            break  # the information at the final ratings, for the standard errors
        iterations += 1
        step = scipy.linalg.cho_solve(factor, grad, check_finite=False)
        scale = 1.0
        while True:
            candidate = u + scale * step
            new_value, new_probabilities = log_posterior(candidate)
            # accept any step that does not lower the posterior beyond rounding
            if new_value >= value - 1e-12 * max(1.0, abs(value)) or scale < 1e-6:
                break
            scale /= 2
        u, value, probabilities = candidate, new_value, new_probabilities
        converged = scale == 1.0 and float(np.max(np.abs(step))) / _NAT < tol
    inverse = scipy.linalg.cho_solve(factor, np.eye(n), check_finite=False)
    if pin:
        # (I + pin 11^T)^-1 = I^+ + 11^T / (pin n^2): remove the pinned direction to leave the pseudo-inverse
        inverse -= 1.0 / (pin * n * n)
    absolute = inverse / _NAT**2
    # relative to the pool mean: C - row means - column means + grand mean (a no-op for the pinned ML fit)
    row_means = absolute.mean(axis=1)
    grand_mean = float(row_means.mean())
    cov: FloatArray = absolute - row_means[:, None] - row_means[None, :] + grand_mean
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return Fit(
        ratings=u / _NAT,
        se=se,
        cov=cov,
        mean_se=0.0 if pin else math.sqrt(max(grand_mean, 0.0)),
        games=games.games_per_player(),
        iterations=iterations,
        converged=converged,
        log_posterior=value,
    )
