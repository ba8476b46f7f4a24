"""Reads of the matchmaker: the pool a pass schedules from, last-played times, starved bots, ladder activity.

Everything here costs a fixed handful of queries over per-version rows (active
versions, their ratings, the matchmaker's own bookkeeping) plus short range
scans over recent matches, never an aggregate over the whole match history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Count, Max, Min, Q
from django.db.models.functions import TruncHour
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matches.models import Game, Match, MatchEntry
from arena.matches.services import TOURNAMENT_QUEUE
from arena.matchmaking.conf import Config, matchmaking_config
from arena.matchmaking.models import LadderSlot, VersionPlay
from arena.ratings.models import Ladder, Rating

PLAY_OVERLAP = timedelta(minutes=10)
"""How far before the newest known play the catch-up looks again: a match's ``finished`` is stamped before its
transaction commits, so a slow commit can appear after a later match was already seen."""


def author_of(version: BotVersion) -> str:
    """Whose code a version is, for the one-version-per-author rule.

    The reference bots all belong to the ``arena`` account, but each is its own author here: they are fixed,
    published code that cannot collude, and counting them as one author would leave an arena of the reference
    bots and two authors unable to seat four players."""
    return f"ref:{version.reference}" if version.reference else f"user:{version.bot.owner_id}"


# ---------------------------------------------------------------------------------------------- last played


def play_watermark() -> datetime | None:
    """Where the catch-up of finished rated matches starts: a little before the newest play it stored."""
    newest = VersionPlay.objects.aggregate(at=Max("last_played"))["at"]
    return None if newest is None else newest - PLAY_OVERLAP


def recent_plays(since: datetime | None) -> dict[int, datetime]:
    """Per version, when its latest rated match finished at or after ``since`` (every rated match if None)."""
    matches = MatchEntry.objects.filter(match__rated=True, match__status=Match.Status.DONE)
    if since is not None:
        matches = matches.filter(match__finished__gte=since)
    rows = matches.values("version_id").annotate(at=Max("match__finished")).values_list("version_id", "at")
    return {version_id: at for version_id, at in rows if at is not None}


def last_played(version_ids: list[int]) -> dict[int, datetime]:
    """When each of these versions last finished a rated match: the stored times, brought up to date with the
    matches finished since the last catch-up (read only; ``plays_catch_up`` stores them)."""
    times = dict(VersionPlay.objects.filter(version_id__in=version_ids).values_list("version_id", "last_played"))
    wanted = set(version_ids)
    for version_id, at in recent_plays(play_watermark()).items():
        if version_id in wanted and (version_id not in times or at > times[version_id]):
            times[version_id] = at
    return times


# ---------------------------------------------------------------------------------------------- the pool


@dataclass
class Entrant:
    """An active version as a pass sees it; ``ratings`` and ``slots`` are keyed by ladder id."""

    version: BotVersion
    author: str
    admitted: datetime | None
    last_played: datetime | None
    last_scheduled: datetime | None
    busy: bool
    ratings: dict[int, tuple[float, float, int]] = field(default_factory=dict)
    """Ladder id -> (rating, se, rated games)."""
    slots: dict[int, int] = field(default_factory=dict)
    """Ladder id -> ladder matches scheduled."""

    @property
    def last_active(self) -> datetime | None:
        """The latest of admission, last rated game and last ladder match scheduled: what "least recently
        played" orders by (a match just scheduled counts, or one bot would be seeded into every match of a pass)."""
        times = [t for t in (self.admitted, self.last_played, self.last_scheduled) if t is not None]
        return max(times) if times else None


def in_time(now: datetime | None = None, prefix: str = "") -> Q:
    """Queued, or running within its deadline (or with none yet): a match past its deadline is stuck, the reaper
    takes it back, and it must not hold a place in the queue meanwhile."""
    now = now or timezone.now()
    return (Q(**{f"{prefix}status": Match.Status.QUEUED})
            | Q(**{f"{prefix}status": Match.Status.RUNNING, f"{prefix}deadline__gte": now})
            | Q(**{f"{prefix}status": Match.Status.RUNNING, f"{prefix}deadline__isnull": True}))


def in_flight_entries() -> list[tuple[int, int]]:
    """(match id, version id) of every ladder match queued or running in time."""
    return list(
        MatchEntry.objects.filter(in_time(prefix="match__"), match__kind=Match.Kind.LADDER)
        .values_list("match_id", "version_id")
    )


@dataclass(frozen=True)
class Recovery:
    """Matches of every kind that did not end well: what the activity page shows so that a stall is not silent."""

    overdue: int
    """Running past their deadline now (the reaper takes them back within a minute)."""
    failed_day: int
    reaped_day: int
    """Matches created in the last 24 hours that the reaper took back from a worker at least once."""


def recovery_activity(now: datetime | None = None) -> Recovery:
    now = now or timezone.now()
    day = now - timedelta(days=1)
    counts = Match.objects.aggregate(
        overdue=Count("id", filter=Q(status=Match.Status.RUNNING, deadline__lt=now)),
        failed=Count("id", filter=Q(status=Match.Status.FAILED, finished__gte=day)),
        reaped=Count("id", filter=Q(reaped__gt=0, created__gte=day)),
    )
    return Recovery(overdue=counts["overdue"], failed_day=counts["failed"], reaped_day=counts["reaped"])


def matchmaking_pool(busy: set[int]) -> list[Entrant]:
    """Every active version with its ratings, its scheduling history and its last rated game (4 queries)."""
    versions = list(BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot").order_by("pk"))
    ids = [v.pk for v in versions]
    plays = dict(VersionPlay.objects.filter(version_id__in=ids).values_list("version_id", "last_played"))
    entrants = {
        v.pk: Entrant(version=v, author=author_of(v), admitted=v.admitted, last_played=plays.get(v.pk),
                      last_scheduled=None, busy=v.pk in busy)
        for v in versions
    }
    # by id, not by a join on the status: a version admitted meanwhile must not show up half-loaded
    ratings = Rating.objects.filter(version_id__in=ids).values_list("version_id", "ladder_id", "rating", "se", "games")
    for version_id, ladder_id, rating, se, games in ratings:
        entrants[version_id].ratings[ladder_id] = (rating, se, games)
    slots = LadderSlot.objects.filter(version_id__in=ids).values_list(
        "version_id", "ladder_id", "matches", "last_scheduled"
    )
    for version_id, ladder_id, matches, scheduled in slots:
        entrant = entrants[version_id]
        entrant.slots[ladder_id] = matches
        if entrant.last_scheduled is None or scheduled > entrant.last_scheduled:
            entrant.last_scheduled = scheduled
    return list(entrants.values())


# ---------------------------------------------------------------------------------------------- starvation


@dataclass(frozen=True)
class StarvedVersion:
    version: BotVersion
    last_played: datetime | None
    """None: never finished a rated game (then the wait counts from its admission)."""


def _is_starved(last: datetime | None, admitted: datetime | None, cutoff: datetime) -> bool:
    since = last or admitted
    return since is None or since < cutoff


def starved_versions(now: datetime | None = None, config: Config | None = None) -> list[StarvedVersion]:
    """Active versions whose last rated game (or, never having played, their admission) is older than the
    threshold; the longest waiting first."""
    now = now or timezone.now()
    cutoff = now - (config or matchmaking_config()).starved_after
    versions = list(BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot__owner"))
    plays = last_played([v.pk for v in versions])
    starved = [StarvedVersion(v, plays.get(v.pk)) for v in versions
               if _is_starved(plays.get(v.pk), v.admitted, cutoff)]
    epoch = datetime.min.replace(tzinfo=now.tzinfo)
    return sorted(starved, key=lambda s: (s.last_played or s.version.admitted or epoch, s.version.pk))


# ---------------------------------------------------------------------------------------------- the page


@dataclass(frozen=True)
class LadderActivity:
    slug: str
    title: str
    share: float | None
    """Share of new ladder matches (None: not in the mix any more, only still busy or recently played)."""
    queued: int
    running: int
    games_hour: int
    games_day: int


@dataclass(frozen=True)
class BotActivity:
    version: BotVersion
    last_played: datetime | None
    games: int
    """Rated games over every ladder."""
    se: float | None
    se_ladder: str
    """The ladder of the largest standard error (the one the matchmaker most wants to play)."""
    matches: int
    """Ladder matches the matchmaker scheduled."""
    starved: bool


def ladder_activity(now: datetime | None = None, config: Config | None = None) -> list[LadderActivity]:
    """Per ladder of the mix (and any other with ladder matches in the last day): queue and recent games."""
    now = now or timezone.now()
    config = config or matchmaking_config()
    total = sum(share.weight for share in config.ladders) or 1.0
    rows: dict[tuple[str, int], dict[str, int]] = {}
    shares = {(s.preset, s.players): s.weight / total for s in config.ladders}
    for key in shares:
        rows[key] = {"queued": 0, "running": 0, "hour": 0, "day": 0}
    queue = (Match.objects.filter(in_time(now), kind=Match.Kind.LADDER)
             .values_list("preset", "players", "status").annotate(n=Count("id")))
    for preset, players, status, n in queue:
        rows.setdefault((preset, players), {"queued": 0, "running": 0, "hour": 0, "day": 0})[status] = n
    games = (
        Game.objects.filter(match__kind=Match.Kind.LADDER, match__status=Match.Status.DONE,
                            match__finished__gte=now - timedelta(days=1))
        .values_list("preset", "players")
        .annotate(day=Count("id"), hour=Count("id", filter=Q(match__finished__gte=now - timedelta(hours=1))))
    )
    for preset, players, day, hour in games:
        row = rows.setdefault((preset, players), {"queued": 0, "running": 0, "hour": 0, "day": 0})
        row["day"], row["hour"] = day, hour
    return [
        LadderActivity(slug=f"{preset}-{players}", title=f"{preset.capitalize()}, {players} players",
                       share=shares.get((preset, players)), queued=row["queued"], running=row["running"],
                       games_hour=row["hour"], games_day=row["day"])
        for (preset, players), row in sorted(rows.items(), key=lambda item: (item[0][1], item[0][0]))
    ]


@dataclass(frozen=True)
class QueueActivity:
    """Matches of one kind waiting on, or playing from, one Celery queue."""

    queue: str
    kind: str
    queued: int
    running: int
    oldest: datetime | None
    """When the longest-waiting queued match of the kind was created."""


def queue_activity() -> list[QueueActivity]:
    """What waits where: per queue (tournament matches on ``tournament``, with workers of their own; the rest on
    ``referee``) and per match kind, the queued and running matches and the oldest wait."""
    rows = (Match.objects.filter(status__in=(Match.Status.QUEUED, Match.Status.RUNNING)).values_list("kind")
            .annotate(queued=Count("id", filter=Q(status=Match.Status.QUEUED)),
                      running=Count("id", filter=Q(status=Match.Status.RUNNING)),
                      oldest=Min("created", filter=Q(status=Match.Status.QUEUED))))
    labels = dict(Match.Kind.choices)
    found = [
        QueueActivity(queue=TOURNAMENT_QUEUE if kind == Match.Kind.TOURNAMENT else "referee",
                      kind=str(labels.get(kind, kind)), queued=queued, running=running, oldest=oldest)
        for kind, queued, running, oldest in rows
    ]
    return sorted(found, key=lambda row: (row.queue != TOURNAMENT_QUEUE, row.queue, row.kind))


def ladder_games_by_hour(now: datetime | None = None, hours: int = 24) -> tuple[list[str], dict[str, list[int]]]:
    """Ladder games finished per hour over the last ``hours`` hours: the hour labels, and per ladder slug a count
    per hour (for the page's chart)."""
    now = now or timezone.now()
    start = now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=hours - 1)
    labels = [(start + timedelta(hours=i)).strftime("%H:00") for i in range(hours)]
    rows = (
        Game.objects.filter(match__kind=Match.Kind.LADDER, match__status=Match.Status.DONE,
                            match__finished__gte=start)
        .annotate(hour=TruncHour("match__finished"))
        .values_list("preset", "players", "hour")
        .annotate(n=Count("id"))
    )
    series: dict[str, list[int]] = {}
    for preset, players, hour, n in rows:
        index = int((hour - start).total_seconds() // 3600)
        if 0 <= index < hours:
            series.setdefault(f"{preset}-{players}", [0] * hours)[index] += n
    return labels, dict(sorted(series.items()))


def bot_activity(now: datetime | None = None, config: Config | None = None) -> list[BotActivity]:
    """Every active version: last rated game, rated games, largest SE, ladder matches scheduled, starved or
    not; the starved ones first, then the longest waiting."""
    now = now or timezone.now()
    cutoff = now - (config or matchmaking_config()).starved_after
    versions = list(BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot__owner"))
    ids = [v.pk for v in versions]
    plays = last_played(ids)
    games: dict[int, int] = {}
    widest: dict[int, tuple[float, str]] = {}
    ratings = Rating.objects.filter(version_id__in=ids).values_list(
        "version_id", "ladder__preset", "ladder__players", "se", "games"
    )
    for version_id, preset, players, se, count in ratings:
        games[version_id] = games.get(version_id, 0) + count
        if version_id not in widest or se > widest[version_id][0]:
            widest[version_id] = (se, f"{preset}-{players}")
    totals: dict[int, int] = {}
    for version_id, matches in LadderSlot.objects.filter(version_id__in=ids).values_list("version_id", "matches"):
        totals[version_id] = totals.get(version_id, 0) + matches
    rows = [
        BotActivity(
            version=v, last_played=plays.get(v.pk), games=games.get(v.pk, 0),
            se=widest[v.pk][0] if v.pk in widest else None, se_ladder=widest[v.pk][1] if v.pk in widest else "",
            matches=totals.get(v.pk, 0), starved=_is_starved(plays.get(v.pk), v.admitted, cutoff),
        )
        for v in versions
    ]
    epoch = datetime.min.replace(tzinfo=now.tzinfo)
    return sorted(rows, key=lambda r: (not r.starved, r.last_played or epoch, r.version.bot.name))


def ladders_by_slug(slugs: list[tuple[str, int]]) -> dict[tuple[str, int], Ladder]:
    """The ladders that exist among these (preset, players)."""
    wanted = set(slugs)
    return {(ladder.preset, ladder.players): ladder for ladder in Ladder.objects.all()
            if (ladder.preset, ladder.players) in wanted}
