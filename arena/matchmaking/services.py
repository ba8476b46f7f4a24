"""Writes of the matchmaker: one scheduling pass that tops the ladders' queue up, and its beat schedule.

A pass (Halite II's coordinator, adapted to tables of 2-6 and to authors):

1. Counts the ladder matches queued or running; creates matches only while that count is below the
   queue depth, so the referee queue never fills with ladder work that admissions and challenges would
   wait behind.
2. Picks a ladder from the configured mix by weight, among the ladders with at least as many authors
   as the table has seats.
3. Picks the seed version: a version that has never had a ladder match on this ladder first (authors'
   versions before reference bots, then the oldest admission first), so a newly admitted version plays on
   the next pass; otherwise, at random, half the time a version drawn with weight SE² x wait² (the least
   certain ratings play most, the long waiting ones too), a quarter of the time one of the 15 least
   recently active, else the least recently active one.
4. Fills the other seats from the versions closest in rating to the seed: a random window of the
   ``int(5 / (0.01 + U) ** 0.65)`` nearest (4 to 99, mostly small), drawn from with weight wait³, then
   onwards in order of closeness if the window runs out of authors; never two versions of one author at
   a table (each reference bot counts as an author of its own: ``selectors.author_of``).
5. Creates the match (kind ladder, rated) and notes the slot for each seated version.

A version already in a queued or running ladder match sits out while enough other authors are free, so in a
large arena each version is in at most one ladder match at a time; a small arena still fills its tables.
"""

from __future__ import annotations

import logging
import random
import statistics
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import connection, transaction
from django.utils import timezone

from arena.matches.models import Match
from arena.matches.services import match_create
from arena.matchmaking.conf import Config, LadderShare, matchmaking_config
from arena.matchmaking.models import LadderSlot, VersionPlay
from arena.matchmaking.selectors import (
    Entrant,
    in_flight_entries,
    ladders_by_slug,
    matchmaking_pool,
    play_watermark,
    recent_plays,
)
from arena.ratings.models import Ladder
from arena.ratings.services import START_RATING, START_SE, ladder_for

log = logging.getLogger(__name__)

SEED_BY_SE = 0.5
"""Share of seeds drawn with weight SE² x wait² (Halite draws half its seeds weighted by uncertainty alone)."""
SEED_FROM_LEAST_RECENT = 0.25
"""Share of seeds drawn from the ``LEAST_RECENT_FEW`` least recently active versions; the rest take the least
recent one itself."""
LEAST_RECENT_FEW = 15
SEED_WAIT_POWER = 2.0
FILL_WAIT_POWER = 3.0
"""How strongly the waiting time weighs in the uncertainty draw of the seed and in the draw of the other seats
from the window. Halite weighs neither; without them, on an arena whose workers only just keep up (200 bots,
4 workers, 2 deals a match: a bot's turn comes about every 27 minutes) a bot's longest wait between two games
was 53 minutes at the median, with them 37-40 (tests/bench/matchmaking.py --deals 2; strict least-recent-first
gives 31, but no randomness)."""
MAX_WAIT_MINUTES = 7 * 24 * 60.0
_EPOCH = datetime.min.replace(tzinfo=UTC)
_LOCK_KEY = 0x6D61_7463_686D_6B72  # "matchmkr"
"""The PostgreSQL advisory lock a pass holds for its transaction, so two overlapping passes cannot both top the
queue up (beat runs one scheduler, but a delayed task can overlap the next)."""


# ---------------------------------------------------------------------------------------------- planning


@dataclass(frozen=True)
class Table:
    share: LadderShare
    ladder: Ladder
    entrants: list[Entrant]


def window_size(u: float) -> int:
    """Halite's opponent window: how many of the nearest-rated versions the other seats are drawn from."""
    return int(5 / (0.01 + u) ** 0.65)


def rating_on(entrant: Entrant, ladder_id: int) -> float:
    """The version's rating on this ladder; unrated there, the mean of its other ladders (admission rates every
    version on the admission ladder), else the prior's mean."""
    if ladder_id in entrant.ratings:
        return entrant.ratings[ladder_id][0]
    if entrant.ratings:
        return statistics.fmean(rating for rating, _, _ in entrant.ratings.values())
    return START_RATING


def se_on(entrant: Entrant, ladder_id: int) -> float:
    return entrant.ratings[ladder_id][1] if ladder_id in entrant.ratings else START_SE


def wait_minutes(entrant: Entrant, now: datetime) -> float:
    """Minutes since the version was last active, plus one (a weight, never zero), at most a week."""
    if entrant.last_active is None:
        return MAX_WAIT_MINUTES
    return min(MAX_WAIT_MINUTES, max(0.0, (now - entrant.last_active).total_seconds() / 60)) + 1.0


def seat_pool(entrants: list[Entrant], players: int) -> list[Entrant] | None:
    """Whom a table of ``players`` may seat: the versions not in a ladder match already if they are enough
    authors, else everyone; None if even everyone is too few authors."""
    free = [e for e in entrants if not e.busy]
    if len({e.author for e in free}) >= players:
        return free
    if len({e.author for e in entrants}) >= players:
        return entrants
    return None


def pick_seed(pool: list[Entrant], ladder_id: int, rng: random.Random, now: datetime) -> Entrant:
    """New to the ladder first (authors' versions before the reference bots, then the oldest admission first),
    else by SE² x wait² / least recently active, at random. The reference bots are always there to fill seats;
    an author waiting for a first ladder game is the wait that matters."""
    fresh = [e for e in pool if e.slots.get(ladder_id, 0) == 0]
    if fresh:
        return min(fresh, key=lambda e: (bool(e.version.reference), e.admitted or _EPOCH, e.version.pk))
    draw = rng.random()
    if draw < SEED_BY_SE:
        weights = [se_on(e, ladder_id) ** 2 * wait_minutes(e, now) ** SEED_WAIT_POWER for e in pool]
        return rng.choices(pool, weights=weights)[0]
    by_recency = sorted(pool, key=lambda e: (e.last_active or _EPOCH, rng.random()))
    if draw < SEED_BY_SE + SEED_FROM_LEAST_RECENT:
        return rng.choice(by_recency[:LEAST_RECENT_FEW])
    return by_recency[0]


def fill_table(seed: Entrant, pool: list[Entrant], ladder_id: int, players: int, rng: random.Random,
               now: datetime) -> list[Entrant]:
    """The seed and ``players - 1`` others of distinct authors, close in rating to the seed: drawn from a random
    window of the nearest (the longer a version waited, the likelier), then onwards in order of closeness if the
    window runs out of authors."""
    target = rating_on(seed, ladder_id)
    others = [e for e in pool if e.author != seed.author]
    rng.shuffle(others)  # equal distances in random order
    others.sort(key=lambda e: abs(rating_on(e, ladder_id) - target))
    size = max(window_size(rng.random()), players - 1)
    window = others[:size]
    # a weighted draw without replacement (Efraimidis-Spirakis): order by U ** (1 / weight), largest first
    window.sort(key=lambda e: rng.random() ** (1 / wait_minutes(e, now) ** FILL_WAIT_POWER), reverse=True)
    table = [seed]
    authors = {seed.author}
    for entrant in (*window, *others[size:]):
        if entrant.author in authors:
            continue
        table.append(entrant)
        authors.add(entrant.author)
        if len(table) == players:
            break
    rng.shuffle(table)
    return table


def plan_table(entrants: list[Entrant], ladders: list[tuple[LadderShare, Ladder]], rng: random.Random,
               now: datetime) -> Table | None:
    """The next table: a ladder by weight among those that can be seated, its seed and the seed's neighbours."""
    viable = [(share, ladder, pool) for share, ladder in ladders
              if (pool := seat_pool(entrants, share.sides)) is not None]
    if not viable:
        return None
    share, ladder, pool = rng.choices(viable, weights=[share.weight for share, _, _ in viable])[0]
    seed = pick_seed(pool, ladder.pk, rng, now)
    return Table(share, ladder, fill_table(seed, pool, ladder.pk, share.sides, rng, now))


# ---------------------------------------------------------------------------------------------- writes


def plays_catch_up() -> int:
    """Store when each version last finished a rated match, from the matches finished since the newest stored
    play (the first call reads them all); returns the rows written."""
    recent = recent_plays(play_watermark())
    if not recent:
        return 0
    stored = dict(VersionPlay.objects.filter(version_id__in=list(recent)).values_list("version_id", "last_played"))
    newer = [VersionPlay(version_id=version_id, last_played=at) for version_id, at in recent.items()
             if version_id not in stored or at > stored[version_id]]
    VersionPlay.objects.bulk_create(newer, update_conflicts=True, unique_fields=["version"],
                                    update_fields=["last_played"])
    return len(newer)


def _ladders(config: Config) -> list[tuple[LadderShare, Ladder]]:
    """The mix's ladders; one that does not exist yet stands in unsaved, under a negative id, until a match is
    planned on it (an empty ladder is not made just because it is in the mix: the ladder pages would list it)."""
    existing = ladders_by_slug([(share.preset, share.players) for share in config.ladders])
    return [(share, existing.get((share.preset, share.players)) or Ladder(pk=-i, preset=share.preset,
                                                                           players=share.players))
            for i, share in enumerate(config.ladders, start=1)]


def _lock() -> bool:
    """The pass's lock on PostgreSQL (SQLite already runs one writing transaction at a time)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [_LOCK_KEY])
        row = cursor.fetchone()
    return bool(row and row[0])


def matchmaking_pass(now: datetime | None = None, rng: random.Random | None = None) -> list[Match]:
    """One scheduling pass: create rated ladder matches until the queue depth is reached or no ladder can be
    seated; the matches are enqueued when the pass commits. Returns them, in creation order."""
    now = now or timezone.now()
    rng = rng or random.Random()
    config = matchmaking_config()
    created: list[Match] = []
    with transaction.atomic():
        if not _lock():
            log.info("matchmaking: another pass holds the lock; skipping")
            return []
        plays_catch_up()
        in_flight = in_flight_entries()
        room = config.queue_depth - len({match_id for match_id, _ in in_flight})
        if room <= 0 or not config.ladders:
            return []
        ladders = _ladders(config)
        entrants = matchmaking_pool({version_id for _, version_id in in_flight})
        touched: dict[tuple[int, int], Entrant] = {}
        for _ in range(room):
            table = plan_table(entrants, ladders, rng, now)
            if table is None:
                break
            if table.ladder.pk < 0:  # the ladder's first match: make it (nobody has a rating or slot on it yet)
                made = ladder_for(table.ladder.preset, table.ladder.players)
                ladders = [(share, made if ladder is table.ladder else ladder) for share, ladder in ladders]
                table = Table(table.share, made, table.entrants)
            created.append(match_create(
                kind=Match.Kind.LADDER, versions=[e.version for e in table.entrants], preset=table.share.preset,
                deals=config.deals, rated=True,
            ))
            for entrant in table.entrants:
                entrant.busy = True
                entrant.slots[table.ladder.pk] = entrant.slots.get(table.ladder.pk, 0) + 1
                entrant.last_scheduled = now
                touched[table.ladder.pk, entrant.version.pk] = entrant
        LadderSlot.objects.bulk_create(
            [LadderSlot(ladder_id=ladder_id, version_id=version_id, matches=entrant.slots[ladder_id],
                        last_scheduled=now) for (ladder_id, version_id), entrant in touched.items()],
            update_conflicts=True, unique_fields=["ladder", "version"], update_fields=["matches", "last_scheduled"],
        )
    return created


# ---------------------------------------------------------------------------------------------- schedule

FILL_TASK = "arena.matchmaking.fill_ladders"
FILL_SCHEDULE_NAME = "Fill the ladders"


def matchmaking_schedule_ensure(every_minutes: int = 1) -> str:
    """The pass as a django-celery-beat schedule, upserted by name: created if missing, its task, interval and
    expiry set if they differ (the row is never deleted and made again, so its run history and an admin's
    ``enabled`` choice stay). A pass not started within its interval expires: after an outage of the default
    workers, the backlog of beat's messages does not run a pass per missed minute. Returns ``"created"``,
    ``"updated"`` or ``"unchanged"``."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    interval = (IntervalSchedule.objects.filter(every=every_minutes, period=IntervalSchedule.MINUTES)
                .order_by("pk").first())
    if interval is None:
        interval = IntervalSchedule.objects.create(every=every_minutes, period=IntervalSchedule.MINUTES)
    expiry = 60 * every_minutes
    task, created = PeriodicTask.objects.get_or_create(
        name=FILL_SCHEDULE_NAME, defaults={"task": FILL_TASK, "interval": interval, "expire_seconds": expiry}
    )
    if created:
        return "created"
    wanted = (FILL_TASK, interval.pk, None, None, None, expiry, None)
    if (task.task, task.interval_id, task.crontab_id, task.solar_id, task.clocked_id, task.expire_seconds,
            task.expires) == wanted:
        return "unchanged"
    task.task = FILL_TASK
    task.interval = interval
    task.crontab = task.solar = task.clocked = task.expires = None
    task.expire_seconds = expiry
    task.save()  # its signal marks the schedules changed, so a running beat reloads them
    return "updated"
