"""Reads of the statistics page: each figure is one SQL aggregate over Game/GameSeat, cached per filter.

Every query groups in the database (GROUP BY table size, starting trumps, bouts,
draw reason, version, duplicate set) and returns at most a few hundred rows, so
the page costs the same few queries at 100 games and at 100,000; the whole page
is then cached for ``CACHE_SECONDS`` per filter, since a statistic over
thousands of games does not move in five minutes.

Games that ended by a forfeit (timeout, crash, illegal action, protocol) are
left out of the figures about the cards and the length of a game: their durak
is the offender, whatever the deal. Draws count as "not the durak". Every rate
comes with its 95 % Wilson interval, which treats games as independent; games
of one duplicate set are not (the rotations share a deck), which is why the
gentle self-play comparison counts one game per deal.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Avg, Count, Exists, F, OuterRef, Q, QuerySet, StdDev
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.services import ARENA_USER
from arena.matches.models import Game, GameSeat, Match, MatchEntry
from arena.matches.services import FAULTS
from arena.stats import source
from arena.stats.duplicate import Correlation, correlation_of_sets
from bots_sdk.stats import wilson_interval

CACHE_SECONDS = 300
Z95 = 1.959963984540054
GENTLE = "gentle"
"""The reference bot whose self-play the source's table describes."""
MIN_CELL = 10
"""Seat-games below which a chart leaves a cell out (its interval would span most of the axis)."""
HISTOGRAM_BINS = 30
FAULT_ROWS = 200
DUPLICATE_BOTS = 10
"""Versions per table size with their own correlation row (those with the most duplicate sets)."""


@dataclass(frozen=True)
class Filters:
    """What the visitor narrowed the page to (None: everything)."""

    preset: str | None = None
    players: int | None = None

    def games(self) -> QuerySet[Game]:
        return Game.objects.filter(self.game_q())

    def game_q(self, prefix: str = "") -> Q:
        q = Q()
        if self.preset:
            q &= Q(**{f"{prefix}preset": self.preset})
        if self.players:
            q &= Q(**{f"{prefix}players": self.players})
        return q

    @property
    def cache_key(self) -> str:
        return f"stats:page:v1:{self.preset or '*'}:{self.players or '*'}"


@dataclass(frozen=True)
class Rate:
    """``hits`` of ``trials`` with the 95 % Wilson interval."""

    hits: int
    trials: int

    @property
    def value(self) -> float | None:
        return self.hits / self.trials if self.trials else None

    @property
    def low(self) -> float:
        return wilson_interval(self.hits, self.trials)[0]

    @property
    def high(self) -> float:
        return wilson_interval(self.hits, self.trials)[1]

    def to_json(self) -> list[float | int | None]:
        """``[rate, low, high, hits, trials]`` for the charts."""
        return [_round(self.value), _round(self.low), _round(self.high), self.hits, self.trials]


def _round(x: float | None, digits: int = 5) -> float | None:
    return None if x is None else round(x, digits)


@dataclass(frozen=True)
class TrumpCell:
    players: int
    trumps: int
    rate: Rate


@dataclass(frozen=True)
class TableRate:
    """A rate for one table size beside the fair share 1/N."""

    players: int
    rate: Rate

    @property
    def fair(self) -> float:
        return 1 / self.players


@dataclass(frozen=True)
class Length:
    players: int
    games: int
    mean: float
    half: float
    """Half-width of the mean's 95 % normal interval."""


@dataclass(frozen=True)
class Draws:
    players: int
    rate: Rate
    reasons: dict[str, int]


@dataclass(frozen=True)
class Faults:
    """One version's games and how many it lost by each kind of fault."""

    version: BotVersion
    games: int
    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def rate(self) -> Rate:
        return Rate(self.total, self.games)


@dataclass(frozen=True)
class DuplicateRow:
    """The correlation of one version (``version`` None: every version of the table size, pooled)."""

    players: int
    version: BotVersion | None
    value: Correlation
    version_id: int | None = None

    @property
    def label(self) -> str:
        if self.version is None:
            return f"{self.players}p all bots"
        return f"{self.players}p {self.version.bot.name} v{self.version.number}"


@dataclass(frozen=True)
class Comparison:
    """Our rate beside the source's, and the gap with its 95 % interval (Newcombe's hybrid score interval)."""

    ours: Rate
    source: float | None
    source_n: float
    diff: float | None = None
    low: float | None = None
    high: float | None = None
    z: float | None = None

    @property
    def clear(self) -> bool:
        """Whether the interval of the gap leaves out zero (a gap that noise does not explain)."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)


@dataclass(frozen=True)
class MeanComparison:
    ours: float | None
    half: float
    source: float | None

    @property
    def diff(self) -> float | None:
        return None if self.ours is None or self.source is None else self.ours - self.source

    @property
    def clear(self) -> bool:
        """The source's mean is a whole number of bouts: a gap must exceed our interval plus that rounding."""
        return self.diff is not None and abs(self.diff) > self.half + 0.5


@dataclass(frozen=True)
class SelfplayRow:
    players: int
    games: int
    stored: int
    no_trump: Comparison
    three_trumps: Comparison
    bouts: MeanComparison
    draws: Comparison
    opener: Comparison | None

    @property
    def fair(self) -> float:
        return 1 / self.players


@dataclass
class StatsPage:
    """Everything the page shows, computed once per filter and cached."""

    filters: Filters
    games: int
    clean_games: int
    trumps: list[TrumpCell]
    first_attacker: list[TableRate]
    lengths: list[Length]
    draws: list[Draws]
    faults: list[Faults]
    fault_versions: int
    duplicate: list[DuplicateRow]
    selfplay: list[SelfplayRow]
    computed: datetime | None = None
    seconds: float = 0.0
    """How long the aggregates took (the page shows it: a measure of the cost the cache saves)."""
    charts: dict[str, Any] = field(default_factory=dict)


def stats_page(filters: Filters) -> StatsPage:
    """The page's data for ``filters``, from the cache when it was computed in the last few minutes."""
    page: StatsPage | None = cache.get(filters.cache_key)
    if page is None:
        page = stats_compute(filters)
        cache.set(filters.cache_key, page, CACHE_SECONDS)
    return page


def stats_compute(filters: Filters) -> StatsPage:
    """Every figure of the page afresh: a fixed number of aggregate queries, whatever the number of games."""
    started = time.perf_counter()
    totals = filters.games().aggregate(n=Count("id"), clean=Count("id", filter=Q(offender_seat__isnull=True)))
    trumps = durak_by_trumps(filters)
    first = first_attacker_rates(filters)
    lengths, histogram = game_lengths(filters)
    draws = draw_rates(filters)
    faults, fault_versions = faults_by_version(filters)
    duplicate = duplicate_correlations(filters)
    selfplay = selfplay_comparison(filters)
    page = StatsPage(
        filters=filters, games=totals["n"], clean_games=totals["clean"], trumps=trumps, first_attacker=first,
        lengths=lengths, draws=draws, faults=faults, fault_versions=fault_versions, duplicate=duplicate,
        selfplay=selfplay, computed=timezone.now(),
    )
    page.charts = _charts(page, histogram)
    page.seconds = round(time.perf_counter() - started, 3)
    return page


def _clean_games(filters: Filters) -> QuerySet[Game]:
    """Games the cards decided: no forfeit."""
    return filters.games().filter(offender_seat__isnull=True)


def durak_by_trumps(filters: Filters) -> list[TrumpCell]:
    """Durak rate of a seat by the trumps in its dealt hand, per table size (one row per seat-game)."""
    rows = (
        GameSeat.objects.filter(filters.game_q("game__"), game__offender_seat__isnull=True, start_trumps__isnull=False)
        .values("game__players", "start_trumps")
        .annotate(n=Count("id"), duraks=Count("id", filter=Q(durak=True)))
        .order_by("game__players", "start_trumps")
    )
    return [TrumpCell(r["game__players"], r["start_trumps"], Rate(r["duraks"], r["n"])) for r in rows]


def first_attacker_rates(filters: Filters) -> list[TableRate]:
    """How often the seat of the first attack ended as the durak, per table size."""
    rows = (
        _clean_games(filters).filter(first_attacker__isnull=False)
        .values("players")
        .annotate(n=Count("id"), duraks=Count("id", filter=Q(durak_seat=F("first_attacker"))))
        .order_by("players")
    )
    return [TableRate(r["players"], Rate(r["duraks"], r["n"])) for r in rows]


def game_lengths(filters: Filters) -> tuple[list[Length], dict[str, Any]]:
    """Mean bouts per table size, and the distribution of bouts as a histogram (share of games per bin)."""
    games = _clean_games(filters)
    means = games.values("players").annotate(n=Count("id"), mean=Avg("bouts"), sd=StdDev("bouts", sample=True))
    lengths = [
        Length(r["players"], r["n"], float(r["mean"] or 0), Z95 * float(r["sd"] or 0) / math.sqrt(r["n"]))
        for r in means.order_by("players")
    ]
    rows = list(games.values("players", "bouts").annotate(n=Count("id")).order_by("players", "bouts"))
    return lengths, _histogram(rows, {length.players: length.games for length in lengths})


def _histogram(rows: list[dict[str, int]], totals: dict[int, int]) -> dict[str, Any]:
    """Bins of equal width over the bouts up to the 99th percentile, the rest in one last bin."""
    if not rows:
        return {"labels": [], "series": {}}
    weight = sum(r["n"] for r in rows)
    seen, cap = 0, rows[0]["bouts"]
    for r in sorted(rows, key=lambda r: r["bouts"]):
        seen += r["n"]
        cap = r["bouts"]
        if seen >= 0.99 * weight:
            break
    lowest = min(r["bouts"] for r in rows)
    width = max(1, math.ceil((cap - lowest + 1) / HISTOGRAM_BINS))
    start = lowest - lowest % width
    edges = list(range(start, cap + 1, width))
    tail = max(r["bouts"] for r in rows) >= edges[-1] + width
    labels = [f"{e}" if width == 1 else f"{e}–{e + width - 1}" for e in edges]
    if tail:
        labels.append(f"≥{edges[-1] + width}")
    series: dict[str, list[float]] = {}
    for r in rows:
        counts = series.setdefault(str(r["players"]), [0.0] * len(labels))
        index = min((r["bouts"] - start) // width, len(labels) - 1)
        counts[index] += r["n"] / max(totals.get(r["players"], 0), 1)
    return {"labels": labels, "series": {k: [round(v, 5) for v in counts] for k, counts in series.items()}}


def draw_rates(filters: Filters) -> list[Draws]:
    """Share of games drawn per table size, and how many by each reason."""
    totals = filters.games().values("players").annotate(
        n=Count("id"), draws=Count("id", filter=Q(draw=True))).order_by("players")
    reasons: dict[int, dict[str, int]] = defaultdict(dict)
    for r in filters.games().filter(draw=True).values("players", "reason").annotate(n=Count("id")):
        reasons[r["players"]][r["reason"]] = r["n"]
    return [Draws(t["players"], Rate(t["draws"], t["n"]), dict(sorted(reasons[t["players"]].items())))
            for t in totals]


def faults_by_version(filters: Filters) -> tuple[list[Faults], int]:
    """Per version: games played and games lost by each fault; the worst first (at most ``FAULT_ROWS``)."""
    counts = {reason: Count("id", filter=Q(offender=True, game__reason=reason)) for reason in FAULTS}
    rows = list(GameSeat.objects.filter(filters.game_q("game__")).values("version").annotate(n=Count("id"), **counts))
    rows.sort(key=lambda r: (-sum(r[k] for k in FAULTS) / r["n"], -r["n"], r["version"]))
    shown = rows[:FAULT_ROWS]
    versions = BotVersion.objects.select_related("bot").in_bulk([r["version"] for r in shown])
    return [Faults(versions[r["version"]], r["n"], {k: r[k] for k in FAULTS}) for r in shown], len(rows)


_DUPLICATE_SQL = """
WITH selfplay AS (
    SELECT match_id FROM {entry} GROUP BY match_id HAVING COUNT(DISTINCT version_id) < COUNT(*)
), sets AS (
    SELECT g.match_id, g.players, s.version_id, SUM(CASE WHEN s.durak THEN 1 ELSE 0 END) AS duraks
    FROM {game} g JOIN {seat} s ON s.game_id = g.id
    WHERE g.match_id NOT IN (SELECT match_id FROM selfplay){where}
    GROUP BY g.match_id, g.deal, g.players, s.version_id
    HAVING COUNT(*) = g.players
)
SELECT players, version_id, match_id, duraks, COUNT(*) FROM sets
GROUP BY players, version_id, match_id, duraks
"""


@dataclass(frozen=True)
class SetHistogram:
    """One version's complete duplicate sets at one table size: per row a match, a durak count, how many sets."""

    players: int
    version: int
    match: list[int] = field(default_factory=list)
    duraks: list[int] = field(default_factory=list)
    count: list[int] = field(default_factory=list)

    @property
    def sets(self) -> int:
        return sum(self.count)


def duplicate_sets(filters: Filters) -> list[SetHistogram]:
    """Per (table size, version): how many of its complete duplicate sets in each match had each durak count.

    A set is one deal of one match played in every rotation (as many games as seats). Matches in
    which one version holds two entries (self-play) are left out: there the version is its own
    opponent. Two versions of one bot (a strength test) are two players and count. At most N+1
    rows per version and match leave the database, however many deals the match had.
    """
    table = {name: connection.ops.quote_name(model._meta.db_table) for name, model in
             (("entry", MatchEntry), ("game", Game), ("seat", GameSeat))}
    where = ""
    params: list[str | int] = []
    if filters.preset:
        where += " AND g.preset = %s"
        params.append(filters.preset)
    if filters.players:
        where += " AND g.players = %s"
        params.append(filters.players)
    with connection.cursor() as cursor:
        cursor.execute(_DUPLICATE_SQL.format(where=where, **table), params)
        rows = cursor.fetchall()
    out: dict[tuple[int, int], SetHistogram] = {}
    for players, version, match, duraks, count in rows:
        histogram = out.setdefault((players, version), SetHistogram(players, version))
        histogram.match.append(match)
        histogram.duraks.append(int(duraks))
        histogram.count.append(count)
    return list(out.values())


def duplicate_correlations(filters: Filters) -> list[DuplicateRow]:
    """rho per table size, pooled over every version, and for the versions with the most sets."""
    histograms = duplicate_sets(filters)
    out: list[DuplicateRow] = []
    busiest: list[tuple[SetHistogram, Correlation]] = []
    for players in sorted({h.players for h in histograms}):
        mine = [h for h in histograms if h.players == players]
        # Pooled, a group is one version in one match: number them apart across versions.
        index = {key: i for i, key in enumerate(sorted({(h.version, m) for h in mine for m in h.match}))}
        overall = correlation_of_sets(
            players, [index[(h.version, m)] for h in mine for m in h.match], [d for h in mine for d in h.duraks],
            [c for h in mine for c in h.count], dependence=players,
        )
        if overall is not None:
            out.append(DuplicateRow(players, None, overall))
        # A version's own estimate needs many sets, and the table stays short.
        for h in sorted(mine, key=lambda h: (-h.sets, h.version))[:DUPLICATE_BOTS]:
            value = correlation_of_sets(players, h.match, h.duraks, h.count)
            if value is not None:
                busiest.append((h, value))
                out.append(DuplicateRow(players, None, value, version_id=h.version))
    versions = BotVersion.objects.select_related("bot").in_bulk({h.version for h, _ in busiest})
    return [DuplicateRow(r.players, versions.get(r.version_id), r.value) if r.version_id else r for r in out]


def gentle_versions() -> QuerySet[BotVersion]:
    """The reference bot ``gentle`` as the arena registers it (owned by the arena account)."""
    return BotVersion.objects.filter(bot__name=GENTLE, bot__owner__username=ARENA_USER)


def gentle_selfplay_games(filters: Filters, first_rotation_only: bool = True) -> QuerySet[Game]:
    """``classic`` games without a forfeit in which every seat is gentle, at the table sizes of the source.

    Gentle in every seat replays nearly the same game in each rotation of a deal (it is
    deterministic but for ties), so by default one game per deal counts: the others would
    add copies, not information, and make the intervals too narrow.
    """
    sizes = [p for p in source.GAMES if filters.players in (None, p)]
    # Decided on the few matches (their entries), not on every seat of every game.
    others = MatchEntry.objects.filter(match=OuterRef("pk")).exclude(version__in=gentle_versions())
    matches = Match.objects.filter(preset=source.PRESET, players__in=sizes).exclude(Exists(others))
    games = Game.objects.filter(match__in=matches, offender_seat__isnull=True)
    if first_rotation_only:
        games = games.filter(rotation=0)
    return games


def _compare(ours: Rate, theirs: float | None, their_n: float) -> Comparison:
    if theirs is None or not ours.trials:
        return Comparison(ours, theirs, their_n)
    p1, p2 = ours.hits / ours.trials, theirs
    low2, high2 = wilson_interval(round(theirs * their_n), max(1, round(their_n)))
    diff = p1 - p2
    var = p1 * (1 - p1) / ours.trials + p2 * (1 - p2) / max(their_n, 1.0)
    return Comparison(
        ours, theirs, their_n, diff,
        diff - math.sqrt((p1 - ours.low) ** 2 + (high2 - p2) ** 2),
        diff + math.sqrt((ours.high - p1) ** 2 + (p2 - low2) ** 2),
        diff / math.sqrt(var) if var > 0 else 0.0,
    )


def selfplay_comparison(filters: Filters) -> list[SelfplayRow]:
    """RULES.md section 10 for gentle playing itself: ours (one game per deal) beside the source's figures."""
    games = gentle_selfplay_games(filters)
    per_size = {r["players"]: r for r in games.values("players").annotate(
        n=Count("id"), draws=Count("id", filter=Q(draw=True)), mean=Avg("bouts"), sd=StdDev("bouts", sample=True))}
    if not per_size:
        return []
    stored = dict(gentle_selfplay_games(filters, first_rotation_only=False).values("players")
                  .annotate(n=Count("id")).values_list("players", "n"))
    cells = {(r["game__players"], r["start_trumps"]): Rate(r["duraks"], r["n"]) for r in (
        GameSeat.objects.filter(game__in=games, start_trumps__in=(0, 3))
        .values("game__players", "start_trumps")
        .annotate(n=Count("id"), duraks=Count("id", filter=Q(durak=True)))
    )}
    opener = GameSeat.objects.filter(
        game__in=games.filter(players=2), seat=F("game__first_attacker"), start_trumps__gt=0
    ).aggregate(n=Count("id"), duraks=Count("id", filter=Q(durak=True)))
    rows = []
    for players, r in sorted(per_size.items()):
        figures = source.SOURCE[players]
        n = r["n"]
        rows.append(SelfplayRow(
            players=players, games=n, stored=stored.get(players, n),
            no_trump=_compare(cells.get((players, 0), Rate(0, 0)), figures["no_trump"],
                              source.source_seat_games(players, 0)),
            three_trumps=_compare(cells.get((players, 3), Rate(0, 0)), figures["three_trumps"],
                                  source.source_seat_games(players, 3)),
            bouts=MeanComparison(float(r["mean"]), Z95 * float(r["sd"] or 0) / math.sqrt(n), figures["bouts"]),
            draws=_compare(Rate(r["draws"], n), figures["draws"], source.GAMES[players]),
            opener=_compare(Rate(opener["duraks"], opener["n"]), source.SOURCE_OPENER_2P, source.GAMES[2])
            if players == 2 and opener["n"] else None,
        ))
    return rows


def _charts(page: StatsPage, histogram: dict[str, Any]) -> dict[str, Any]:
    """The charts' data, embedded in the page as JSON (``json_script``)."""
    trumps: dict[str, list[list[Any]]] = {}
    for cell in page.trumps:
        if cell.rate.trials >= MIN_CELL:
            trumps.setdefault(str(cell.players), []).append([cell.trumps, *cell.rate.to_json()])
    return {
        "trumps": trumps,
        "first_attacker": [[r.players, *r.rate.to_json(), round(r.fair, 5)] for r in page.first_attacker],
        "bouts": histogram,
        "draws": {
            "players": [d.players for d in page.draws],
            "reasons": {reason: [_round(d.reasons.get(reason, 0) / d.rate.trials) for d in page.draws]
                        for reason in sorted({k for d in page.draws for k in d.reasons})},
        },
        "duplicate": [
            [row.label, _round(row.value.factor), _round(row.value.factor_low),
             _round(row.value.factor_high), _round(row.value.rho), row.value.sets]
            for row in page.duplicate
        ],
    }
