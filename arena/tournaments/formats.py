"""The formats' pure algorithms: round-robin schedules, Swiss grouping and knockout rounds.

No Django here, so each algorithm is tested on its own and a schedule can be
inspected from a shell. Entrants are the indices ``0 .. n-1`` in seed order
(0 is the top seed); the services map them to rows.

**Round robin.** Two-player tables: the circle method (Berger tables), every
pairing exactly once in ``n - 1`` rounds (``n`` if odd; one entrant rests each
round). Tables of 3-6: a balanced design built by search (``balanced_tables``):
the fewest tables such that every entrant sits at equally many tables and
every pair meets at least once, with pair meetings differing by at most one
(all equal when the counts allow it and the search finds it, e.g. the Fano
plane for 7 entrants at tables of 3). The tables are then packed into rounds of
disjoint tables (``pack_rounds``), so no bot plays two matches at once. Balance
comes before parallelism: some fields get one table a round (6 entrants at
tables of 3: any three full rounds leave a pair that never meets, so it is six
single-table rounds in which every pair meets once or twice).

**Swiss.** Entrants ranked by points (best first) are cut into tables of ``k``
(score brackets), then entrants are swapped between tables while that lowers
the cost: a repeated meeting costs far more than any score difference, so a
rematch is only kept when the search finds no grouping without one (a best
effort per round: it does not plan ahead for later rounds). When the field does
not divide by ``k``, the lowest-ranked entrants among those with the fewest
byes sit the round out.

**Knockout.** Each round re-seeds the entrants still in: when the field does
not fill whole tables, the byes go to those with the fewest byes so far (the
top seeds first among them, so no entrant gets a second bye while another has
none), the rest are dealt to the
tables in serpentine order (for pairs: 1 v n, 2 v n-1, ...), and each table's
best advances. When that would leave fewer than a full table for the final, the
tables send their best two (or more) so that exactly a table's worth go on.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bots_sdk.engine import PRESETS, Rules

Table = tuple[int, ...]

MIN_TABLE = 2
MAX_TABLE = 6
FORMATS = ("round_robin", "swiss", "knockout")
MAX_DEALS = 100
MAX_ROUNDS = 50
MAX_ENTRANTS = 64
MAX_ROUND_ROBIN_GROUP = 32
"""Round robins at tables of 3-6 stop here: the design search stays within a few seconds; measured, pair counts
are within one of each other for every field up to 24 at every table size, and every pair meets up to 32."""


def settings_error(format: str, preset: str, players: int, deals: int, rounds: int | None) -> str | None:
    """What is wrong with these tournament settings, for a form or the admin; None if nothing.

    >>> settings_error("swiss", "classic", 4, 2, None)
    'Swiss: say how many rounds (1 to 50)'
    >>> settings_error("knockout", "kawu", 3, 1, None)
    "players: preset 'kawu' is for 2 players, not 3"
    """
    if format not in FORMATS:
        return f"format: {format!r} is not one of {', '.join(FORMATS)}"
    if preset not in PRESETS:
        return f"preset: {preset!r} is not one of {', '.join(PRESETS)}"
    if not isinstance(players, int) or not MIN_TABLE <= players <= MAX_TABLE:
        return f"players: a table seats {MIN_TABLE} to {MAX_TABLE}, not {players}"
    try:
        Rules.preset(preset, players=players)
    except ValueError as error:
        return str(error)
    if not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        return f"deals: {deals} is not between 1 and {MAX_DEALS}"
    if format == "swiss" and (rounds is None or not 1 <= rounds <= MAX_ROUNDS):
        return f"Swiss: say how many rounds (1 to {MAX_ROUNDS})"
    return None


def entrants_problem(format: str, players: int, entrants: int) -> tuple[str, dict[str, int]] | None:
    """What is wrong with a field of ``entrants`` for this format and table size, as a code and its figures
    (the site words it in the reader's language, ``arena.notices``); None if nothing.

    >>> entrants_problem("round_robin", 4, 3)
    ('too_few', {'count': 3, 'players': 4})
    """
    if entrants < players:
        return "too_few", {"count": entrants, "players": players}
    if entrants > MAX_ENTRANTS:
        return "too_many", {"count": entrants, "most": MAX_ENTRANTS}
    if format == "round_robin" and players > 2 and entrants > MAX_ROUND_ROBIN_GROUP:
        return "round_robin_group", {"count": entrants, "players": players, "most": MAX_ROUND_ROBIN_GROUP}
    return None


def pair(a: int, b: int) -> tuple[int, int]:
    """The unordered pair (a, b) as a sorted tuple, the key of every meeting count."""
    return (a, b) if a < b else (b, a)


def pair_counts(tables: Sequence[Sequence[int]]) -> dict[tuple[int, int], int]:
    """How often each pair of entrants sat at one table.

    >>> pair_counts([(0, 1, 2), (0, 1, 3)])[(0, 1)]
    2
    """
    counts: dict[tuple[int, int], int] = {}
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            key = pair(a, b)
            counts[key] = counts.get(key, 0) + 1
    return counts


# --- round robin ---------------------------------------------------------------------------------------------------


def circle_rounds(n: int) -> list[list[Table]]:
    """Every pairing of ``n`` entrants once, in rounds where each plays at most once (the circle method).

    >>> circle_rounds(4)
    [[(0, 3), (1, 2)], [(0, 2), (3, 1)], [(0, 1), (2, 3)]]
    >>> len(circle_rounds(5)), sum(len(r) for r in circle_rounds(5))
    (5, 10)
    """
    if n < MIN_TABLE:
        raise ValueError(f"a round robin needs at least {MIN_TABLE} entrants, not {n}")
    slots: list[int | None] = [*range(n), *([None] if n % 2 else [])]
    size = len(slots)
    rounds: list[list[Table]] = []
    for _ in range(size - 1):
        tables: list[Table] = []
        for i in range(size // 2):
            a, b = slots[i], slots[size - 1 - i]
            if a is not None and b is not None:
                tables.append((a, b))
        rounds.append(tables)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def _target(total: int, pairs: int) -> tuple[int, int, int]:
    """For ``total`` pair meetings over ``pairs`` pairs: the floor count, how many pairs get one more, and the
    smallest possible sum of squared counts (reached exactly when no two counts differ by more than one)."""
    low, extra = divmod(total, pairs)
    return low, extra, (pairs - extra) * low * low + extra * (low + 1) ** 2


def _search(n: int, k: int, blocks: int, rng: random.Random, steps: int) -> tuple[list[list[int]], bool]:
    """Local search for ``blocks`` tables of ``k`` over ``n`` entrants, each entrant at equally many tables,
    minimising the sum of squared pair counts; the tables, and whether that sum reached its balanced optimum.

    Start: each table takes the entrants with the most seats left to fill (always distinct, always feasible).
    Move: swap two entrants between two tables, which keeps every entrant's table count; it is taken when it
    does not worsen the cost or, simulated-annealing style, with a probability that shrinks as the search cools.
    """
    left = [blocks * k // n] * n
    tables: list[list[int]] = []
    for _ in range(blocks):
        chosen = sorted(range(n), key=lambda p: (-left[p], rng.random()))[:k]
        for p in chosen:
            left[p] -= 1
        tables.append(chosen)
    count = [[0] * n for _ in range(n)]
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            count[a][b] += 1
            count[b][a] += 1
    pairs = n * (n - 1) // 2
    best = _target(blocks * k * (k - 1) // 2, pairs)[2]
    cost = sum(count[a][b] ** 2 for a, b in itertools.combinations(range(n), 2))
    temperature = 1.5
    for _ in range(steps):
        if cost == best:
            return tables, True
        temperature = max(0.02, temperature * 0.9997)
        i, j = rng.randrange(blocks), rng.randrange(blocks)
        pi, pj = rng.randrange(k), rng.randrange(k)
        first, second = tables[i], tables[j]
        x, y = first[pi], second[pj]
        if i == j or y in first or x in second:
            continue
        changes: dict[tuple[int, int], int] = {}
        for z in first:
            if z != x:
                changes[pair(x, z)] = changes.get(pair(x, z), 0) - 1
                changes[pair(y, z)] = changes.get(pair(y, z), 0) + 1
        for w in second:
            if w != y:
                changes[pair(y, w)] = changes.get(pair(y, w), 0) - 1
                changes[pair(x, w)] = changes.get(pair(x, w), 0) + 1
        delta = sum((count[a][b] + d) ** 2 - count[a][b] ** 2 for (a, b), d in changes.items() if d)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            for (a, b), d in changes.items():
                count[a][b] += d
                count[b][a] += d
            first[pi], second[pj] = y, x
            cost += delta
    return tables, cost == best


COMPLETE_DESIGN_LIMIT = 120
"""All k-subsets as tables (perfectly balanced) is the fallback while there are at most this many of them."""


def balanced_tables(n: int, k: int, seed: str = "", restarts: int = 2, sizes: int = 4) -> list[Table]:
    """Tables of ``k`` over ``n`` entrants in which every entrant sits equally often and every pair meets at
    least once, pair counts differing by at most one where the search finds such a design.

    The table count starts at the smallest multiple of n / gcd(n, k) (equal seats per entrant) with enough
    pair meetings to cover every pair; when the search cannot balance that many it tries up to ``sizes``
    more multiples (more slack). Failing that: all k-subsets if they are few, else the most even design
    found (fewest pairs that never meet, then the smallest spread: seen from 20 entrants at tables of 5-6).

    >>> tables = balanced_tables(7, 3, seed="fano")
    >>> len(tables), sorted(set(pair_counts(tables).values()))
    (7, [1])
    """
    if not MIN_TABLE <= k <= MAX_TABLE:
        raise ValueError(f"a table seats {MIN_TABLE} to {MAX_TABLE}, not {k}")
    if n < k:
        raise ValueError(f"{n} entrants cannot fill a table of {k}")
    if n == k:
        return [tuple(range(n))]
    if k == 2:
        return [t for r in circle_rounds(n) for t in r]
    rng = random.Random(f"balanced-{n}-{k}-{seed}")
    pairs = n * (n - 1) // 2
    steps = 20_000 + 100 * pairs
    step = n // math.gcd(n, k)
    blocks = step
    while blocks * k * (k - 1) < n * (n - 1):
        blocks += step
    everything = math.comb(n, k)
    fallback: tuple[tuple[int, int], list[list[int]]] | None = None
    for _ in range(sizes):
        if blocks >= everything:
            break
        for _ in range(restarts):
            tables, balanced = _search(n, k, blocks, rng, steps)
            if balanced:
                return [tuple(sorted(t)) for t in tables]
            counts = pair_counts(tables)
            quality = (pairs - len(counts), max(counts.values()) - min(counts.values()))
            if fallback is None or quality < fallback[0]:
                fallback = (quality, tables)
        blocks += step
    if everything <= max(COMPLETE_DESIGN_LIMIT, blocks) or fallback is None:
        return list(itertools.combinations(range(n), k))
    return [tuple(sorted(t)) for t in fallback[1]]


def pack_rounds(tables: Sequence[Table], n: int, seed: str = "", tries: int = 40) -> list[list[Table]]:
    """Order ``tables`` into rounds of disjoint tables (nobody at two tables of a round), in few rounds.

    Greedy: each round takes first the tables whose entrants have the most tables still to play (they bound
    the number of rounds), ties broken at random; the best of ``tries`` orders is kept.

    >>> pack_rounds([(0, 1, 2), (3, 4, 5), (0, 3, 6)], 7)
    [[(0, 3, 6)], [(0, 1, 2), (3, 4, 5)]]
    """
    if not tables:
        return []
    rng = random.Random(f"rounds-{n}-{seed}")
    per_round = n // len(tables[0])
    load = [0] * n
    for table in tables:
        for p in table:
            load[p] += 1
    bound = max(math.ceil(len(tables) / per_round), max(load))
    best: list[list[Table]] | None = None
    for attempt in range(tries):
        remaining = list(tables)
        left = list(load)
        rounds: list[list[Table]] = []
        while remaining:
            noise = {id(t): (rng.random() if attempt else 0.0) for t in remaining}
            remaining.sort(key=lambda t: (-sum(left[p] for p in t), noise[id(t)]))
            used: set[int] = set()
            this: list[Table] = []
            rest: list[Table] = []
            for table in remaining:
                if len(this) < per_round and used.isdisjoint(table):
                    this.append(table)
                    used.update(table)
                else:
                    rest.append(table)
            for table in this:
                for p in table:
                    left[p] -= 1
            rounds.append(sorted(this))
            remaining = rest
        if best is None or len(rounds) < len(best):
            best = rounds
        if len(best) == bound:
            break
    assert best is not None
    return best


def round_robin_schedule(n: int, k: int, seed: str = "") -> list[list[Table]]:
    """The rounds of a round robin of ``n`` entrants at tables of ``k`` (see the module docstring).

    >>> rounds = round_robin_schedule(9, 3)
    >>> len(rounds), [len(r) for r in rounds], sorted(set(pair_counts([t for r in rounds for t in r]).values()))
    (4, [3, 3, 3, 3], [1])
    """
    if n < k:
        raise ValueError(f"{n} entrants cannot fill a table of {k}")
    if k == 2:
        return circle_rounds(n)
    return pack_rounds(balanced_tables(n, k, seed), n, seed)


# --- Swiss ---------------------------------------------------------------------------------------------------------

REMATCH_COST = 1e9
"""What one repeated meeting costs in the Swiss grouping: more than any sum of score differences can reach."""
SWISS_ATTEMPTS = 40
"""Perturbations (a few random swaps, then local search again) tried while a rematch is left."""
RANK_COST = 1e-7
"""Per squared rank distance within a table: below one point in total, so it only breaks ties between groupings
of equal score differences, the Dutch way (1st meets 3rd and 2nd meets 4th, rather than 1st v 4th)."""


def swiss_byes(ranked: Sequence[int], k: int, byes_so_far: Mapping[int, int]) -> list[int]:
    """Who sits out this round: ``len(ranked) % k`` entrants, the lowest-ranked among those with fewest byes.

    >>> swiss_byes([0, 1, 2, 3, 4], 2, {4: 1})
    [3]
    """
    count = len(ranked) % k
    if not count:
        return []
    position = {entrant: i for i, entrant in enumerate(ranked)}
    order = sorted(ranked, key=lambda e: (byes_so_far.get(e, 0), -position[e]))
    return sorted(order[:count], key=position.__getitem__)


def _table_cost(table: Sequence[int], points: Mapping[int, float], met: Mapping[tuple[int, int], int],
                rank: Mapping[int, int]) -> float:
    cost = 0.0
    for a, b in itertools.combinations(table, 2):
        cost += REMATCH_COST * met.get(pair(a, b), 0) + abs(points[a] - points[b])
        cost += RANK_COST * (rank[a] - rank[b]) ** 2
    return cost


def swiss_tables(ranked: Sequence[int], k: int, points: Mapping[int, float], met: Mapping[tuple[int, int], int],
                 seed: str = "") -> list[Table]:
    """Group ``ranked`` (best first, byes already removed; a multiple of ``k``) into tables of ``k``.

    ``met`` counts earlier meetings per pair. The cost of a grouping reads "rematches, then score differences
    within tables, then rank distances"; local search by swaps from the score brackets, plus a few seeded
    perturbations while a rematch is left, keeps the cheapest grouping found.

    >>> swiss_tables([0, 1, 2, 3], 2, {0: 2, 1: 2, 2: 0, 3: 0}, {(0, 1): 1})
    [(0, 2), (1, 3)]
    """
    if len(ranked) % k:
        raise ValueError(f"{len(ranked)} entrants do not fill tables of {k}")
    position = {entrant: i for i, entrant in enumerate(ranked)}
    rng = random.Random(f"swiss-{seed}-{len(ranked)}")

    def cost_of(tables: list[list[int]]) -> float:
        return sum(_table_cost(t, points, met, position) for t in tables)

    def improve(tables: list[list[int]]) -> list[list[int]]:
        costs = [_table_cost(t, points, met, position) for t in tables]
        improved = True
        while improved:
            improved = False
            for i, j in itertools.combinations(range(len(tables)), 2):
                for pi, pj in itertools.product(range(k), range(k)):
                    first, second = tables[i], tables[j]
                    first[pi], second[pj] = second[pj], first[pi]
                    new_i = _table_cost(first, points, met, position)
                    new_j = _table_cost(second, points, met, position)
                    if new_i + new_j < costs[i] + costs[j] - 1e-9:
                        costs[i], costs[j] = new_i, new_j
                        improved = True
                    else:
                        first[pi], second[pj] = second[pj], first[pi]
        return tables

    best = improve([list(ranked[i:i + k]) for i in range(0, len(ranked), k)])
    best_cost = cost_of(best)
    for attempt in range(SWISS_ATTEMPTS):
        if best_cost < REMATCH_COST:
            break
        tables = [list(t) for t in best]
        for _ in range(2 + attempt % max(1, len(ranked) // 2)):
            i, j = rng.randrange(len(tables)), rng.randrange(len(tables))
            pi, pj = rng.randrange(k), rng.randrange(k)
            tables[i][pi], tables[j][pj] = tables[j][pj], tables[i][pi]
        tables = improve(tables)
        cost = cost_of(tables)
        if cost < best_cost:
            best, best_cost = tables, cost
    grouped = [tuple(sorted(t, key=position.__getitem__)) for t in best]
    return sorted(grouped, key=lambda t: position[t[0]])


# --- knockout ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KnockoutRound:
    """One knockout round: its tables (seed order within each), who has a bye, and how many of each table go on."""

    tables: list[Table]
    byes: list[int]
    advance: list[int]

    @property
    def final(self) -> bool:
        return len(self.tables) == 1 and not self.byes and self.advance == [1]


def knockout_round(alive: Sequence[int], k: int, byes_so_far: Mapping[int, int] | None = None) -> KnockoutRound:
    """The next round for the entrants still in (``alive``, best seed first) at tables of ``k``.

    The byes go to the entrants with the fewest byes so far (``byes_so_far``), the better seed first among
    them, so nobody gets a second bye while another entrant still in has none.

    >>> knockout_round([0, 1, 2, 3, 4], 2)
    KnockoutRound(tables=[(1, 4), (2, 3)], byes=[0], advance=[1, 1])
    >>> knockout_round([0, 1, 2], 2, {0: 1})
    KnockoutRound(tables=[(0, 2)], byes=[1], advance=[1])
    >>> knockout_round(list(range(6)), 4)
    KnockoutRound(tables=[(2, 3, 4, 5)], byes=[0, 1], advance=[2])
    >>> knockout_round([3, 5, 8], 3).final
    True
    """
    m = len(alive)
    if m < MIN_TABLE:
        raise ValueError("a knockout round needs at least two entrants")
    if m <= k:
        return KnockoutRound([tuple(alive)], [], [1])
    count, bye_count = divmod(m, k)
    had = byes_so_far or {}
    rank = {entrant: i for i, entrant in enumerate(alive)}
    byes = sorted(sorted(alive, key=lambda e: (had.get(e, 0), rank[e]))[:bye_count], key=rank.__getitem__)
    seats: list[list[int]] = [[] for _ in range(count)]
    for index, entrant in enumerate(e for e in alive if e not in byes):
        row, column = divmod(index, count)
        seats[column if row % 2 == 0 else count - 1 - column].append(entrant)
    advance = [1] * count
    if count + bye_count < k:
        base, extra = divmod(k - bye_count, count)
        advance = [base + (1 if i < extra else 0) for i in range(count)]
    return KnockoutRound([tuple(t) for t in seats], byes, advance)
