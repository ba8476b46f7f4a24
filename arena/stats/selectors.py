"""Reads of the statistics page: each figure is one SQL aggregate over Game/GameSeat, cached per filter.

Every query groups in the database (GROUP BY table size, starting trumps, bouts,
draw reason, version, duplicate set) and returns at most a few hundred rows, so
the page costs the same few queries at 100 games and at 100,000; the whole page
is then cached per filter until the next game is stored.

Games that ended by a forfeit (timeout, crash, illegal action, protocol) are
left out of the figures about the cards and the length of a game: their durak
is the offender, whatever the deal. Draws count as "not the durak". Every rate
comes with its 95 % Wilson interval, which treats games as independent; games
of one duplicate set are not (the rotations share a deck), which is why the
gentle self-play comparison counts one game per deal.

Games at a table with people (matches of kind ``table``) are never counted: they
are not bots' statistics. Partnership games (``TEAM_PRESETS``) stay out of every
figure about individual play, where "the durak" is one player: in them a whole
team loses, so a seat's durak rate there measures its team, not the seat. They
have their own section, which compares a team's seats with a lone player's.
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
from django.db.models import Avg, Case, CharField, Count, Exists, F, OuterRef, Q, QuerySet, Value, When
from django.db.models.functions import Mod
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import pgettext_lazy
from django_stubs_ext import StrOrPromise

from arena.bots.models import BotVersion
from arena.bots.services import ARENA_USER
from arena.matches.models import Game, GameSeat, Match, MatchEntry
from arena.matches.services import FAULTS
from arena.stats import source
from arena.stats.duplicate import Correlation, correlation_of_sets
from bots_sdk.engine import PLAYER_COUNTS, TEAM_PRESETS, Rules
from bots_sdk.stats import Z95, wilson_interval

CACHE_SECONDS = 300
"""The longest a computed page is kept; a newly stored game changes its key sooner (``stats_page``)."""
GENTLE = "gentle"
"""The reference bot whose self-play the source's table describes."""
MIN_CELL = 10
"""Seat-games below which a chart leaves a cell out (its interval would span most of the axis)."""
HISTOGRAM_BINS = 30
FAULT_ROWS = 200
DUPLICATE_BOTS = 10
"""Versions per table size with their own correlation row (those with the most duplicate sets)."""
TEAM_SIZES = tuple(sorted({n for preset in TEAM_PRESETS for n in PLAYER_COUNTS[preset]}))
"""The table sizes partnerships are played at (individual play is compared at these only)."""


@dataclass(frozen=True)
class Filters:
    """What the visitor narrowed the page to (None: everything).

    Every query goes through one of the scopes below, so no figure can count a
    game at a table with people, or mix partnership games into individual play.
    """

    preset: str | None = None
    players: int | None = None

    def game_q(self, prefix: str = "") -> Q:
        """The visitor's filter and bots' games only (no table with people)."""
        q = ~Q(**{f"{prefix}match__kind": Match.Kind.TABLE})
        if self.preset:
            q &= Q(**{f"{prefix}preset": self.preset})
        if self.players:
            q &= Q(**{f"{prefix}players": self.players})
        return q

    def individual_q(self, prefix: str = "") -> Q:
        """Games of individual play: every seat for itself, one durak."""
        return self.game_q(prefix) & ~Q(**{f"{prefix}preset__in": TEAM_PRESETS})

    def team_q(self, prefix: str = "") -> Q:
        """Games in partnerships: a team loses together."""
        return self.game_q(prefix) & Q(**{f"{prefix}preset__in": TEAM_PRESETS})

    def individual(self) -> QuerySet[Game]:
        return Game.objects.filter(self.individual_q())

    @property
    def team_preset(self) -> bool:
        return self.preset in TEAM_PRESETS

    def baseline(self) -> Filters:
        """What partnerships are compared with: individual play at the filtered table size, under the filtered
        preset unless that is a team preset (then every individual preset, or there would be nothing to compare)."""
        return Filters(None if self.team_preset else self.preset, self.players)

    def sql(self, game: str = "g") -> tuple[str, list[Any]]:
        """The visitor's filter as raw SQL conditions on the game table aliased ``game`` (`` AND ...``)."""
        where, params = "", list[Any]()
        if self.preset:
            where += f" AND {game}.preset = %s"
            params.append(self.preset)
        if self.players:
            where += f" AND {game}.players = %s"
            params.append(self.players)
        return where, params

    @property
    def cache_key(self) -> str:
        return f"stats:page:v2:{self.preset or '*'}:{self.players or '*'}"


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
class Sides:
    """One layout at one table size: how often the side (a team, or a lone player) of the first attacker lost,
    and the side of the first defender, beside the fair share 1/sides."""

    preset: str | None
    """The team preset; None: individual play (pooled over the individual presets the filter allows)."""
    players: int
    sides: int
    attacker: Rate
    defender: Rate

    @property
    def fair(self) -> float:
        return 1 / self.sides

    @property
    def label(self) -> StrOrPromise:
        """Lazy: the page is cached once for every reader, and each reads the words in their own language."""
        if self.preset:
            return f"{self.preset} {self.players}p"
        return format_lazy("{} {}p", pgettext_lazy("chart label", "individual"), self.players)


@dataclass(frozen=True)
class TeamTrumpCell:
    """A team's loss rate when its seats were dealt ``trumps`` trumps between them."""

    preset: str
    players: int
    sides: int
    trumps: int
    rate: Rate

    @property
    def fair(self) -> float:
        return 1 / self.sides

    @property
    def label(self) -> str:
        return f"{self.preset} {self.players}p"


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
    def label(self) -> StrOrPromise:
        if self.version is None:
            return format_lazy("{}p {}", self.players, pgettext_lazy("chart label", "all bots"))
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
    """Bots' games of the filter, individual play and partnerships."""
    individual_games: int
    clean_games: int
    """Games of individual play without a forfeit."""
    trumps: list[TrumpCell]
    first_attacker: list[TableRate]
    lengths: list[Length]
    draws: list[Draws]
    faults: list[Faults]
    fault_versions: int
    duplicate: list[DuplicateRow]
    selfplay: list[SelfplayRow]
    partnerships: list[Sides]
    team_trumps: list[TeamTrumpCell]
    computed: datetime | None = None
    seconds: float = 0.0
    """How long the aggregates took (the page shows it: a measure of the cost the cache saves)."""
    charts: dict[str, Any] = field(default_factory=dict)

    @property
    def team_games(self) -> int:
        return self.games - self.individual_games


def stats_page(filters: Filters) -> StatsPage:
    """The page's data for ``filters``: from the cache while no game has been stored since it was computed.

    The key carries the newest game's id (one index look-up), so a round robin that just ended shows at
    once, in every web process, whatever the cache backend; ``CACHE_SECONDS`` only bounds the memory."""
    newest = Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    key = f"{filters.cache_key}:{newest}"
    page: StatsPage | None = cache.get(key)
    if page is None:
        page = stats_compute(filters)
        cache.set(key, page, CACHE_SECONDS)
    return page


def stats_compute(filters: Filters) -> StatsPage:
    """Every figure of the page afresh: a fixed number of aggregate queries, whatever the number of games."""
    started = time.perf_counter()
    alone = ~Q(preset__in=TEAM_PRESETS)
    totals = Game.objects.filter(filters.game_q()).aggregate(
        n=Count("id"), individual=Count("id", filter=alone),
        clean=Count("id", filter=alone & Q(offender_seat__isnull=True)),
    )
    trumps = durak_by_trumps(filters)
    first = first_attacker_rates(filters)
    lengths, histogram = game_lengths(filters)
    draws = draw_rates(filters)
    faults, fault_versions = faults_by_version(filters)
    duplicate = duplicate_correlations(filters)
    selfplay = selfplay_comparison(filters)
    partnerships = partnership_sides(filters)
    team_trumps = team_loss_by_trumps(filters)
    page = StatsPage(
        filters=filters, games=totals["n"], individual_games=totals["individual"], clean_games=totals["clean"],
        trumps=trumps, first_attacker=first, lengths=lengths, draws=draws, faults=faults,
        fault_versions=fault_versions, duplicate=duplicate, selfplay=selfplay, partnerships=partnerships,
        team_trumps=team_trumps, computed=timezone.now(),
    )
    page.charts = _charts(page, histogram)
    page.seconds = round(time.perf_counter() - started, 3)
    return page


def _clean_games(filters: Filters) -> QuerySet[Game]:
    """Games of individual play the cards decided: no forfeit."""
    return filters.individual().filter(offender_seat__isnull=True)


def durak_by_trumps(filters: Filters) -> list[TrumpCell]:
    """Durak rate of a seat by the trumps in its dealt hand, per table size (one row per seat-game)."""
    rows = (
        GameSeat.objects.filter(filters.individual_q("game__"), game__offender_seat__isnull=True,
                                start_trumps__isnull=False)
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


_MEAN_SQUARE = Avg(F("bouts") * F("bouts"))
"""With the mean, the sample standard deviation; SQLite's STDDEV (Python's ``statistics``) fails on one row."""


def _sample_sd(row: dict[str, Any]) -> float:
    """The sample standard deviation of bouts from a row's count, mean and mean square (0 below two games)."""
    n = row["n"]
    if n < 2 or row["mean"] is None:
        return 0.0
    return math.sqrt(max(0.0, (float(row["square"]) - float(row["mean"]) ** 2) * n / (n - 1)))


def game_lengths(filters: Filters) -> tuple[list[Length], dict[str, Any]]:
    """Mean bouts per table size, and the distribution of bouts as a histogram (share of games per bin)."""
    games = _clean_games(filters)
    means = games.values("players").annotate(n=Count("id"), mean=Avg("bouts"), square=_MEAN_SQUARE)
    lengths = [
        Length(r["players"], r["n"], float(r["mean"] or 0), Z95 * _sample_sd(r) / math.sqrt(r["n"]))
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
    totals = filters.individual().values("players").annotate(
        n=Count("id"), draws=Count("id", filter=Q(draw=True))).order_by("players")
    reasons: dict[int, dict[str, int]] = defaultdict(dict)
    for r in filters.individual().filter(draw=True).values("players", "reason").annotate(n=Count("id")):
        reasons[r["players"]][r["reason"]] = r["n"]
    return [Draws(t["players"], Rate(t["draws"], t["n"]), dict(sorted(reasons[t["players"]].items())))
            for t in totals]


def faults_by_version(filters: Filters) -> tuple[list[Faults], int]:
    """Per version: games played and games lost by each fault; the worst first (at most ``FAULT_ROWS``)."""
    counts = {reason: Count("id", filter=Q(offender=True, game__reason=reason)) for reason in FAULTS}
    seats = GameSeat.objects.filter(filters.individual_q("game__"))
    rows = list(seats.values("version").annotate(n=Count("id"), **counts))
    rows.sort(key=lambda r: (-sum(r[k] for k in FAULTS) / r["n"], -r["n"], r["version"]))
    shown = rows[:FAULT_ROWS]
    versions = BotVersion.objects.select_related("bot").in_bulk([r["version"] for r in shown])
    return [Faults(versions[r["version"]], r["n"], {k: r[k] for k in FAULTS}) for r in shown], len(rows)


def _tables() -> dict[str, str]:
    """The quoted table names the raw queries format in."""
    return {name: connection.ops.quote_name(model._meta.db_table) for name, model in
            (("entry", MatchEntry), ("game", Game), ("seat", GameSeat), ("match", Match))}


_DUPLICATE_SQL = """
WITH selfplay AS (
    SELECT match_id FROM {entry} GROUP BY match_id HAVING COUNT(DISTINCT version_id) < COUNT(*)
), sets AS (
    SELECT g.match_id, g.players, s.version_id, SUM(CASE WHEN s.durak THEN 1 ELSE 0 END) AS duraks
    FROM {game} g JOIN {seat} s ON s.game_id = g.id JOIN {match} m ON m.id = g.match_id
    WHERE g.match_id NOT IN (SELECT match_id FROM selfplay) AND m.kind <> %s AND g.preset NOT IN ({teams}){where}
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
    where, params = filters.sql()
    sql = _DUPLICATE_SQL.format(where=where, teams=", ".join(["%s"] * len(TEAM_PRESETS)), **_tables())
    with connection.cursor() as cursor:
        cursor.execute(sql, [Match.Kind.TABLE, *TEAM_PRESETS, *params])
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
    matches = Match.objects.filter(preset=source.PRESET, players__in=sizes).exclude(kind=Match.Kind.TABLE).exclude(
        Exists(others))
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
    """docs/rules.md section 10 for gentle playing itself: ours (one game per deal) beside the source's figures.

    The source played ``classic``: a filter on any other preset (a team preset included) leaves nothing to compare.
    """
    if filters.preset not in (None, source.PRESET):
        return []
    games = gentle_selfplay_games(filters)
    per_size = {r["players"]: r for r in games.values("players").annotate(
        n=Count("id"), draws=Count("id", filter=Q(draw=True)), mean=Avg("bouts"), square=_MEAN_SQUARE)}
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
            bouts=MeanComparison(float(r["mean"]), Z95 * _sample_sd(r) / math.sqrt(n), figures["bouts"]),
            draws=_compare(Rate(r["draws"], n), figures["draws"], source.GAMES[players]),
            opener=_compare(Rate(opener["duraks"], opener["n"]), source.SOURCE_OPENER_2P, source.GAMES[2])
            if players == 2 and opener["n"] else None,
        ))
    return rows


def _sides(preset: str | None, players: int) -> int:
    """The parties of a game: the teams of a team preset, else every player."""
    return Rules.preset(preset, players=players).sides if preset else players


def partnership_sides(filters: Filters) -> list[Sides]:
    """Loss rates of the first attacker's side and the first defender's side: per team preset and table size,
    and for individual play at the table sizes that have team games (one row per seat-game of those two seats).

    The first defender is the seat after the first attacker: at the deal every player holds cards, and in
    every team layout of the engine the next seat is an opponent (``tests/arena/stats/test_partnerships.py``
    checks this against the engine). ``GameSeat.durak`` marks every seat of the losing team, so one seat's
    row says whether its side lost, in partnerships and in individual play alike.
    """
    attacker = F("game__first_attacker")
    layout = Case(*(When(game__preset=p, then=Value(p)) for p in TEAM_PRESETS), default=Value(""),
                  output_field=CharField())
    role = Case(When(seat=attacker, then=Value("attacker")), default=Value("defender"), output_field=CharField())
    rows = (
        GameSeat.objects.filter(filters.team_q("game__") | filters.baseline().individual_q("game__"),
                                Q(seat=attacker) | Q(seat=Mod(attacker + 1, F("game__players"))),
                                game__offender_seat__isnull=True, game__first_attacker__isnull=False,
                                game__players__in=TEAM_SIZES)
        .annotate(layout=layout, role=role)
        .values("layout", "game__players", "role")
        .annotate(n=Count("id"), lost=Count("id", filter=Q(durak=True)))
        .order_by("game__players", "layout", "role")
    )
    cells = {(r["layout"], r["game__players"], r["role"]): Rate(r["lost"], r["n"]) for r in rows}
    with_teams = {players for layout, players, _ in cells if layout}
    return [
        Sides(layout or None, players, _sides(layout, players), cells.get((layout, players, "attacker"), Rate(0, 0)),
              cells.get((layout, players, "defender"), Rate(0, 0)))
        for players, layout in sorted({(p, layout) for layout, p, _ in cells if p in with_teams})
    ]


_TEAM_TRUMPS_SQL = """
WITH seats AS (
    SELECT g.id AS game_id, g.preset, g.players, s.start_trumps, s.durak, CASE {team} END AS team
    FROM {game} g JOIN {seat} s ON s.game_id = g.id JOIN {match} m ON m.id = g.match_id
    WHERE g.offender_seat IS NULL AND m.kind <> %s AND g.preset IN ({teams}){where}
), sides AS (
    SELECT preset, players, SUM(start_trumps) AS trumps, MAX(CASE WHEN durak THEN 1 ELSE 0 END) AS lost
    FROM seats WHERE team IS NOT NULL
    GROUP BY game_id, preset, players, team
    HAVING COUNT(start_trumps) = COUNT(*)
)
SELECT preset, players, trumps, COUNT(*), SUM(lost) FROM sides
GROUP BY preset, players, trumps
"""


def _team_case() -> tuple[str, list[Any]]:
    """``WHEN ... THEN team`` for every seat of every team layout, read from the engine's presets."""
    whens, params = [], list[Any]()
    for preset in TEAM_PRESETS:
        for players in PLAYER_COUNTS[preset]:
            for index, team in enumerate(Rules.preset(preset, players=players).teams or ()):
                seats = ", ".join(str(int(seat)) for seat in team)
                whens.append(f"WHEN g.preset = %s AND g.players = %s AND s.seat IN ({seats}) THEN {int(index)}")
                params += [preset, players]
    return " ".join(whens), params


def team_loss_by_trumps(filters: Filters) -> list[TeamTrumpCell]:
    """A team's loss rate by the trumps dealt to its seats together, per team preset and table size.

    One row per team and game (forfeits left out, draws count as not lost); a team whose seats'
    trumps are not all known is left out. Grouped twice in one query: the team's sum within a
    game, then the teams by that sum, so at most ten rows per layout leave the database.
    """
    team, team_params = _team_case()
    where, params = filters.sql()
    sql = _TEAM_TRUMPS_SQL.format(team=team, teams=", ".join(["%s"] * len(TEAM_PRESETS)), where=where, **_tables())
    with connection.cursor() as cursor:
        cursor.execute(sql, [*team_params, Match.Kind.TABLE, *TEAM_PRESETS, *params])
        rows = cursor.fetchall()
    return [TeamTrumpCell(preset, players, _sides(preset, players), int(trumps), Rate(int(lost), n))
            for preset, players, trumps, n, lost in sorted(rows, key=lambda r: (r[1], r[0], r[2]))]


def _by_trumps(cells: list[tuple[str, int, Rate]]) -> dict[str, list[list[Any]]]:
    """Chart lines keyed by ``cells``' first item: points ``[trumps, rate, low, high, hits, trials]``."""
    lines: dict[str, list[list[Any]]] = {}
    for key, trumps, rate in cells:
        if rate.trials >= MIN_CELL:
            lines.setdefault(key, []).append([trumps, *rate.to_json()])
    return lines


def _charts(page: StatsPage, histogram: dict[str, Any]) -> dict[str, Any]:
    """The charts' data, embedded in the page as JSON (``json_script``)."""
    return {
        "trumps": _by_trumps([(str(c.players), c.trumps, c.rate) for c in page.trumps]),
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
        "partnerships": {
            "labels": [row.label for row in page.partnerships],
            "attacker": [row.attacker.to_json() for row in page.partnerships],
            "defender": [row.defender.to_json() for row in page.partnerships],
            "fair": [_round(row.fair) for row in page.partnerships],
        },
        "team_trumps": _by_trumps([(c.label, c.trumps, c.rate) for c in page.team_trumps]),
        "team_fair": {c.label: _round(c.fair) for c in page.team_trumps},
    }
