"""Writes of the tournaments app: creating and scheduling tournaments, starting and advancing them, withdrawals.

**Advancing** is the one state machine: ``tournament_advance`` locks the
tournament row (``select_for_update``), starts it when it is due, closes the
current round once every table's match is done or failed (knockout: once every
table is decided, tie-breaks included), and opens the next round by creating
its matches (enqueued when the transaction commits). Each step looks at the
stored state only, so calling it twice, or from two processes at once, does the
work once: the lock serialises the callers, and the second finds nothing to do
(the unique constraints on rounds, tables and matches back this up). Three
callers: the match-done hook (``tournament_match_done``: advance at once), the
one-off beat task at ``starts_at``, and ``advance_tournaments`` every minute,
which repairs whatever a lost hook, a dead worker or a restarted beat left
behind.

**Scoring** (the standings' "points"): a game scores 1 point for each seat that
is not the durak (a draw scores 1 for everyone), 0 for the durak. A forfeit
(timeout, crash, illegal move, protocol error) is recorded by the referee as
that game's durak, so faults cost points like any loss and are shown apart.
Round robins give every entrant the same number of games, so points order them
as durak counts do. A Swiss bye scores what an average seat scores at a table,
``deals * (sides - 1)`` (sides: the entrants at a table; under a team preset
each entrant plays a whole team). Ranking: points, then the tie-breaks of
``arena.tournaments.tiebreaks`` (Buchholz, median Buchholz, Sonneborn-Berger,
direct encounter, finishing points), the better seed last.

**Knockout decisions**: a table's entrants are ordered by fewer duraks over
the table's duplicate set, then by more finishing points (the order players
went out, ``arena.tournaments.tiebreaks``), which separates the players who
never lose at a table of three or more; exactly ``advance`` go on. If the last
place that goes on is still tied, the same table plays one more duplicate deal
(up to ``MAX_TIEBREAKS`` times), which only orders the entrants the main match
left tied; only a tie after that, or a failed match, goes to the better seed
(and is written in the notes). A table whose match an entrant withdrew from is
played again without it (or, if no more than ``advance`` are left, the others
go on without playing).

**Bad input**: a field too small for the table size is refused at creation
(and cancels a tournament at its start if withdrawals shrank it); entering a
version that already plays in another scheduled or running tournament is
refused unless staff tick "allow overlap" (the usual cause is a double submit;
the reference bots are exempt: they are stateless built-ins every event may
use). Withdrawing cancels the entrant's queued matches; its remaining tables
are skipped (a match already running finishes but does not count), its played
games still count, and each other entrant at a skipped table is scored a bye
(the standings' withdrawal rule, ``selectors._walkover_byes``). A failed match
is recorded on its table and in the notes, scores nothing, and the tournament
moves on.
"""

from __future__ import annotations

import json
import logging
import zoneinfo
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from arena.bots.models import BotVersion
from arena.jobs import enqueue_on_commit
from arena.matches.models import Match
from arena.matches.services import MatchError, match_create
from arena.notices import Notice, Param, as_param, notice, parsed
from arena.ratings.models import Rating
from arena.tournaments.formats import (
    entrants_problem,
    knockout_round,
    pair_counts,
    round_robin_schedule,
    settings_error,
    swiss_byes,
    swiss_tables,
)
from arena.tournaments.models import (
    Format,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentSeat,
    TournamentSeries,
    TournamentTable,
)
from arena.tournaments.places import out_positions
from bots_sdk.engine import Rules

log = logging.getLogger(__name__)

START_TASK = "arena.tournaments.start_tournament"
ADVANCE_TASK = "arena.tournaments.advance_tournaments"
SPAWN_TASK = "arena.tournaments.spawn_tournament"
ADVANCE_SCHEDULE_NAME = "Advance running tournaments"
SEED_BY_STAFF = notice("seed.staff").stored()
MAX_TIEBREAKS = 2
"""Extra duplicate deals a tied knockout table plays before the better seed goes on."""
START_EARLY = timedelta(seconds=5)
"""A start that arrives this much before ``starts_at`` (a beat tick rounding) still starts it."""


class TournamentError(ValueError):
    """A tournament that cannot be created or changed as asked; the message says why."""


def start_schedule_name(tournament_id: int) -> str:
    return f"Start tournament {tournament_id}"


def series_schedule_name(series_id: int) -> str:
    return f"Spawn tournament series {series_id}"


def _note(tournament: Tournament, note: Notice) -> None:
    """Add a line to the tournament's notes: the time, then the note (worded when a page shows it)."""
    tournament.notes += f"{timezone.now():%Y-%m-%d %H:%M} {note.stored()}\n"
    tournament.save(update_fields=["notes", "updated"])


# --- creating and scheduling ---------------------------------------------------------------------------------------


def entrant_clashes(versions: Sequence[BotVersion], exclude: int | None = None) -> dict[Tournament, list[BotVersion]]:
    """Other scheduled or running tournaments that already hold one of ``versions`` (reference bots exempt)."""
    wanted = {v.pk: v for v in versions if not v.reference}
    rows = TournamentEntry.objects.filter(
        version_id__in=wanted, withdrawn=False,
        tournament__status__in=(Tournament.Status.SCHEDULED, Tournament.Status.RUNNING),
    )
    if exclude is not None:
        rows = rows.exclude(tournament_id=exclude)
    rows = (
        rows.select_related("tournament")
        .order_by("tournament__starts_at", "tournament_id", "seed")
    )
    clashes: dict[Tournament, list[BotVersion]] = {}
    for row in rows:
        clashes.setdefault(row.tournament, []).append(wanted[row.version_id])
    return clashes


def _seeded(versions: Sequence[BotVersion], preset: str, players: int,
            order: Sequence[BotVersion] = ()) -> list[tuple[BotVersion, float | None, str]]:
    """Seed order, each with the rating it was seeded by and where that came from: first the versions staff put
    in ``order``, as given; then by rating, best first. A version's rating is its estimate on this preset's
    ladder at this table size, provisional or not (a provisional rating is still the best estimate there is);
    without one, its estimate at the nearest other table size of the preset, then on any ladder; a version
    never rated anywhere is seeded at the prior mean (1500), among the others rather than after them."""
    from arena.ratings.maths import PRIOR_MEAN

    rows = Rating.objects.filter(version__in=versions).select_related("ladder").order_by("pk")
    here: dict[int, tuple[float, str]] = {}
    nearest: dict[int, tuple[tuple[int, int], float, str]] = {}
    for row in rows:
        ladder = row.ladder
        name: dict[str, Param] = {"preset": notice("preset", name=ladder.preset), "players": ladder.players}
        mark = "_provisional" if row.provisional else ""
        if ladder.preset == preset and ladder.players == players:
            here[row.version_id] = (row.rating, notice(f"seed.rating{mark}", **name).stored())
            continue
        distance = (0 if ladder.preset == preset else 1, abs(ladder.players - players))
        if row.version_id not in nearest or distance < nearest[row.version_id][0]:
            nearest[row.version_id] = (distance, row.rating, notice(f"seed.estimate{mark}", **name).stored())
    chosen = {v.pk: i for i, v in enumerate(order)}
    given = {v.pk: i for i, v in enumerate(versions)}

    def basis(version: BotVersion) -> tuple[float, str]:
        if version.pk in here:
            return here[version.pk]
        if version.pk in nearest:
            return nearest[version.pk][1:]
        return PRIOR_MEAN, notice("seed.prior").stored()

    def key(version: BotVersion) -> tuple[float, ...]:
        if version.pk in chosen:
            return (0, chosen[version.pk])
        return (1, -basis(version)[0], given[version.pk])

    seeded: list[tuple[BotVersion, float | None, str]] = []
    for version in sorted(versions, key=key):
        rating, note = basis(version)
        seeded.append((version, rating, SEED_BY_STAFF if version.pk in chosen else note))
    return seeded


def tournament_create(
    *, name: str, format: str, preset: str, players: int, deals: int, versions: Sequence[BotVersion],
    starts_at: datetime | None = None, rounds: int | None = None, rated: bool = False,
    created_by: User | None = None, allow_overlap: bool = False, series: TournamentSeries | None = None,
    seed_order: Sequence[BotVersion] = (),
) -> Tournament:
    """A scheduled tournament of ``versions`` (active ones), seeded by ladder rating (``seed_order`` first: the
    seeds staff set), with its beat start.

    Raises ``TournamentError`` (nothing stored) for bad settings, a field that does not fit the table size,
    an inactive or repeated entrant, or (unless ``allow_overlap``) an entrant busy in another tournament."""
    name = name.strip()
    if not name:
        raise TournamentError("name: give the tournament a name")
    if format != Format.SWISS:
        rounds = None
    problem = settings_error(format, preset, players, deals, rounds)
    if problem:
        raise TournamentError(problem)
    seen: set[int] = set()
    for version in versions:
        if version.pk in seen:
            raise TournamentError(f"{version.display} is entered twice")
        seen.add(version.pk)
        if version.status != BotVersion.Status.ACTIVE:
            raise TournamentError(f"{version.display} is {version.get_status_display()}, not active")
    stray = [v.display for v in seed_order if v.pk not in seen]
    if stray:
        raise TournamentError(f"seeds: {', '.join(stray)} is not among the entrants")
    field = entrants_problem(format, Rules.preset(preset, players).sides, len(versions))
    if field:
        raise TournamentError(notice(f"entrants.{field[0]}", **field[1]).text())
    if not allow_overlap:
        clashes = entrant_clashes(versions)
        if clashes:
            listed = "; ".join(f"{', '.join(v.display for v in busy)} in “{other.name}” ({other.status})"
                               for other, busy in clashes.items())
            raise TournamentError(f"already entered elsewhere: {listed}. Allow the overlap to enter them anyway.")
    now = timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name[:100], format=format, preset=preset, players=players, deals=deals, rounds=rounds, rated=rated,
            status=Tournament.Status.SCHEDULED, starts_at=starts_at or now, created_by=created_by, series=series,
        )
        TournamentEntry.objects.bulk_create(
            TournamentEntry(tournament=tournament, version=version, seed=seed, seed_rating=rating, seed_note=note)
            for seed, (version, rating, note) in enumerate(_seeded(versions, preset, players, seed_order), 1)
        )
        tournament_schedule_upsert(tournament)
        if tournament.starts_at <= now:
            enqueue_on_commit("arena.tournaments.tasks.start_tournament", tournament.pk)
    return tournament


def tournament_schedule_upsert(tournament: Tournament) -> None:
    """The one-off beat task that starts ``tournament`` at ``starts_at``, upserted by name (an admin edit of the
    time moves it); disabled, never deleted, once the tournament is no longer waiting to start."""
    from django_celery_beat.models import ClockedSchedule, PeriodicTask

    name = start_schedule_name(tournament.pk)
    if tournament.status == Tournament.Status.SCHEDULED:
        clocked = ClockedSchedule.objects.filter(clocked_time=tournament.starts_at).first()
        if clocked is None:
            clocked = ClockedSchedule.objects.create(clocked_time=tournament.starts_at)
        PeriodicTask.objects.update_or_create(name=name, defaults={
            "task": START_TASK, "args": json.dumps([tournament.pk]), "clocked": clocked, "one_off": True,
            "enabled": True, "interval": None, "crontab": None, "solar": None,
            "description": f"Starts “{tournament.name}” (arena.tournaments).",
        })
        return
    for task in PeriodicTask.objects.filter(name=name, enabled=True):
        task.enabled = False
        task.save()  # through save(), so beat hears of the change (PeriodicTasks.changed)


def series_schedule_upsert(series: TournamentSeries) -> None:
    """The series' crontab task that spawns a tournament each time, upserted by name and kept in step with the
    series' crontab fields and ``enabled``."""
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    fields = {"minute": series.minute, "hour": series.hour, "day_of_week": series.day_of_week,
              "day_of_month": series.day_of_month, "month_of_year": series.month_of_year,
              "timezone": zoneinfo.ZoneInfo(settings.TIME_ZONE)}
    crontab = CrontabSchedule.objects.filter(**fields).first() or CrontabSchedule.objects.create(**fields)
    PeriodicTask.objects.update_or_create(name=series_schedule_name(series.pk), defaults={
        "task": SPAWN_TASK, "args": json.dumps([series.pk]), "crontab": crontab, "one_off": False,
        "enabled": series.enabled, "interval": None, "clocked": None, "solar": None,
        "description": f"Spawns a tournament of the series “{series.name}” (arena.tournaments).",
    })


def tournament_schedules_ensure(every_minutes: int = 1) -> None:
    """The beat rows of the tournaments app (``manage.py setup_arena`` calls it; running it again changes nothing):
    ``advance_tournaments`` every minute (kept as edited in the admin if it exists), each series' crontab task,
    and each scheduled tournament's start. Exactly one beat must run (``celery beat`` with the
    DatabaseScheduler of settings): two would start and spawn twice (harmless for starts, which are idempotent,
    but a series would spawn two tournaments)."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    interval = IntervalSchedule.objects.filter(every=every_minutes, period=IntervalSchedule.MINUTES).first()
    if interval is None:
        interval = IntervalSchedule.objects.create(every=every_minutes, period=IntervalSchedule.MINUTES)
    PeriodicTask.objects.get_or_create(
        name=ADVANCE_SCHEDULE_NAME, defaults={"task": ADVANCE_TASK, "interval": interval}
    )
    for series in TournamentSeries.objects.all():
        series_schedule_upsert(series)
    for tournament in Tournament.objects.filter(status=Tournament.Status.SCHEDULED):
        tournament_schedule_upsert(tournament)


def series_save(series: TournamentSeries) -> TournamentSeries:
    """Validate and store a series and its beat task (the admin's save path)."""
    series.full_clean()
    with transaction.atomic():
        series.save()
        series_schedule_upsert(series)
    return series


def series_spawn(series_id: int) -> Tournament | None:
    """The series' next tournament, starting now, of the active versions of its bots (every active bot if it
    names none). Skipped (with a note on the series) while its previous tournament is still on, or when the
    field does not fit; clashes with other tournaments are allowed: a series is a standing staff decision."""
    with transaction.atomic():
        series = TournamentSeries.objects.select_for_update().filter(pk=series_id).first()
        if series is None or not series.enabled:
            return None
        now = timezone.now()
        busy = series.tournaments.filter(status__in=(Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)).first()
        if busy is not None:
            series.notes = f"{now:%Y-%m-%d %H:%M} skipped: “{busy.name}” is still {busy.status}"
            series.save(update_fields=["notes", "updated"])
            return None
        versions = BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot")
        if series.bots.exists():
            versions = versions.filter(bot__in=series.bots.all())
        try:
            tournament = tournament_create(
                name=f"{series.name} {now:%Y-%m-%d %H:%M}", format=series.format, preset=series.preset,
                players=series.players, deals=series.deals, rounds=series.rounds, rated=series.rated,
                versions=list(versions.order_by("bot__name")), starts_at=now, created_by=series.created_by,
                allow_overlap=True, series=series,
            )
        except TournamentError as error:
            series.notes = f"{now:%Y-%m-%d %H:%M} skipped: {error}"
            series.save(update_fields=["notes", "updated"])
            return None
        series.last_spawned = now
        series.notes = ""
        series.save(update_fields=["last_spawned", "notes", "updated"])
    return tournament


# --- starting and advancing ----------------------------------------------------------------------------------------


def tournament_advance(tournament_id: int) -> str:
    """Move the tournament on as far as its stored state allows; what it did, in a word (see the module doc)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            return "gone"
        if tournament.status == Tournament.Status.SCHEDULED and tournament.starts_at > timezone.now() + START_EARLY:
            return "not yet"
        # scheduled and due; or set to "running" by hand in the admin: start it rather than finish it with no rounds
        waiting = tournament.status == Tournament.Status.SCHEDULED
        if (waiting or (tournament.status == Tournament.Status.RUNNING and tournament.started is None)) \
                and not _start(tournament):
            return "cancelled"
        if tournament.status != Tournament.Status.RUNNING:
            return str(tournament.status)
        return _advance(tournament)


def tournaments_advance_due() -> dict[int, str]:
    """Advance every running tournament and start every due one (the minute task); one tournament's error is
    logged and does not stop the others."""
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.RUNNING) | Q(status=Tournament.Status.SCHEDULED, starts_at__lte=timezone.now())
    ).order_by("pk").values_list("pk", flat=True)
    done: dict[int, str] = {}
    for tournament_id in due:
        try:
            done[tournament_id] = tournament_advance(tournament_id)
        except Exception:
            log.exception("tournament %s: advancing failed", tournament_id)
            done[tournament_id] = "error"
    return done


def tournament_match_done(match_id: int) -> None:
    """Called after a match is stored or has failed (ARENA_MATCH_DONE_HOOKS): advance its tournament at once.

    An error is logged, not raised: the match is already stored, the other hooks must still run, and the
    minute task advances the tournament again."""
    tournament_id = (
        TournamentTable.objects.filter(match_id=match_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return
    try:
        tournament_advance(tournament_id)
    except Exception:
        log.exception("tournament %s: advancing after match %s failed", tournament_id, match_id)


def _start(tournament: Tournament) -> bool:
    """Scheduled → running (planning a round robin's rounds), or cancelled if the field no longer fits.

    Entrants whose version was rejected since they entered are withdrawn; retired ones still play (their code
    is frozen and was admitted when they entered)."""
    now = timezone.now()
    for entry in tournament.entries.filter(withdrawn=False, version__status=BotVersion.Status.REJECTED):
        entry.withdrawn, entry.withdrawn_at = True, now
        entry.withdrawn_reason = notice("withdrawn.rejected").stored()
        entry.save(update_fields=["withdrawn", "withdrawn_at", "withdrawn_reason"])
    active = list(tournament.entries.filter(withdrawn=False).select_related("version__bot").order_by("seed"))
    problem = entrants_problem(tournament.format, tournament.sides, len(active))
    if problem:
        tournament.status = Tournament.Status.CANCELLED
        tournament.error = notice("tournament.not_started",
                                  problem=notice(f"entrants.{problem[0]}", **problem[1])).stored()
        tournament.finished = now
        tournament.save(update_fields=["status", "error", "finished", "updated"])
        tournament_schedule_upsert(tournament)
        return False
    tournament.status = Tournament.Status.RUNNING
    tournament.started = now
    tournament.save(update_fields=["status", "started", "updated"])
    tournament_schedule_upsert(tournament)
    if tournament.format == Format.ROUND_ROBIN:
        schedule = round_robin_schedule(len(active), tournament.sides, seed=tournament.seed)
        for number, tables in enumerate(schedule, 1):
            _create_round(tournament, number, [[active[i] for i in table] for table in tables])
    _note(tournament, notice("tournament.started", count=len(active)))
    return True


def _advance(tournament: Tournament) -> str:
    while True:
        current = tournament.tournament_rounds.filter(status=TournamentRound.Status.RUNNING).order_by("number").first()
        if current is not None:
            if not _round_settled(tournament, current):
                return "waiting"
            current.status = TournamentRound.Status.DONE
            current.finished = timezone.now()
            current.save(update_fields=["status", "finished"])
        upcoming = _next_round(tournament)
        if upcoming is None:
            tournament.status = Tournament.Status.FINISHED
            tournament.finished = timezone.now()
            tournament.save(update_fields=["status", "finished", "updated"])
            _note(tournament, notice("tournament.finished"))
            return "finished"
        _open_round(tournament, upcoming)


def _create_round(tournament: Tournament, number: int, tables: Sequence[Sequence[TournamentEntry]],
                  advance: Sequence[int] | None = None) -> TournamentRound:
    round_ = TournamentRound.objects.create(tournament=tournament, number=number)
    rows = TournamentTable.objects.bulk_create(
        TournamentTable(round=round_, number=i, deals=tournament.deals, advance=advance[i - 1] if advance else 1)
        for i in range(1, len(tables) + 1)
    )
    TournamentSeat.objects.bulk_create(
        TournamentSeat(table=row, entry=entry, position=position)
        for row, table in zip(rows, tables) for position, entry in enumerate(table)
    )
    return round_


def _open_round(tournament: Tournament, round_: TournamentRound) -> None:
    round_.status = TournamentRound.Status.RUNNING
    round_.started = timezone.now()
    round_.save(update_fields=["status", "started"])
    tournament.current_round = round_.number
    tournament.save(update_fields=["current_round", "updated"])
    for table in round_.tables.filter(status=TournamentTable.Status.PLANNED).order_by("number"):
        _open_table(tournament, table)


def _open_table(tournament: Tournament, table: TournamentTable) -> None:
    """Create the table's match; skip the table if one of its entrants has withdrawn."""
    seats = list(table.seats.select_related("entry__version__bot").order_by("position"))
    gone = [seat.entry for seat in seats if seat.entry.withdrawn]
    if gone:
        table.status = TournamentTable.Status.SKIPPED
        table.notes = notice("table.not_played", bots=", ".join(e.version.display for e in gone)).stored()
        table.save(update_fields=["status", "notes"])
        return
    try:
        match = match_create(
            kind=Match.Kind.TOURNAMENT, versions=[seat.entry.version for seat in seats], preset=tournament.preset,
            deals=table.deals, rated=tournament.rated, requested_by=tournament.created_by,
            seed=f"{tournament.seed}-{table.round.number}-{table.number}",
        )
    except MatchError as error:
        table.status = TournamentTable.Status.FAILED
        why = notice("table.not_created", error=str(error))
        table.notes = why.stored()
        table.save(update_fields=["status", "notes"])
        _note(tournament, notice("tournament.table", round=table.round.number, table=table.number, note=why))
        return
    table.match = match
    table.status = TournamentTable.Status.PLAYING
    table.save(update_fields=["match", "status"])


def _round_settled(tournament: Tournament, round_: TournamentRound) -> bool:
    """Whether every table of the round is over (and, knockout, decided); takes in finished matches."""
    tables = list(round_.tables.select_related("match").order_by("number"))
    for table in tables:
        if table.status != TournamentTable.Status.PLAYING or table.match is None:
            continue
        if table.match.status == Match.Status.DONE:
            table.status = TournamentTable.Status.DONE
            table.out_positions = _out_positions(table.match)
            table.save(update_fields=["status", "out_positions"])
        elif table.match.status == Match.Status.FAILED:
            # The public reason: tournament pages are public, the staff's reason holds host details.
            stored = table.match.public_error.strip() or notice("match.not_played").stored()
            reason = parsed(stored) or stored.splitlines()[0][:300]
            table.status = TournamentTable.Status.FAILED
            table.notes = notice("table.match_failed", reason=reason).stored()
            table.save(update_fields=["status", "notes"])
            _note(tournament, notice("tournament.match_failed", round=round_.number, table=table.number,
                                     match=table.match.pk, reason=reason))
    if any(t.status in (TournamentTable.Status.PLANNED, TournamentTable.Status.PLAYING) for t in tables):
        return False
    if tournament.format == Format.KNOCKOUT:
        return _knockout_settle(tournament, round_, tables)
    return True


def _out_positions(match: Match) -> dict[str, dict[str, int]]:
    """Per game of ``match``: the seats' out positions, seats out in the same bout sharing one (the finishing
    order's ties; ``arena.tournaments.places``). Games whose record does not replay are left out."""
    positions: dict[str, dict[str, int]] = {}
    for game_id, record in match.games.values_list("pk", "record"):
        found = out_positions(record)
        if found is not None:
            positions[str(game_id)] = {str(seat): rank for seat, rank in found.items()}
    return positions


def _next_round(tournament: Tournament) -> TournamentRound | None:
    if tournament.format == Format.ROUND_ROBIN:
        return tournament.tournament_rounds.filter(status=TournamentRound.Status.PLANNED).order_by("number").first()
    number = tournament.tournament_rounds.count() + 1
    active = list(tournament.entries.filter(withdrawn=False).select_related("version__bot").order_by("seed"))
    if tournament.format == Format.SWISS:
        if number > (tournament.rounds or 0):
            return None
        if len(active) < tournament.sides:
            tournament.error = notice("tournament.stopped", round=number - 1, sides=tournament.sides).stored()
            tournament.save(update_fields=["error", "updated"])
            return None
        return _swiss_round(tournament, number, active)
    alive = [e for e in active if e.eliminated_round is None]
    if len(alive) < 2:
        if alive:
            _note(tournament, notice("tournament.wins", bot=alive[0].version.display))
        return None
    had: dict[int, int] = {}
    for entry_id in TournamentRound.byes.through.objects.filter(
        tournamentround__tournament=tournament
    ).values_list("tournamententry_id", flat=True):
        had[entry_id] = had.get(entry_id, 0) + 1
    plan = knockout_round(list(range(len(alive))), tournament.sides,
                          {i: had.get(e.pk, 0) for i, e in enumerate(alive)})
    if plan.final and len(alive) < tournament.sides:
        _note(tournament, notice("tournament.short_final", round=number, count=len(alive), sides=tournament.sides))
    round_ = _create_round(tournament, number, [[alive[i] for i in table] for table in plan.tables], plan.advance)
    round_.byes.set([alive[i] for i in plan.byes])
    return round_


def _swiss_round(tournament: Tournament, number: int, active: list[TournamentEntry]) -> TournamentRound:
    """Group by score (see ``formats.swiss_tables``); byes score an average seat's points."""
    from arena.tournaments.selectors import entry_points

    points = entry_points(tournament)
    by_pk = {entry.pk: entry for entry in active}
    ranked = sorted(by_pk, key=lambda pk: (-points.get(pk, 0), by_pk[pk].seed))
    earlier: dict[int, list[int]] = {}
    for table_id, entry_id in TournamentSeat.objects.filter(
        table__round__tournament=tournament, table__match__isnull=False
    ).values_list("table_id", "entry_id"):
        earlier.setdefault(table_id, []).append(entry_id)
    met = pair_counts(list(earlier.values()))
    byes = swiss_byes(ranked, tournament.sides, {pk: by_pk[pk].byes for pk in ranked})
    tables = swiss_tables([pk for pk in ranked if pk not in byes], tournament.sides,
                          {pk: float(points.get(pk, 0)) for pk in ranked}, met, seed=f"{tournament.seed}-{number}")
    round_ = _create_round(tournament, number, [[by_pk[pk] for pk in table] for table in tables])
    for pk in byes:
        entry = by_pk[pk]
        entry.byes += 1
        entry.bye_points += tournament.deals * (tournament.sides - 1)
        entry.save(update_fields=["byes", "bye_points"])
    round_.byes.set([by_pk[pk] for pk in byes])
    return round_


def _knockout_settle(tournament: Tournament, round_: TournamentRound, tables: list[TournamentTable]) -> bool:
    """Decide each knockout table (who goes on, each entrant's place); play a tie-break deal where the cut is
    tied, or the table again without an entrant who withdrew. False while such a table is being played."""
    from arena.tournaments.selectors import table_results

    settled = True
    results = table_results(tournament, [t.pk for t in tables])
    for main in (t for t in tables if t.tiebreak_of_id is None):
        seats = list(main.seats.select_related("entry__version__bot").order_by("position"))
        if all(seat.place is not None for seat in seats):
            continue  # decided in an earlier call
        chain = [main, *sorted((t for t in tables if t.tiebreak_of_id == main.pk), key=lambda t: t.number)]

        def record(seat: TournamentSeat, chain: list[TournamentTable] = chain) -> tuple[float, ...]:
            """Fewer duraks, then more finishing points, table by table (the main match, then each extra)."""
            parts: list[float] = []
            for table in chain:
                duraks, finishing = results.get(table.pk, {}).get(seat.entry.version_id, (0, 0.0))
                parts += [duraks, -finishing]
            return tuple(parts)

        playing = [s for s in seats if not s.entry.withdrawn]
        ranking = sorted(playing, key=lambda s: (record(s), s.entry.seed))
        ranking += sorted((s for s in seats if s.entry.withdrawn), key=lambda s: s.entry.seed)
        cut = main.advance
        replay = main.status == TournamentTable.Status.SKIPPED and len(playing) > cut and len(playing) >= 2
        if replay and len(chain) == 1:
            extra = _create_extra(tournament, round_, main, playing, max(t.number for t in tables) + 1,
                                  deals=main.deals, why=notice("table.again_without"))
            tables.append(extra)
            if extra.status == TournamentTable.Status.PLAYING:
                settled = False
                continue
        tied = 0 < cut < len(playing) and record(ranking[cut - 1]) == record(ranking[cut])
        if tied and main.status != TournamentTable.Status.FAILED \
                and chain[-1].status == TournamentTable.Status.DONE and len(chain) - 1 < MAX_TIEBREAKS:
            extra = _create_extra(tournament, round_, main, playing, max(t.number for t in tables) + 1, deals=1,
                                  why=notice("table.one_more_deal"))
            tables.append(extra)
            if extra.status == TournamentTable.Status.PLAYING:
                settled = False
                continue
        if main.status == TournamentTable.Status.FAILED:
            why = notice("table.failed_seed")
        elif tied:
            why = notice("table.still_tied", count=len(chain) - 1)
        elif len(playing) <= cut:
            why = notice("table.others_go_on_unplayed" if main.status == TournamentTable.Status.SKIPPED
                         else "table.others_go_on")
        else:
            why = _decided_by(record(ranking[cut - 1]), record(ranking[cut]), chain)
        if main.status == TournamentTable.Status.FAILED or tied or len(playing) <= cut:
            _note(tournament, notice("tournament.table", round=round_.number, table=main.number, note=why))
        main.notes = f"{main.notes}\n{why.stored()}".strip()
        main.save(update_fields=["notes"])
        for place, seat in enumerate(ranking, 1):
            seat.place = place
            seat.advanced = place <= cut and not seat.entry.withdrawn
        TournamentSeat.objects.bulk_update(ranking, ["place", "advanced"])
        TournamentEntry.objects.filter(
            pk__in=[seat.entry_id for seat in ranking if not seat.advanced], eliminated_round__isnull=True
        ).update(eliminated_round=round_.number)
    return settled


def _decided_by(last_in: tuple[float, ...], first_out: tuple[float, ...],
                chain: Sequence[TournamentTable]) -> Notice:
    """Which part of the table's record separated the last entrant through from the first one out."""
    index = next(i for i, (a, b) in enumerate(zip(last_in, first_out)) if a != b)
    table, part = divmod(index, 2)
    where = notice("table.in_match") if table == 0 else notice("table.in_tiebreak", number=table,
                                                                 table=chain[table].number)
    if part == 0:
        return notice("table.by_duraks", where=where, last_in=last_in[index], first_out=first_out[index])
    return notice("table.by_finishing", where=where, last_in=-last_in[index], first_out=-first_out[index])


def _create_extra(tournament: Tournament, round_: TournamentRound, main: TournamentTable,
                  entrants: Sequence[TournamentSeat], number: int, deals: int, why: Notice) -> TournamentTable:
    """An extra table deciding ``main``: a tie-break deal, or the table again after a withdrawal."""
    extra = TournamentTable.objects.create(
        round=round_, number=number, deals=deals, advance=main.advance, tiebreak_of=main,
        notes=notice("table.tiebreak_of", table=main.number, why=why).stored(),
    )
    TournamentSeat.objects.bulk_create(
        TournamentSeat(table=extra, entry=seat.entry, position=i)
        for i, seat in enumerate(sorted(entrants, key=lambda s: s.position))
    )
    _open_table(tournament, extra)
    return extra


# --- withdrawals and cancellation ----------------------------------------------------------------------------------


def _close_tables(tournament: Tournament, tables: Sequence[TournamentTable], status: str, why: Notice) -> None:
    """Cancel the tables' queued matches and mark the tables ``status``; a match already running plays on and is
    recorded, but its table no longer counts (the notes say which)."""
    from arena.matches.services import matches_cancel

    cancelled = set(matches_cancel(match_ids=[t.match_id for t in tables if t.match_id is not None],
                                   reason=f"cancelled: {_in_english(why)}"))
    for table in tables:
        running = table.match_id is not None and table.match_id not in cancelled \
            and table.status == TournamentTable.Status.PLAYING
        table.status = status
        note = notice("table.not_counted_running", why=why, match=table.match_id) if running \
            else notice("table.not_counted", why=why)
        table.notes = note.stored()
        table.save(update_fields=["status", "notes"])
        if running:
            _note(tournament, notice("tournament.table", round=table.round.number, table=table.number, note=note))


def _in_english(note: Notice) -> str:
    """``note`` for the staff's record of a match (``Match.error``), which is kept in the site's language."""
    with translation.override(settings.LANGUAGE_CODE):
        return note.text()


def tournament_withdraw(*, entry: TournamentEntry, reason: str) -> TournamentEntry:
    """Take an entrant out: its queued matches are cancelled, its tables not yet played do not count (a running
    one finishes but does not count), its played games keep counting; the others are compensated as the
    standings' withdrawal rule says (``selectors._walkover_byes``; knockout: the table is played again)."""
    reason = reason.strip() or notice("withdrawn.by_staff").stored()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
        entry = TournamentEntry.objects.select_related("version__bot").get(pk=entry.pk)
        if entry.withdrawn:
            return entry
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(f"“{tournament.name}” is {tournament.status}: nothing to withdraw from")
        entry.withdrawn = True
        entry.withdrawn_reason = reason[:500]
        entry.withdrawn_at = timezone.now()
        entry.withdrawn_round = tournament.current_round or None
        entry.save(update_fields=["withdrawn", "withdrawn_reason", "withdrawn_at", "withdrawn_round"])
        if tournament.format == Format.KNOCKOUT and tournament.status == Tournament.Status.RUNNING:
            seated = TournamentSeat.objects.filter(
                entry=entry, table__round__status=TournamentRound.Status.RUNNING, place__isnull=True
            ).exists()
            if not seated and entry.eliminated_round is None:
                entry.eliminated_round = tournament.current_round or 1
                entry.save(update_fields=["eliminated_round"])
        _note(tournament, notice("tournament.withdrew", bot=entry.version.display,
                                 reason=as_param(entry.withdrawn_reason)))
        open_tables = list(TournamentTable.objects.filter(
            seats__entry=entry, status=TournamentTable.Status.PLAYING
        ).select_related("round"))
        _close_tables(tournament, open_tables, TournamentTable.Status.SKIPPED,
                      notice("table.withdrew", bot=entry.version.display))
        if tournament.status == Tournament.Status.RUNNING:
            _advance(tournament)
    return entry


def tournament_cancel(*, tournament: Tournament, reason: str, by: User | None = None) -> Tournament:
    """Stop a tournament: its queued matches are cancelled, its rounds and tables closed (a match already running
    finishes and is recorded, but counts for nothing), and the notes say who cancelled it, when and why."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(f"“{tournament.name}” is already {tournament.status}")
        now = timezone.now()
        tournament.status = Tournament.Status.CANCELLED
        tournament.error = reason.strip()[:2000] or notice("tournament.cancelled_by_staff").stored()
        tournament.finished = now
        tournament.save(update_fields=["status", "error", "finished", "updated"])
        when, reason_param = f"{now:%Y-%m-%d %H:%M:%S}", as_param(tournament.error)
        _note(tournament, notice("tournament.cancelled_by", who=by.get_username(), when=when, reason=reason_param)
              if by is not None else notice("tournament.cancelled_by_system", when=when, reason=reason_param))
        open_tables = list(TournamentTable.objects.filter(
            round__tournament=tournament, status__in=(TournamentTable.Status.PLANNED, TournamentTable.Status.PLAYING)
        ).select_related("round"))
        _close_tables(tournament, open_tables, TournamentTable.Status.CANCELLED, notice("table.tournament_cancelled"))
        tournament.tournament_rounds.filter(
            status__in=(TournamentRound.Status.PLANNED, TournamentRound.Status.RUNNING)
        ).update(status=TournamentRound.Status.CANCELLED, finished=now)
        tournament_schedule_upsert(tournament)
    return tournament
