"""Ladder matchmaking: the cost of one scheduling pass over 200 bots, and a simulated day of ladder play.

    .venv/bin/python tests/bench/matchmaking.py                  # 200 bots of 60 authors, 4 workers, one day
    .venv/bin/python tests/bench/matchmaking.py --hours 6 --json
    .venv/bin/python tests/bench/matchmaking.py --bots 400 --workers 8 --depth 16

Figures (docs/development.md, Benchmarks): ``bots`` (active versions, the reference bots included), ``pass_s`` (median
time of a full pass: one that creates ``--depth`` matches; the target is at most 1 s for every pass),
``games_per_bot_min`` and ``games_per_bot_max`` over the simulated day (the bots present all day); also the
pass's p95 and max, its query count, games per bot mean and median, bots that never played, the longest
wait between two rated matches, starved bot-minutes, how soon a newly admitted version gets its first
ladder match, and how close in rating the tables are compared with random tables.

The benchmark owns a PostgreSQL database (``durak_mm_bench`` by default), emptied at the start of every run
(made on the first; it refuses to drop a database it did not make). It seeds ``--bots`` bot versions of
``--authors`` authors plus the reference bots, each with a hidden strength and a rating on every ladder of the
mix (a steady arena: established ratings, ladder history, last games within the past half hour). Nothing is
played and nothing is enqueued (the match task's ``delay`` is stubbed): the simulation is a clock of whole
minutes, and every minute it runs one ``matchmaking_pass(now=...)``; ``--workers`` referee processes take the
queued ladder matches in creation order, and a match lasts ``games x --game-s`` seconds (each deal in every
rotation), after which it is marked done at its simulated finish time and its games' results (the durak drawn
from the seats' hidden strengths by the rating model) go through the real per-game rating update, so ratings
and standard errors move as they would live. ``--new-bots`` versions are admitted at random times of the day
(active, with an admission rating on classic-2) to time their first ladder match. The first ``--warmup-min``
simulated minutes are not counted.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import types
from collections import defaultdict, deque
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

if TYPE_CHECKING:
    from arena.matches.models import Match

DEFAULT_URL = "postgres://postgres:postgres@127.0.0.1:5432/durak_mm_bench"
MARKER = "durak-arena matchmaking benchmark"
TARGET_S = 1.0
REFERENCE_STRENGTH = {"random": 1150.0, "gentle": 1500.0, "strong": 1700.0}


# ---------------------------------------------------------------------------------------------- database


def prepare_database(url: str) -> None:
    """An empty database for the benchmark: its own from an earlier run emptied (the schema kept, so migrating
    is a quick no-op), else made afresh (dropping one only if this benchmark made it)."""
    name = str(conninfo_to_dict(url).get("dbname") or "")
    if not name:
        raise SystemExit(f"--database-url {url!r}: no database name")
    admin = make_conninfo(url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if row is not None and str(row[0] or "") == MARKER:
            with psycopg.connect(url, autocommit=True) as db:
                names = [t for (t,) in db.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'django_migrations'")]
                if names:
                    db.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY CASCADE").format(
                        sql.SQL(", ").join(sql.Identifier(t) for t in names)))
            return
        if row is not None:  # not made by this benchmark: dropped only if it holds nothing
            with psycopg.connect(url) as db:
                tables = db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
            if tables and tables[0]:
                raise SystemExit(f"refusing to drop database {name!r}: it holds tables and was not made by "
                                 "this benchmark; pass another --database-url")
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(sql.Identifier(name), sql.Literal(MARKER)))


def django_setup(url: str) -> None:
    """The arena's production settings on the benchmark database (DEBUG off), migrated; enqueueing stubbed."""
    var_dir = tempfile.mkdtemp(prefix="durak-mm-bench-")
    os.environ["DATABASE_URL"] = url
    os.environ["ARENA_VAR_DIR"] = var_dir
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings"
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.setdefault("ARENA_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    shutil.rmtree(var_dir, ignore_errors=True)
    import arena.matches.tasks

    # match_create enqueues play_match on commit; nothing plays here, so the task is a stub that drops it.
    arena.matches.tasks.play_match = types.SimpleNamespace(delay=lambda *args, **kwargs: None)  # type: ignore[assignment]


# ---------------------------------------------------------------------------------------------- seeding


@dataclass
class Arena:
    strength: dict[int, float]
    """Hidden strength per version id."""
    name: dict[int, str]
    new_at: dict[int, int] = field(default_factory=dict)
    """Minute of the day each late version is admitted at."""


def seed(args: argparse.Namespace, rng: random.Random, start: datetime) -> Arena:
    """Authors, bots and active versions, rated on every ladder of the mix, with a recent ladder history."""
    from django.contrib.auth.models import User
    from django.db import transaction

    from arena.bots.models import Bot, BotVersion
    from arena.bots.services import reference_versions_ensure
    from arena.matchmaking.conf import matchmaking_config
    from arena.matchmaking.models import LadderSlot, VersionPlay
    from arena.ratings.models import Rating
    from arena.ratings.services import ladder_for

    ladders = [ladder_for(share.preset, share.players) for share in matchmaking_config().ladders]
    with transaction.atomic():
        references = reference_versions_ensure()
        users = User.objects.bulk_create(User(username=f"author{i:02d}", password="!") for i in range(args.authors))
        owners = users + [rng.choice(users[: max(1, len(users) // 4)]) if rng.random() < 0.5 else rng.choice(users)
                          for _ in range(args.bots - len(users))]
        bots = Bot.objects.bulk_create(Bot(owner=owner, name=f"bot{i:03d}") for i, owner in enumerate(owners))
        versions = BotVersion.objects.bulk_create(
            BotVersion(bot=bot, number=1, label="1", language="python", status=BotVersion.Status.ACTIVE,
                       admitted=start - timedelta(days=rng.uniform(1, 60))) for bot in bots
        )
        arena = Arena(strength={v.pk: rng.gauss(1500, 200) for v in versions},
                      name={v.pk: b.name for v, b in zip(versions, bots)})
        for name, version in references.items():
            BotVersion.objects.filter(pk=version.pk).update(admitted=start - timedelta(days=90))
            arena.strength[version.pk] = REFERENCE_STRENGTH[name]
            arena.name[version.pk] = name
        ratings: list[Rating] = []
        slots: list[LadderSlot] = []
        plays: list[VersionPlay] = []
        for version_id, strength in arena.strength.items():
            last = start - timedelta(minutes=rng.uniform(0, 30))
            plays.append(VersionPlay(version_id=version_id, last_played=last))
            for ladder in ladders:
                games = int(rng.uniform(20, 900))
                se = 1 / math.sqrt(1 / 350**2 + games * (math.log(10) / 400) ** 2 * 0.2)
                ratings.append(Rating(ladder=ladder, version_id=version_id, rating=rng.gauss(strength, se), se=se,
                                      games=games, provisional=games < 30 or se > 55))
                slots.append(LadderSlot(ladder=ladder, version_id=version_id, matches=max(1, games // 6),
                                        last_scheduled=last))
        Rating.objects.bulk_create(ratings)
        LadderSlot.objects.bulk_create(slots)
        VersionPlay.objects.bulk_create(plays)
    minutes = args.warmup_min + int(args.hours * 60)
    for i in range(args.new_bots):
        arena.new_at[-1 - i] = rng.randrange(args.warmup_min, max(args.warmup_min + 1, minutes - 30))
    return arena


def admit_late(arena: Arena, key: int, at: datetime, rng: random.Random) -> int:
    """A version admitted mid-day: active, rated on the admission ladder by its admission games."""
    from django.contrib.auth.models import User

    from arena.bots.models import Bot, BotVersion
    from arena.ratings.models import Rating
    from arena.ratings.services import ladder_for

    owner = User.objects.order_by("?").first() if rng.random() < 0.5 else None
    owner = owner or User.objects.create(username=f"newcomer{-key}", password="!")
    bot = Bot.objects.create(owner=owner, name=f"new{-key:02d}")
    version = BotVersion.objects.create(bot=bot, number=1, label="1", language="python",
                                        status=BotVersion.Status.ACTIVE, admitted=at)
    strength = rng.gauss(1500, 200)
    Rating.objects.create(ladder=ladder_for("classic", 2), version=version, rating=strength, se=190, games=8)
    arena.strength[version.pk] = strength
    arena.name[version.pk] = bot.name
    return version.pk


# ---------------------------------------------------------------------------------------------- the pass alone


def time_passes(args: argparse.Namespace, start: datetime) -> tuple[list[float], int, float]:
    """Full passes (the queue emptied before each): their times; the queries of one; a pass on a full queue."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from arena.matches.models import Match
    from arena.matchmaking.services import matchmaking_pass

    def empty_queue(at: datetime) -> None:
        Match.objects.filter(kind=Match.Kind.LADDER, status=Match.Status.QUEUED).update(
            status=Match.Status.DONE, finished=at)

    rng = random.Random(args.seed + 2)
    times: list[float] = []
    at = start
    for i in range(args.passes + 2):
        empty_queue(at)
        began = time.perf_counter()
        created = matchmaking_pass(now=at, rng=rng)
        elapsed = time.perf_counter() - began
        if len(created) != args.depth:
            raise SystemExit(f"a full pass created {len(created)} matches, not {args.depth}")
        if i >= 2:  # the first passes warm caches and catch up the plays
            times.append(elapsed)
        at += timedelta(seconds=1)
    empty_queue(at)
    with CaptureQueriesContext(connection) as captured:
        matchmaking_pass(now=at, rng=rng)
    began = time.perf_counter()
    matchmaking_pass(now=at, rng=rng)  # the queue is full now
    full_s = time.perf_counter() - began
    empty_queue(at)
    return times, len(captured.captured_queries), full_s


# ---------------------------------------------------------------------------------------------- the day


@dataclass
class Running:
    match_id: int
    start: float
    end: float
    """Simulated minute it ends at."""


@dataclass
class Day:
    games: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    matches: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    finishes: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    ladder_matches: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    pass_s: list[float] = field(default_factory=list)
    spreads: list[float] = field(default_factory=list)
    random_spreads: list[float] = field(default_factory=list)
    rating_spreads: list[float] = field(default_factory=list)
    """Spread of the tables in the ratings the matchmaker saw (on the table's ladder; 1500 if unrated)."""
    starved_minutes: int = 0
    starved_peak: int = 0
    starved_bots: set[int] = field(default_factory=set)
    busy_worker_min: float = 0.0
    first_scheduled: dict[int, float] = field(default_factory=dict)
    first_finished: dict[int, float] = field(default_factory=dict)
    admitted_at: dict[int, float] = field(default_factory=dict)
    created: int = 0


def finish_match(match: Match, versions: list[int], at: datetime, arena: Arena, rng: random.Random) -> int:
    """Mark the match done at ``at`` and put its games' results through the real per-game rating update.

    The games are laid out as the referee plays them: every deal in every rotation of the entrants, seats
    from ``seat_order`` (on a team ladder each entrant is a team and plays all its seats). The losing side
    is drawn from the entrants' hidden strengths; the durak seat is one of that side's seats.
    """
    from arena.matches.models import Game, GameSeat, Match
    from arena.ratings import maths
    from arena.ratings.services import ratings_apply_games
    from bots_sdk.engine import Rules
    from bots_sdk.match import seat_order

    Match.objects.filter(pk=match.pk).update(status=Match.Status.DONE, finished=at)
    games: list[Game] = []
    seats: list[GameSeat] = []
    entrants = len(versions)
    rules = Rules.preset(match.preset, match.players)
    p = maths.expected_durak([arena.strength[v] for v in versions])
    for number in range(match.deals * entrants):
        rotation = number % entrants
        order = seat_order(rules, entrants, -rotation)  # seat s holds entrant order[s]
        loser = rng.choices(range(entrants), weights=p)[0]
        durak = rng.choice([seat for seat, entrant in enumerate(order) if entrant == loser])
        game = Game(pk=-(number + 1), match_id=match.pk, number=number, deal=number // entrants, rotation=rotation,
                    preset=match.preset, players=match.players, rated=True, durak_seat=durak, reason="normal",
                    record={}, finished=at)
        games.append(game)
        for seat, entrant in enumerate(order):
            version = versions[entrant]
            seats.append(GameSeat(game_id=game.pk, seat=seat, version_id=version, durak=seat == durak))
    ratings_apply_games(games=games, seats=seats)  # writes ratings and history points only (games unsaved)
    return len(games)


def simulate(args: argparse.Namespace, arena: Arena, start: datetime) -> Day:
    from django.db.models import Count

    from arena.matches.models import Match, MatchEntry
    from arena.matchmaking.selectors import starved_versions
    from arena.matchmaking.services import matchmaking_pass
    from arena.ratings.models import Rating

    rng = random.Random(args.seed + 3)
    results_rng = random.Random(args.seed + 4)
    baseline_rng = random.Random(args.seed + 5)
    day = Day()
    total = args.warmup_min + int(args.hours * 60)
    warmup: float = args.warmup_min
    queue: deque[int] = deque()
    running: list[Running] = []
    free = args.workers
    seated: dict[int, list[int]] = {}
    info: dict[int, Match] = {}

    def minute_at(m: float) -> datetime:
        return start + timedelta(minutes=m)

    def begin(match_id: int, at: float) -> None:
        match = info[match_id]
        games = match.deals * len(seated[match_id])  # every deal in every rotation of the entrants
        duration = games * args.game_s / 60 * rng.uniform(0.7, 1.3)
        running.append(Running(match_id, at, at + duration))
        Match.objects.filter(pk=match_id).update(status=Match.Status.RUNNING, started=minute_at(at))

    def busy(item: Running, until: float) -> float:
        """Worker minutes of this match inside the counted part of the day."""
        return max(0.0, min(item.end, until) - max(item.start, warmup))

    def end(item: Running) -> None:
        day.busy_worker_min += busy(item, total)
        versions = seated[item.match_id]
        games = finish_match(info[item.match_id], versions, minute_at(item.end), arena, results_rng)
        counted = item.end >= args.warmup_min
        for v in versions:
            if counted:
                day.games[v] += games
                day.matches[v] += 1
                day.finishes[v].append(item.end)
            if v in day.admitted_at and v not in day.first_finished:
                day.first_finished[v] = item.end - day.admitted_at[v]

    for minute in range(total):
        now = float(minute)
        for key, at in list(arena.new_at.items()):
            if at == minute:
                version_id = admit_late(arena, key, minute_at(now), rng)
                day.admitted_at[version_id] = now
                del arena.new_at[key]
        # matches ending before this minute: each frees its worker, which takes the next queued match at once
        while running and min(r.end for r in running) <= now:
            item = min(running, key=lambda r: r.end)
            running.remove(item)
            end(item)
            if queue:
                begin(queue.popleft(), item.end)
            else:
                free += 1
        began = time.perf_counter()
        created = matchmaking_pass(now=minute_at(now), rng=rng)
        if minute >= args.warmup_min:
            day.pass_s.append(time.perf_counter() - began)
        entries = MatchEntry.objects.filter(match__in=[m.pk for m in created]).order_by("match_id", "index")
        for match_id, version_id in entries.values_list("match_id", "version_id"):
            seated.setdefault(match_id, []).append(version_id)
        seen = Rating.objects.filter(version_id__in={v for m in created for v in seated[m.pk]}).values_list(
            "ladder__preset", "ladder__players", "version_id", "rating")
        ratings = {(preset, players, v): rating for preset, players, v, rating in seen}
        for match in created:
            info[match.pk] = match
            queue.append(match.pk)
            versions = seated[match.pk]
            for v in versions:
                if v in day.admitted_at and v not in day.first_scheduled:
                    day.first_scheduled[v] = now - day.admitted_at[v]
            if minute >= args.warmup_min:
                day.created += 1
                day.ladder_matches[f"{match.preset}-{match.players}"] += 1
                strengths = [arena.strength[v] for v in versions]
                day.spreads.append(max(strengths) - min(strengths))
                pool = baseline_rng.sample(list(arena.strength.values()), len(versions))
                day.random_spreads.append(max(pool) - min(pool))
                seen_ratings = [ratings.get((match.preset, match.players, v), 1500.0) for v in versions]
                day.rating_spreads.append(max(seen_ratings) - min(seen_ratings))
        while queue and free:
            free -= 1
            begin(queue.popleft(), now)
        if minute >= args.warmup_min:
            starved = starved_versions(minute_at(now))
            day.starved_minutes += len(starved)
            day.starved_peak = max(day.starved_peak, len(starved))
            day.starved_bots.update(s.version.pk for s in starved)
        if minute % 60 == 59:
            print(f"  simulated {minute + 1} of {total} minutes", file=sys.stderr)
    day.busy_worker_min += sum(busy(item, total) for item in running)
    leftover = Match.objects.filter(kind=Match.Kind.LADDER).values("status").annotate(n=Count("id"))
    print(f"  ladder matches at the end: { {r['status']: r['n'] for r in leftover} }", file=sys.stderr)
    return day


# ---------------------------------------------------------------------------------------------- report


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def longest_waits(day: Day, bots: list[int], first: float, last: float) -> list[float]:
    """Per bot, the longest stretch of simulated minutes without a finished rated match (day edges included)."""
    waits = []
    for v in bots:
        times = [first, *sorted(day.finishes.get(v, [])), last]
        waits.append(max(b - a for a, b in itertools.pairwise(times)))
    return waits


def report(args: argparse.Namespace, arena: Arena, bots: int, times: list[float], queries: int, full_s: float,
           day: Day) -> None:
    day_min = args.hours * 60
    steady = [v for v in arena.strength if v not in day.admitted_at]
    games = [day.games.get(v, 0) for v in steady]
    matches = [day.matches.get(v, 0) for v in steady]
    waits = longest_waits(day, steady, args.warmup_min, args.warmup_min + day_min)
    print(f"\narena: {bots} active bots ({len(steady)} all day, {len(day.admitted_at)} admitted during it) of "
          f"{args.authors} authors + the reference bots; {args.workers} workers, queue depth {args.depth}, "
          f"{args.deals} deal{'s' if args.deals != 1 else ''} a match, {args.game_s:.0f} s a game")
    print("\none pass (the queue emptied before each: every pass creates a full queue)")
    print(f"{'passes':>8} {'median_s':>9} {'p95_s':>9} {'max_s':>9} {'queries':>8} {'full_q_s':>9} {'target':>8}")
    print(f"{len(times):>8} {statistics.median(times):>9.4f} {pct(times, 0.95):>9.4f} {max(times):>9.4f} "
          f"{queries:>8} {full_s:>9.4f} {'ok' if max(times) <= TARGET_S else 'MISSED':>8}")
    print(f"\nsimulated {args.hours:g} h after {args.warmup_min} min of warm-up: {day.created} ladder matches, "
          f"workers busy {100 * day.busy_worker_min / (args.workers * day_min):.0f} % of the time, passes "
          f"median {statistics.median(day.pass_s) * 1000:.1f} ms, p95 {pct(day.pass_s, 0.95) * 1000:.1f} ms, "
          f"max {max(day.pass_s) * 1000:.1f} ms")
    mix = ", ".join(f"{slug} {100 * n / max(1, day.created):.0f} %" for slug, n in sorted(day.ladder_matches.items()))
    print(f"ladder mix: {mix}")
    print(f"\n{'per bot (all day)':<26} {'min':>7} {'median':>7} {'mean':>7} {'max':>7}")
    for label, values in (("rated games", games), ("ladder matches", matches),
                          ("longest wait, min", waits)):
        print(f"{label:<26} {min(values):>7.0f} {statistics.median(values):>7.0f} {statistics.fmean(values):>7.1f} "
              f"{max(values):>7.0f}")
    never = sum(1 for g in games if g == 0)
    print(f"bots that never played: {never}; bots starved at some minute (no rated game for "
          f"{args.starved_min:g} min): {len(day.starved_bots)}; starved bot-minutes: {day.starved_minutes} "
          f"(at most {day.starved_peak} at once)")
    closeness = statistics.fmean(day.spreads) / statistics.fmean(day.random_spreads)
    print(f"table spread (max - min) in hidden strength: mean {statistics.fmean(day.spreads):.0f} vs random tables "
          f"{statistics.fmean(day.random_spreads):.0f} ({100 * closeness:.0f} %); in the ratings the matchmaker "
          f"saw: mean {statistics.fmean(day.rating_spreads):.0f}")
    firsts = sorted(day.first_scheduled.values())
    finished = sorted(day.first_finished.values())
    if day.admitted_at:
        print(f"new versions: {len(day.admitted_at)}; first ladder match scheduled after "
              f"{', '.join(f'{m:.0f}' for m in firsts)} min; first one finished after "
              f"{', '.join(f'{m:.1f}' for m in finished)} min")
    if args.json:
        figures: dict[str, Any] = {
            "bots": bots, "authors": args.authors, "workers": args.workers, "depth": args.depth,
            "pass_s": round(statistics.median(times), 4), "pass_p95_s": round(pct(times, 0.95), 4),
            "pass_max_s": round(max(times), 4), "pass_queries": queries, "pass_full_queue_s": round(full_s, 4),
            "sim_pass_median_s": round(statistics.median(day.pass_s), 4),
            "sim_pass_max_s": round(max(day.pass_s), 4),
            "hours": args.hours, "ladder_matches": day.created,
            "games_per_bot_min": min(games), "games_per_bot_max": max(games),
            "games_per_bot_mean": round(statistics.fmean(games), 1), "games_per_bot_median": statistics.median(games),
            "matches_per_bot_min": min(matches), "matches_per_bot_max": max(matches),
            "bots_never_played": never,
            "longest_wait_min_median": round(statistics.median(waits), 1),
            "longest_wait_min_p95": round(pct(waits, 0.95), 1), "longest_wait_min_max": round(max(waits), 1),
            "starved_bots": len(day.starved_bots), "starved_bot_minutes": day.starved_minutes,
            "starved_peak": day.starved_peak,
            "spread_mean": round(statistics.fmean(day.spreads), 1),
            "random_spread_mean": round(statistics.fmean(day.random_spreads), 1),
            "rating_spread_mean": round(statistics.fmean(day.rating_spreads), 1),
            "worker_busy": round(day.busy_worker_min / (args.workers * day_min), 3),
            "new_first_match_min_max": max(firsts) if firsts else None,
            "new_first_finished_min_max": round(max(finished), 2) if finished else None,
            "ladder_mix": dict(sorted(day.ladder_matches.items())),
            "target_s": TARGET_S,
        }
        print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=DEFAULT_URL, help=f"the benchmark's own database ({DEFAULT_URL})")
    parser.add_argument("--bots", type=int, default=200, help="author bots (the reference bots come on top)")
    parser.add_argument("--authors", type=int, default=60)
    parser.add_argument("--new-bots", type=int, default=6, help="versions admitted during the simulated day")
    parser.add_argument("--workers", type=int, default=4, help="referee processes: matches played at once")
    parser.add_argument("--depth", type=int, default=8, help="ARENA_MATCHMAKING_QUEUE_DEPTH")
    parser.add_argument("--deals", type=int, default=1, help="ARENA_MATCHMAKING_DEALS")
    parser.add_argument("--starved-min", type=float, default=30, help="ARENA_MATCHMAKING_STARVED_MINUTES")
    parser.add_argument("--game-s", type=float, default=15.0, help="simulated seconds a game takes (±30 %% a match)")
    parser.add_argument("--hours", type=float, default=24.0, help="simulated hours counted")
    parser.add_argument("--warmup-min", type=int, default=60, help="simulated minutes first, not counted")
    parser.add_argument("--passes", type=int, default=40, help="full passes timed on their own")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object last")
    args = parser.parse_args()
    if args.smoke:
        args.bots, args.authors, args.new_bots, args.hours, args.warmup_min, args.passes = 10, 3, 1, 0.1, 2, 2
    if args.authors < 2 or args.bots < args.authors:
        parser.error("--authors: at least 2, and no more than --bots")

    prepare_database(args.database_url)
    django_setup(args.database_url)
    from django.test.utils import override_settings

    from arena.bots.models import BotVersion

    rng = random.Random(args.seed)
    start = datetime(2026, 6, 1, tzinfo=UTC)
    with override_settings(ARENA_MATCHMAKING_QUEUE_DEPTH=args.depth, ARENA_MATCHMAKING_DEALS=args.deals,
                           ARENA_MATCHMAKING_STARVED_MINUTES=args.starved_min):
        print(f"seeding {args.bots} bots of {args.authors} authors ...", file=sys.stderr)
        arena = seed(args, rng, start)
        bots = BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).count()
        print(f"timing {args.passes} full passes ...", file=sys.stderr)
        times, queries, full_s = time_passes(args, start)
        print(f"simulating {args.warmup_min} + {args.hours * 60:.0f} minutes ...", file=sys.stderr)
        day = simulate(args, arena, start)
    report(args, arena, bots + args.new_bots, times, queries, full_s, day)


if __name__ == "__main__":
    main()
