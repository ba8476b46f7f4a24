"""Site pages over a realistic store: ladder, bot and replay pages' server time, and the batch rating fit.

    .venv/bin/python tests/bench/site_pages.py                      # seed (or reuse) 100,000 games, measure
    .venv/bin/python tests/bench/site_pages.py --reseed --fit-1m --json
    .venv/bin/python tests/bench/site_pages.py --profile bot --explain   # why a page is slow

Figures (the issue): with 100,000 stored games the ladder page, a bot page and a replay page take at
most 50 ms of server time (p95); the batch rating fit over 100,000 games takes at most 5 s (``fit_100k_s``,
``ratings_refit`` over every ladder, split into loading the games from the database and the fit itself);
over 1,000,000 games it is reported (``--fit-1m``: ``arena.ratings.maths.fit`` on simulated games in memory).

The benchmark owns a PostgreSQL database (``durak_bench`` by default; created if missing, reused when it
already holds a complete seed of the same size, rebuilt with ``--reseed``; it refuses to drop a database
that it did not make). Seeding writes ~200 bots of ~60 authors with 1-3 versions each (archives of
realistic size), the reference bots, an admission match per version, ladder matches of ~10 duplicate games
at tables of 2-6 (most 2-4) and some unrated challenges; every game carries a real ``durak-game/1`` record
(a pool of records played in-process by the reference bots, reused with the seats renamed), its seats with
answer-time statistics, and one rating history point per rated game and seat, as the live system writes
them. Each bot has a hidden strength that picks the durak, so the ladders have a realistic spread.

Pages are requested in-process through ``django.test.Client`` (the whole Django stack: middleware, views,
queries, templates; no network) with DEBUG off, after a warm-up; the query count and SQL time of each page
come from a separate pass under ``CaptureQueriesContext`` so that recording queries does not slow the timed
requests. The bot pages are timed in two rows, the five busiest bots and a random sample of the others, with
as many requests each; ``bot_p95_ms`` is over both together (``bot_busiest_p95_ms``, ``bot_others_p95_ms``
apart), ``replay_p95_ms`` over the 2-player and 6-player games together. The ``--json`` line has ``games``,
``ladder_p95_ms``, ``bot_p95_ms``, ``replay_p95_ms`` and ``fit_100k_s`` (docs/development.md, Benchmarks), among others.
"""

from __future__ import annotations

import argparse
import atexit
import bisect
import cProfile
import hashlib
import importlib
import io
import json
import math
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np
import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from bots_sdk.bots import make_bot
from bots_sdk.cli.progress import Progress
from bots_sdk.engine import Game, GameRecord, Reason, Rules, SeatInfo
from bots_sdk.local import play_game

if TYPE_CHECKING:
    from django.db.models import Model
    from django.test import Client

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/durak_bench"
MARKER = "durak-arena site_pages benchmark"
"""The comment the benchmark writes on its database: what was seeded, and that the seed completed."""
TARGET_MS = 50.0
FIT_TARGET_S = 5.0

LADDER_MIX: tuple[tuple[str, int, float, int], ...] = (
    # preset, players, share of ladder matches, deals per match (each deal is played in every rotation)
    ("classic", 2, 0.34, 5),
    ("classic", 3, 0.17, 3),
    ("classic", 4, 0.14, 3),
    ("classic", 5, 0.05, 2),
    ("classic", 6, 0.05, 2),
    ("transfer", 2, 0.15, 5),
    ("transfer", 3, 0.05, 3),
    ("transfer", 4, 0.05, 3),
)
CHALLENGE_SHARE = 0.05
"""Share of non-admission matches that are unrated challenges (classic, two players, five deals)."""
ADMISSION_DEALS = 4
SPAN_DAYS = 120
REFERENCE_STRENGTH = {"random": 1150.0, "gentle": 1500.0, "strong": 1700.0}
WORDS_A = ("sly", "brave", "quiet", "lucky", "cold", "grim", "swift", "wise", "red", "black", "iron", "old",
           "young", "mad", "calm", "dark", "bright", "tiny", "great", "lazy")
WORDS_B = ("fox", "bear", "owl", "wolf", "crow", "hare", "lynx", "pike", "elk", "boar", "mole", "seal", "yak",
           "newt", "stoat", "otter", "raven", "moose", "badger", "falcon")


# ---------------------------------------------------------------------------------------------- database


def database_name(url: str) -> str:
    name = conninfo_to_dict(url).get("dbname")
    if not name:
        raise SystemExit(f"--database-url {url!r}: no database name")
    return str(name)


def seed_marker(args: argparse.Namespace) -> str:
    return f"{MARKER}: games={args.games} bots={args.bots} users={args.users} seed={args.seed} complete"


def prepare_database(args: argparse.Namespace) -> bool:
    """Create the benchmark's database if needed; True if it already holds a complete seed of this size."""
    name = database_name(args.database_url)
    admin = make_conninfo(args.database_url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if row is not None:
            comment = str(row[0] or "")
            if comment == seed_marker(args) and not args.reseed:
                return True
            if not comment.startswith(MARKER) and _has_tables(args.database_url):
                raise SystemExit(f"refusing to drop database {name!r}: it holds tables and was not made by this "
                                 "benchmark; pass another --database-url")
            print(f"dropping database {name} ({comment or 'no seed marker'})", file=sys.stderr)
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        _comment(conn, name, f"{MARKER}: seeding")
    return False


def _has_tables(url: str) -> bool:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
    return bool(row and row[0])


def _comment(conn: psycopg.Connection[Any], name: str, text: str) -> None:
    conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(sql.Identifier(name), sql.Literal(text)))


def mark_complete(args: argparse.Namespace) -> None:
    admin = make_conninfo(args.database_url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        _comment(conn, database_name(args.database_url), seed_marker(args))


def django_setup(url: str) -> None:
    """The arena's production settings on the benchmark database (DEBUG off), migrated."""
    var_dir = tempfile.mkdtemp(prefix="durak-bench-")
    atexit.register(shutil.rmtree, var_dir, ignore_errors=True)
    os.mkdir(os.path.join(var_dir, "static"))  # STATIC_ROOT: whitenoise warns when it is missing
    os.environ["DATABASE_URL"] = url
    os.environ["ARENA_VAR_DIR"] = var_dir
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.settings"
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.setdefault("ARENA_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# ---------------------------------------------------------------------------------------------- records


@dataclass(frozen=True)
class PoolRecord:
    """A real game record, stored as JSON text around its seats, with what the rows copy out of it."""

    head: str
    tail: str
    durak: int | None
    draw: bool
    reason: str
    offender: int | None
    detail: str
    decisions: int
    bouts: int
    out_order: tuple[int, ...]
    latency: tuple[tuple[int, float | None, float | None, int | None], ...]
    """Per seat: decisions, mean, p95 and max ms, as ``match_store_result`` computes them."""

    def json(self, seats: Sequence[dict[str, str]]) -> str:
        return self.head + json.dumps(list(seats)) + self.tail


@dataclass
class PoolBucket:
    """The records of one preset and table size, by durak seat, and the draws."""

    by_durak: list[list[PoolRecord]]
    draws: list[PoolRecord] = field(default_factory=list)
    played: int = 0


def _pool_record(record: dict[str, Any], bouts: int) -> PoolRecord:
    from arena.matches.services import _latency

    players = len(record["seats"])
    split = json.dumps({**record, "seats": "@@SEATS@@"}).split('"@@SEATS@@"')
    result = record["result"]
    return PoolRecord(
        head=split[0], tail=split[1], durak=result["durak"], draw=bool(result["draw"]), reason=result["reason"],
        offender=result.get("offender"), detail=str(result.get("detail") or ""), decisions=len(record["actions"]),
        bouts=bouts, out_order=tuple(result.get("out_order", ())),
        latency=tuple(_latency(record, seat) for seat in range(players)),
    )


def _with_latency(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """In-process bots answer in 0 ms; give each seat a sandboxed bot's answer times (a few ms, a long tail)."""
    players = len(record["seats"])
    base = [math.exp(rng.gauss(math.log(3.0), 0.9)) for _ in range(players)]
    for action in record["actions"]:
        action["ms"] = min(1000, round(math.exp(rng.gauss(math.log(base[action["seat"]]), 0.7))))
    return record


def _forfeit_record(rules: Rules, rng: random.Random, seed: str) -> tuple[dict[str, Any], int]:
    """A game that a bot lost on time part-way through (the arena has them; the replay page shows them)."""
    game = Game.new(rules, seed)
    for _ in range(rng.randrange(4, 40)):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_actions()))
    if not game.is_over():
        seat = game.to_act
        assert seat is not None
        game.forfeit(seat, Reason.TIMEOUT, f"no answer within {1.0:.1f} s")
    seats = [SeatInfo("x", "1") for _ in range(rules.players)]
    ms = [rng.randrange(1, 30) for _ in game.decisions()]
    return GameRecord.from_game(game, seats, ms).to_dict(), game.bout


def make_pool(
    combos: Iterable[tuple[str, int]], per_seat: int, rng: random.Random
) -> dict[tuple[str, int], PoolBucket]:
    """Real records for every preset and table size: at least ``per_seat`` with the durak in each seat."""
    names = ("random", "gentle")
    pool: dict[tuple[str, int], PoolBucket] = {}
    combos = sorted(set(combos))
    with Progress(len(combos), "record pools") as bar:
        for preset, players in combos:
            rules = Rules.preset(preset, players=players)
            bucket = PoolBucket([[] for _ in range(players)])
            while min(map(len, bucket.by_durak)) < per_seat and bucket.played < per_seat * players * 20:
                seed = f"bench-{preset}-{players}-{bucket.played}"
                bucket.played += 1
                if rng.random() < 0.01:
                    record, bouts = _forfeit_record(rules, rng, seed)
                else:
                    bots = [make_bot(rng.choice(names), seed=rng.randrange(1 << 30)) for _ in range(players)]
                    played = play_game(rules, bots, seed=seed)
                    record, bouts = played.record().to_dict(), played.game.bout
                item = _pool_record(_with_latency(record, rng), bouts)
                if item.durak is None:
                    bucket.draws.append(item)
                elif len(bucket.by_durak[item.durak]) < per_seat * 2:
                    bucket.by_durak[item.durak].append(item)
            pool[preset, players] = bucket
            bar.advance(note=f"{preset}-{players}")
    return pool


# ---------------------------------------------------------------------------------------------- the plan


@dataclass
class VersionPlan:
    pk: int
    bot: str
    number: int
    label: str
    created: datetime
    strength: float


@dataclass
class BotPlan:
    name: str
    owner: int
    weight: float
    versions: list[VersionPlan] = field(default_factory=list)

    def version_at(self, at: datetime) -> VersionPlan:
        times = [v.created for v in self.versions]
        return self.versions[max(0, bisect.bisect_right(times, at) - 1)]


@dataclass
class MatchPlan:
    at: datetime
    kind: str
    preset: str
    players: int
    deals: int
    rated: bool
    versions: list[VersionPlan]
    requested_by: int | None = None
    games: int = 0


def seed_accounts_and_bots(args: argparse.Namespace, rng: random.Random, start: datetime,
                           end: datetime) -> tuple[list[BotPlan], VersionPlan]:
    """Authors, bots and versions through the ORM (a few hundred rows); the reference bots as the site makes them."""
    from django.contrib.auth.models import User
    from django.db import transaction

    from arena.bots.models import Bot, BotVersion, VersionArchive
    from arena.bots.services import reference_versions_ensure

    span = (end - start).total_seconds()
    with transaction.atomic():
        references = reference_versions_ensure()
        users = User.objects.bulk_create(
            User(username=f"author{i:02d}", password="!", email=f"author{i:02d}@example.org",
                 date_joined=start + timedelta(seconds=span * 0.6 * rng.random()))
            for i in range(args.users)
        )
        names = [f"{a}_{b}" for a in WORDS_A for b in WORDS_B]
        rng.shuffle(names)
        names = [f"{name}{i // len(names) or ''}" for i, name in enumerate(names * (args.bots // len(names) + 1))]
        bots = Bot.objects.bulk_create(
            Bot(owner=rng.choice(users), name=names[i], description=f"Benchmark bot {i}: " + "plays Durak. " * 8)
            for i in range(args.bots)
        )
        ranks = list(range(args.bots))
        rng.shuffle(ranks)
        plans: list[BotPlan] = []
        versions: list[BotVersion] = []
        archives: list[bytes] = []
        for bot, rank in zip(bots, ranks):
            plan = BotPlan(bot.name, bot.owner_id, 1.0 / (rank + 3) ** 0.9)
            first = start + timedelta(seconds=span * 0.75 * rng.random())
            count = rng.choices((1, 2, 3), weights=(5, 3, 2))[0]
            times = sorted([first] + [first + (end - first) * rng.random() for _ in range(count - 1)])
            strength = rng.gauss(1450, 160)
            for number, created in enumerate(times, start=1):
                strength += rng.gauss(30, 40) if number > 1 else 0
                size = min(3_000_000, max(600, round(math.exp(rng.gauss(math.log(6000), 1.1)))))
                archive = rng.randbytes(size)
                archives.append(archive)
                versions.append(BotVersion(
                    bot=bot, number=number, label=rng.choice((str(number), f"{number}.0", f"0.{number}")),
                    language="python", archive_name=f"{bot.name}.zip",
                    archive_sha256=hashlib.sha256(archive).hexdigest(),
                    status=BotVersion.Status.ACTIVE if number == count else BotVersion.Status.RETIRED,
                    admitted=created + timedelta(minutes=5),
                ))
                plan.versions.append(VersionPlan(0, bot.name, number, versions[-1].label, created, strength))
            plans.append(plan)
        BotVersion.objects.bulk_create(versions)
        VersionArchive.objects.bulk_create(VersionArchive(version=v, data=a) for v, a in zip(versions, archives))
        by_key = {(v.bot.name, v.number): v for v in versions}
        for plan in plans:
            for vp in plan.versions:
                vp.pk = by_key[plan.name, vp.number].pk
        # auto_now_add stamped "now"; give the rows their history
        for plan in plans:
            for vp in plan.versions:
                BotVersion.objects.filter(pk=vp.pk).update(created=vp.created)
            Bot.objects.filter(name=plan.name).update(created=plan.versions[0].created)
        for name, version in references.items():
            BotVersion.objects.filter(pk=version.pk).update(created=start, admitted=start)
            plans.append(BotPlan(name, version.bot.owner_id, 0.12, [
                VersionPlan(version.pk, name, 1, version.label, start, REFERENCE_STRENGTH.get(name, 1500.0))
            ]))
    return plans, next(p.versions[0] for p in plans if p.name == "random")


def plan_matches(args: argparse.Namespace, bots: list[BotPlan], random_bot: VersionPlan, rng: random.Random,
                 start: datetime, end: datetime) -> list[MatchPlan]:
    """Admission matches for every version, then ladder matches and challenges until ``--games`` games."""
    np_rng = np.random.default_rng(args.seed)
    matches: list[MatchPlan] = []
    owners = {bot.name: bot.owner for bot in bots}
    for bot in bots:
        for version in bot.versions:
            if bot.name in REFERENCE_STRENGTH:
                continue
            matches.append(MatchPlan(version.created + timedelta(minutes=2), "admission", "classic", 2,
                                     ADMISSION_DEALS, True, [version, random_bot]))
    # Bots join the ladder at their first version; ladder traffic grows with the number of bots.
    ordered = sorted(bots, key=lambda b: b.versions[0].created)
    joined = [b.versions[0].created + timedelta(minutes=10) for b in ordered]
    weights = np.array([b.weight for b in ordered])
    shares = [m[2] for m in LADDER_MIX]
    total = sum(m.players * m.deals for m in matches)
    span = (end - start).total_seconds()
    while total < args.games:
        if rng.random() < CHALLENGE_SHARE:
            preset, players, deals, kind, rated = "classic", 2, 5, "challenge", False
        else:
            preset, players, _, deals = rng.choices(LADDER_MIX, weights=shares)[0]
            kind, rated = "ladder", True
        for _ in range(100):
            at = start + timedelta(seconds=span * math.sqrt(rng.random()))
            available = bisect.bisect_right(joined, at)
            if available >= players:
                break
        else:
            continue
        w = weights[:available] / weights[:available].sum()
        chosen = np_rng.choice(available, size=players, replace=False, p=w)
        versions = [ordered[int(i)].version_at(at) for i in chosen]
        plan = MatchPlan(at, kind, preset, players, deals, rated, versions)
        if kind == "challenge":
            plan.requested_by = owners[versions[0].bot]
        matches.append(plan)
        total += players * deals
    matches.sort(key=lambda m: m.at)
    remaining = args.games
    kept: list[MatchPlan] = []
    for plan in matches:
        plan.games = min(plan.players * plan.deals, remaining)
        remaining -= plan.games
        if plan.games:
            kept.append(plan)
    return kept


# ---------------------------------------------------------------------------------------------- seeding


def _copy(cursor: Any, model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """``COPY`` rows into a model's table: the fast path for hundreds of thousands of rows."""
    meta = model._meta
    columns: list[sql.Composable] = []
    for name in fields:
        column = getattr(meta.get_field(name), "column", None)
        assert isinstance(column, str), name
        columns.append(sql.Identifier(column))
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(sql.Identifier(meta.db_table), sql.SQL(", ").join(columns))
    with cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


class RatingState:
    """The per-game K update of ``ratings_apply_games``, replayed in memory over the games in order."""

    def __init__(self) -> None:
        from arena.ratings import services

        self.services = services
        self.rows: dict[tuple[int, int], list[float]] = {}  # (ladder, version) -> rating, se, games, duraks
        self.info_scale = (math.log(10) / 400) ** 2

    def apply(self, ladder: int, versions: Sequence[int], durak: int) -> list[tuple[int, float, float, int]]:
        from arena.ratings import maths

        s = self.services
        rows = [self.rows.setdefault((ladder, v), [s.START_RATING, s.START_SE, 0, 0]) for v in versions]
        before = [row[0] for row in rows]
        ks = [s.K_PROVISIONAL if maths.is_provisional(row[1], int(row[2])) else s.K_ESTABLISHED for row in rows]
        after = maths.k_update(before, durak, ks)
        p_durak = maths.expected_durak(before)
        points = []
        for seat, (row, rating, p) in enumerate(zip(rows, after, p_durak)):
            row[0] = rating
            row[1] = 1 / math.sqrt(1 / row[1] ** 2 + self.info_scale * p * (1 - p))
            row[2] += 1
            row[3] += int(seat == durak)
            points.append((versions[seat], row[0], row[1], int(row[2])))
        return points


def seed(args: argparse.Namespace) -> float:
    """Fill the database; returns the seconds it took."""
    from django.core.management.color import no_style
    from django.db import connection, transaction

    from arena.matches.models import Game, GameSeat, Match, MatchEntry, PairTally
    from arena.ratings import maths
    from arena.ratings.models import Rating, RatingPoint
    from arena.ratings.services import ladder_for

    started = time.perf_counter()
    rng = random.Random(args.seed)
    end = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
    start = end - timedelta(days=SPAN_DAYS)
    combos = {(preset, players) for preset, players, _, _ in LADDER_MIX} | {("classic", 2)}
    pool = make_pool(combos, args.pool, rng)
    bots, random_bot = seed_accounts_and_bots(args, rng, start, end)
    plans = plan_matches(args, bots, random_bot, rng, start, end)
    ladders = {combo: ladder_for(*combo).pk for combo in sorted(combos)}
    state = RatingState()
    connection.ensure_connection()
    raw = connection.connection
    assert raw is not None
    match_id = entry_id = game_id = seat_id = 0
    tallies: dict[tuple[int, int], list[int]] = {}  # as match_store_result keeps them: per ordered pair
    batch = 500
    with Progress(args.games, "games seeded") as bar:
        for first in range(0, len(plans), batch):
            matches: list[tuple[Any, ...]] = []
            entries: list[tuple[Any, ...]] = []
            games: list[tuple[Any, ...]] = []
            seats: list[tuple[Any, ...]] = []
            points: list[tuple[Any, ...]] = []
            for plan in plans[first:first + batch]:
                match_id += 1
                n = plan.players
                finished = plan.at + timedelta(seconds=plan.games * n * 2.5 + 5)
                matches.append((
                    match_id, plan.kind, "done", plan.preset, n, plan.deals, f"{rng.getrandbits(64):016x}",
                    plan.rated, 1.0, 10.0, 10.0, plan.requested_by, plan.at, plan.at + timedelta(seconds=2),
                    finished, f"{rng.getrandbits(128):032x}", f"celery@worker-{match_id % 4}", "", "", "", 1, 0,
                ))
                strength = np.array([v.strength for v in plan.versions])
                weight = 10.0 ** (-(strength - strength.max()) / 400)
                cumulative = np.cumsum(weight / weight.sum())
                bucket = pool[plan.preset, n]
                draw_rate = len(bucket.draws) / max(1, bucket.played)
                ladder = ladders[plan.preset, n]
                counts = [[0, 0, 0] for _ in range(n)]  # games, duraks, faults per entry
                last_points: dict[int, tuple[Any, ...]] = {}  # one history point per version and match
                for number in range(plan.games):
                    deal, rotation = divmod(number, n)
                    order = [(s + rotation) % n for s in range(n)]  # seat s holds entry order[s]
                    if bucket.draws and rng.random() < draw_rate:
                        record = rng.choice(bucket.draws)
                    else:
                        loser = int(np.searchsorted(cumulative, rng.random() * 0.999999))
                        record = rng.choice(bucket.by_durak[order.index(loser)])
                    seated = [plan.versions[i] for i in order]
                    game_id += 1
                    text = record.json([{"bot": v.bot, "version": v.label} for v in seated])
                    games.append((
                        game_id, match_id, number, deal, rotation, plan.preset, n, plan.rated, record.durak,
                        record.draw, record.reason, record.offender, record.detail, record.decisions, record.bouts,
                        text, finished,
                    ))
                    for seat, version in enumerate(seated):
                        seat_id += 1
                        decisions, mean, p95, most = record.latency[seat]
                        out = record.out_order.index(seat) + 1 if seat in record.out_order else None
                        seats.append((seat_id, game_id, seat, version.pk, record.durak == seat, out,
                                      record.offender == seat, decisions, mean, p95, most))
                        counts[order[seat]][0] += 1
                        counts[order[seat]][1] += int(record.durak == seat)
                        counts[order[seat]][2] += int(record.offender == seat)
                    for mine in seated:
                        for other in seated:
                            if other.pk != mine.pk:
                                tally = tallies.setdefault((mine.pk, other.pk), [0, 0, 0, 0])
                                tally[0] += 1
                                tally[1] += int(record.durak == seated.index(mine))
                                tally[2] += int(record.durak == seated.index(other))
                                tally[3] += int(record.durak is None)
                    if plan.rated and record.durak is not None:
                        for version_id, rating, se, played in state.apply(ladder, [v.pk for v in seated], record.durak):
                            last_points[version_id] = (ladder, version_id, finished, rating, se, played, "game")
                points.extend(last_points.values())
                for index, version in enumerate(plan.versions):
                    entry_id += 1
                    entries.append((entry_id, match_id, index, version.pk, *counts[index]))
            with transaction.atomic(), raw.cursor() as cursor:
                _copy(cursor, Match, ("id", "kind", "status", "preset", "players", "deals", "seed", "rated", "move_s",
                                      "bank_s", "start_s", "requested_by", "created", "started", "finished",
                                      "task_id", "worker", "error", "public_error", "author_error", "attempts",
                                      "reaped"), matches)
                _copy(cursor, MatchEntry, ("id", "match", "index", "version", "games", "duraks", "faults"), entries)
                _copy(cursor, Game, ("id", "match", "number", "deal", "rotation", "preset", "players", "rated",
                                     "durak_seat", "draw", "reason", "offender_seat", "detail", "decisions", "bouts",
                                     "record", "finished"), games)
                _copy(cursor, GameSeat, ("id", "game", "seat", "version", "durak", "out_position", "offender",
                                         "decisions", "ms_mean", "ms_p95", "ms_max"), seats)
                _copy(cursor, RatingPoint, ("ladder", "version", "at", "rating", "se", "games", "source"), points)
            bar.advance(len(games))
    with transaction.atomic():
        PairTally.objects.bulk_create(
            (PairTally(version_id=a, opponent_id=b, games=c[0], duraks=c[1], opponent_duraks=c[2], draws=c[3])
             for (a, b), c in tallies.items()), batch_size=5000)
        Rating.objects.bulk_create(
            Rating(ladder_id=ladder, version_id=version, rating=row[0], se=row[1], games=int(row[2]),
                   duraks=int(row[3]), provisional=maths.is_provisional(row[1], int(row[2])))
            for (ladder, version), row in state.rows.items()
        )
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), [Match, MatchEntry, Game, GameSeat,
                                                                            RatingPoint]):
                cursor.execute(statement)
    print("VACUUM ANALYZE ...", file=sys.stderr)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return time.perf_counter() - started


# ---------------------------------------------------------------------------------------------- the fit


@dataclass
class FitRow:
    ladder: str
    games: int
    versions: int
    load_s: float
    fit_s: float
    refit_s: float
    iterations: int


def measure_fit() -> list[FitRow]:
    """``ratings_refit`` of every ladder (the headline), then its two parts timed alone: load and fit."""
    from arena.ratings import maths
    from arena.ratings.models import Ladder
    from arena.ratings.services import START_RATING, START_SE, ladder_games, ratings_refit

    rows = []
    for ladder in Ladder.objects.all():
        started = time.perf_counter()
        fitted = ratings_refit(ladder)
        refit_s = time.perf_counter() - started
        started = time.perf_counter()
        versions, games = ladder_games(ladder)
        load_s = time.perf_counter() - started
        started = time.perf_counter()
        result = maths.fit(games, prior_sd=START_SE, prior_mean=START_RATING)
        fit_s = time.perf_counter() - started
        rows.append(FitRow(ladder.slug, fitted, len(versions), load_s, fit_s, refit_s, result.iterations))
    return rows


def simulated_games(count: int, players: int, seed: int) -> Any:
    """``count`` games over ``players`` versions in the ladder's table mix, the durak drawn from the model."""
    from arena.ratings.maths import MAX_SEATS, GameSet

    rng = np.random.default_rng(seed)
    strength = rng.normal(1500, 200, players)
    popularity = rng.pareto(1.5, players) + 1
    popularity /= popularity.sum()
    sizes = np.array([m[1] for m in LADDER_MIX])
    shares = np.array([m[2] for m in LADDER_MIX])
    table = rng.choice(sizes, size=count, p=shares / shares.sum())
    seats = np.full((count, MAX_SEATS), -1, dtype=np.int32)
    durak = np.zeros(count, dtype=np.int8)
    for size in sorted(set(table.tolist())):
        rows = np.flatnonzero(table == size)
        picked = rng.choice(players, size=(rows.size, size), p=popularity)
        while True:  # a version sits once per table: redraw tables that seated one twice
            ordered = np.sort(picked, axis=1)
            bad = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
            if not bad.size:
                break
            picked[bad] = rng.choice(players, size=(bad.size, size), p=popularity)
        weight = 10.0 ** (-strength[picked] / 400)
        cumulative = np.cumsum(weight / weight.sum(axis=1, keepdims=True), axis=1)
        loser = (cumulative < rng.random((rows.size, 1))).sum(axis=1).clip(0, size - 1)
        seats[rows, :size] = picked
        durak[rows] = loser
    return GameSet(seats, durak, players)


def measure_fit_1m(seed: int) -> dict[str, float]:
    from arena.ratings import maths
    from arena.ratings.services import START_RATING, START_SE

    games = simulated_games(1_000_000, 600, seed)
    started = time.perf_counter()
    result = maths.fit(games, prior_sd=START_SE, prior_mean=START_RATING)
    return {"fit_1m_s": round(time.perf_counter() - started, 3), "fit_1m_iterations": result.iterations,
            "fit_1m_versions": 600}


# ---------------------------------------------------------------------------------------------- pages


@dataclass
class PageRow:
    page: str
    urls: list[str]
    times_ms: list[float] = field(default_factory=list)
    per_url: dict[str, list[float]] = field(default_factory=dict)
    queries: list[int] = field(default_factory=list)
    sql_ms: list[float] = field(default_factory=list)
    kb: list[float] = field(default_factory=list)
    error: str | None = None

    def pct(self, q: float) -> float | None:
        return _p(self.times_ms, q)

    def slowest_url(self) -> tuple[str, float] | None:
        if not self.per_url:
            return None
        url, times = max(self.per_url.items(), key=lambda item: statistics.median(item[1]))
        return url, statistics.median(times)


def replay_available() -> str | None:
    """None if the replay viewer's module imports; else why not (the other pages are then measured without it)."""
    try:
        if not callable(getattr(importlib.import_module("arena.matches.replay"), "replay_frames", None)):
            raise ImportError("it has no replay_frames")
    except Exception as error:
        stub = types.ModuleType("arena.matches.replay")

        def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
            raise RuntimeError("arena.matches.replay is not available")

        stub.replay_frames = replay_frames  # type: ignore[attr-defined]
        sys.modules["arena.matches.replay"] = stub
        return f"{type(error).__name__}: {error}"
    return None


def sample_urls(rng: random.Random, samples: int) -> dict[str, list[str]]:
    """The pages to time: home, the biggest ladder, the five busiest bots and a sample of the others, matches,
    2p and 6p replays (``bot_p95_ms`` in the JSON line is over both bot rows together)."""
    from django.db.models import Count

    from arena.matches.models import Game, GameSeat, Match
    from arena.ratings.models import Ladder

    biggest = Ladder.objects.order_by("-fit_games").first()
    assert biggest is not None
    busy = list(
        GameSeat.objects.values("version__bot__name").annotate(n=Count("id")).order_by("-n")
        .values_list("version__bot__name", flat=True)
    )
    others = rng.sample(busy[5:], min(len(busy) - 5, max(1, samples - 5)))
    last_match = Match.objects.order_by("-pk").values_list("pk", flat=True).first() or 1
    urls = {
        "home": ["/"],
        f"ladder {biggest.slug}": [f"/ladders/{biggest.slug}/"],
        "bot busiest 5": [f"/bots/{name}/" for name in busy[:5]],
        "bot others": [f"/bots/{name}/" for name in others],
        "match": [f"/matches/{rng.randrange(1, last_match + 1)}/" for _ in range(samples)],
    }
    for players in (2, 6):
        ids = list(Game.objects.filter(players=players).values_list("pk", flat=True))
        if ids:  # a small seed (--smoke) may hold no game at this table size
            urls[f"replay {players}p"] = [f"/games/{pk}/" for pk in rng.sample(ids, min(samples, len(ids)))]
    return urls


def _get(client: Client, url: str) -> tuple[float, int]:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"GET {url}: HTTP {response.status_code}")
    return elapsed, len(response.content)


def measure_page(client: Client, row: PageRow, requests: int, warmup: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    try:
        for i in range(warmup):
            _get(client, row.urls[i % len(row.urls)])
        for i in range(requests):
            url = row.urls[i % len(row.urls)]
            elapsed, size = _get(client, url)
            row.times_ms.append(elapsed)
            row.per_url.setdefault(url, []).append(elapsed)
            row.kb.append(size / 1024)
        for url in row.urls[:20]:
            with CaptureQueriesContext(connection) as captured:
                _get(client, url)
            row.queries.append(len(captured.captured_queries))
            row.sql_ms.append(sum(float(q["time"]) for q in captured.captured_queries) * 1000)
    except Exception as error:
        row.error = f"{type(error).__name__}: {error}"


def explain_slowest(client: Client, row: PageRow) -> None:
    """EXPLAIN ANALYZE of the page's slowest query (on stderr), for a page that misses its target."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = (row.slowest_url() or (row.urls[0], 0.0))[0]
    with CaptureQueriesContext(connection) as captured:
        _get(client, url)
    queries = sorted(captured.captured_queries, key=lambda q: -float(q["time"]))
    print(f"\n== {row.page}: {url}: {len(queries)} queries, slowest first", file=sys.stderr)
    for query in queries[:3]:
        print(f"-- {float(query['time']) * 1000:.1f} ms: {query['sql'][:2000]}", file=sys.stderr)
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + query["sql"])
            for (line,) in cursor.fetchall():
                print("   " + line, file=sys.stderr)


def profile_page(client: Client, row: PageRow) -> None:
    """cProfile of ten requests of the page's slowest URL (on stderr)."""
    url = (row.slowest_url() or (row.urls[0], 0.0))[0]
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(10):
        _get(client, url)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(35)
    print(f"\n== profile of 10 x GET {url}\n{out.getvalue()}", file=sys.stderr)


def measure_pages(args: argparse.Namespace) -> tuple[list[PageRow], str | None]:
    from django.conf import settings
    from django.test import Client
    from django.test.utils import override_settings

    missing = replay_available()
    urls = sample_urls(random.Random(args.seed + 1), args.samples)
    rows = [PageRow(page, page_urls) for page, page_urls in urls.items()]
    storages = {**settings.STORAGES,
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    hosts = [*settings.ALLOWED_HOSTS, "testserver"]
    with override_settings(STORAGES=storages, ALLOWED_HOSTS=hosts):
        assert not settings.DEBUG, "DEBUG must be off for the benchmark"
        client = Client()
        for row in rows:
            if row.page.startswith("replay") and missing:
                row.error = f"arena.matches.replay unavailable: {missing}"
                continue
            print(f"measuring {row.page} ({len(row.urls)} urls, {args.requests} requests) ...", file=sys.stderr)
            measure_page(client, row, args.requests, args.warmup)
            if row.error is None and args.explain and (row.pct(0.95) or 0) > TARGET_MS:
                explain_slowest(client, row)
            if row.error is None and args.profile and row.page.startswith(args.profile):
                profile_page(client, row)
    return rows, missing


# ---------------------------------------------------------------------------------------------- report


def _fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _combined(rows: list[PageRow], prefix: str) -> list[float]:
    return [t for row in rows if row.page.startswith(prefix) for t in row.times_ms]


def _p(times: list[float], q: float) -> float | None:
    if not times:
        return None
    ordered = sorted(times)
    return round(ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)], 2)


def report(args: argparse.Namespace, counts: dict[str, int], seed_s: float | None, fit: list[FitRow],
           fit_1m: dict[str, float], pages: list[PageRow], missing: str | None) -> None:
    reused = "reused" if seed_s is None else f"seeded in {seed_s:.0f} s"
    print(f"\nstore: {counts['games']:,} games ({reused}), {counts['matches']:,} matches, {counts['seats']:,} seats, "
          f"{counts['points']:,} rating points, {counts['bots']} bots, {counts['versions']} versions")
    print("\nbatch fit (ratings_refit per ladder; load and fit timed again on their own)")
    print("(rest_s = refit_s - load_s - fit_s: storing the ratings and history points)")
    header = ["ladder", "games", "versions", "refit_s", "load_s", "fit_s", "rest_s", "iterations"]
    print(" ".join(f"{h:>12}" for h in header))
    for r in fit:
        print(f"{r.ladder:>12} {r.games:>12,} {r.versions:>12} {r.refit_s:>12.3f} {r.load_s:>12.3f} "
              f"{r.fit_s:>12.3f} {r.refit_s - r.load_s - r.fit_s:>12.3f} {r.iterations:>12}")
    fit_games = sum(r.games for r in fit)
    fit_s = sum(r.refit_s for r in fit)
    load_s = sum(r.load_s for r in fit)
    math_s = sum(r.fit_s for r in fit)
    print(f"{'all':>12} {fit_games:>12,} {sum(r.versions for r in fit):>12} {fit_s:>12.3f} {load_s:>12.3f} "
          f"{math_s:>12.3f} {fit_s - load_s - math_s:>12.3f}"
          f"   target {FIT_TARGET_S:.0f} s: {'ok' if fit_s <= FIT_TARGET_S else 'MISSED'}")
    if fit_1m:
        print(f"fit over 1,000,000 simulated games ({fit_1m['fit_1m_versions']:.0f} versions, in memory): "
              f"{fit_1m['fit_1m_s']:.2f} s, {fit_1m['fit_1m_iterations']:.0f} Newton iterations")
    print(f"\npages (django.test.Client in-process, DEBUG off, {args.warmup} warm-up requests, then {args.requests}; "
          f"queries and sql_ms from one more pass per url)")
    header = ["page", "urls", "requests", "p50_ms", "p95_ms", "max_ms", "queries", "sql_ms", "kb", "target"]
    print(f"{header[0]:<18}" + " ".join(f"{h:>9}" for h in header[1:]))
    print("-" * 108)
    for row in pages:
        if row.error:
            print(f"{row.page:<18} {len(row.urls):>9}  ERROR {row.error}")
            continue
        p95 = row.pct(0.95)
        target = "" if row.page in ("home", "match") else ("ok" if (p95 or 0) <= TARGET_MS else "MISSED")
        print(f"{row.page:<18}" + " ".join(f"{v:>9}" for v in (
            len(row.urls), len(row.times_ms), _fmt(row.pct(0.5)), _fmt(p95), _fmt(max(row.times_ms)),
            f"{statistics.mean(row.queries):.0f}" if row.queries else "-",
            _fmt(statistics.mean(row.sql_ms)) if row.sql_ms else "-",
            _fmt(statistics.mean(row.kb), 0), target)))
    for row in pages:
        slowest = row.slowest_url()
        if slowest and len(row.urls) > 1:
            print(f"  slowest {row.page}: {slowest[0]} (median {slowest[1]:.1f} ms)")
    if missing:
        print(f"\nreplay pages not measured: arena.matches.replay does not import ({missing})")
    if args.json:
        figures: dict[str, Any] = {"games": counts["games"], "seeded_s": None if seed_s is None else round(seed_s, 1)}
        for key, prefix in (("ladder", "ladder"), ("bot", "bot"), ("bot_busiest", "bot busiest"),
                            ("bot_others", "bot others"), ("replay", "replay"), ("replay_2p", "replay 2p"),
                            ("replay_6p", "replay 6p"), ("home", "home"), ("match", "match")):
            times = _combined(pages, prefix)
            figures[f"{key}_p50_ms"] = _p(times, 0.5)
            figures[f"{key}_p95_ms"] = _p(times, 0.95)
            queries = [q for row in pages if row.page.startswith(prefix) for q in row.queries]
            figures[f"{key}_queries_max"] = max(queries) if queries else None
        figures["fit_100k_s"] = round(fit_s, 3)
        figures["fit_load_s"] = round(load_s, 3)
        figures["fit_math_s"] = round(math_s, 3)
        figures["fit_games"] = fit_games
        figures.update(fit_1m)
        figures["target_ms"] = TARGET_MS
        figures["pages_over_target"] = [
            row.page for row in pages
            if row.page not in ("home", "match") and not row.error and (row.pct(0.95) or 0) > TARGET_MS
        ]
        figures["errors"] = {row.page: row.error for row in pages if row.error}
        print(json.dumps(figures))


def store_counts() -> dict[str, int]:
    from arena.bots.models import Bot, BotVersion
    from arena.matches.models import Game, GameSeat, Match
    from arena.ratings.models import RatingPoint

    return {"games": Game.objects.count(), "matches": Match.objects.count(), "seats": GameSeat.objects.count(),
            "points": RatingPoint.objects.count(), "bots": Bot.objects.count(), "versions": BotVersion.objects.count()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=DEFAULT_URL, help=f"the benchmark's own database ({DEFAULT_URL})")
    parser.add_argument("--games", type=int, default=100_000, help="games to store")
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--users", type=int, default=60, help="authors owning the bots")
    parser.add_argument("--pool", type=int, default=12, help="real records per preset, table size and durak seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reseed", action="store_true", help="drop and seed the database even if it matches")
    parser.add_argument("--requests", type=int, default=100, help="timed requests per page")
    parser.add_argument("--warmup", type=int, default=10, help="untimed requests per page first")
    parser.add_argument("--samples", type=int, default=20, help="bots, matches and games sampled per page")
    parser.add_argument("--fit-1m", action="store_true", help="also time the fit over 1,000,000 simulated games")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE a page's slowest queries if it "
                        "misses the target (stderr)")
    parser.add_argument("--profile", choices=("home", "ladder", "bot", "match", "replay"),
                        help="cProfile of a page's slowest url (stderr)")
    parser.add_argument("--smoke", action="store_true", help="toy size: shows the script runs (test_smoke.py)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object last")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.bots, args.users, args.pool = 100, 10, 3, 2
        args.requests, args.warmup, args.samples = 2, 1, 2
    if args.games < 100:
        parser.error("--games: at least 100")

    reuse = prepare_database(args)
    django_setup(args.database_url)
    seed_s: float | None = None
    if reuse and store_counts()["games"] != args.games:
        raise SystemExit("the seed marker and the game count disagree: run again with --reseed")
    if not reuse:
        seed_s = seed(args)
        mark_complete(args)
        print(f"seeded {args.games:,} games in {seed_s:.1f} s", file=sys.stderr)
    else:
        print(f"reusing the seeded database ({args.games:,} games); --reseed to rebuild", file=sys.stderr)
    print("fitting every ladder ...", file=sys.stderr)
    fit = measure_fit()
    fit_1m = measure_fit_1m(args.seed) if args.fit_1m else {}
    pages, missing = measure_pages(args)
    report(args, store_counts(), seed_s, fit, fit_1m, pages, missing)
    if any(row.error for row in pages):
        raise SystemExit("a page failed (ERROR rows above)")


if __name__ == "__main__":
    main()
