"""Reads of the tournaments app: the lists, standings, crosstable, rounds and progress of a tournament.

Everything a tournament page shows is computed from the stored games of its
matches (``GameSeat`` rows), never kept as running totals, so a withdrawal, a
failed match or a repaired advance can never leave the standings out of step
with the games they claim to count. Scoring and ranking are described in
``arena.tournaments.services``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from arena.matches.models import Game, GameSeat, MatchEntry
from arena.matches.services import FAULTS
from arena.ratings import maths
from arena.tournaments.formats import knockout_round
from arena.tournaments.models import (
    Format,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentSeat,
    TournamentTable,
)
from bots_sdk.stats import wilson_interval

PERFORMANCE_PRIOR_SD = maths.PRIOR_SD
"""The performance rating's prior: the ladder's weak one (1500, SD 350), which keeps an entrant who was never
(or always) the durak finite, and is soon outweighed by a tournament's games."""


def tournament_get(pk: int, drafts: bool = False) -> Tournament:
    """A tournament by id; a draft only with ``drafts`` (staff), since a draft is not public yet (404 for others)."""
    found = Tournament.objects.select_related("series", "created_by")
    if not drafts:
        found = found.exclude(status=Tournament.Status.DRAFT)
    return get_object_or_404(found, pk=pk)


def tournament_sections(finished_limit: int = 50, drafts: bool = False) -> dict[str, list[Tournament]]:
    """The list page: running, scheduled (with the drafts, for staff), and the latest finished or cancelled."""
    base = Tournament.objects.select_related("series")
    upcoming = [Tournament.Status.SCHEDULED, *([Tournament.Status.DRAFT] if drafts else [])]
    return {
        "running": list(base.filter(status=Tournament.Status.RUNNING).order_by("-started")),
        "scheduled": list(base.filter(status__in=upcoming).order_by("starts_at")),
        "finished": list(base.filter(status__in=(Tournament.Status.FINISHED, Tournament.Status.CANCELLED))
                         .order_by("-finished", "-pk")[:finished_limit]),
    }


def tournament_entries(tournament: Tournament) -> list[TournamentEntry]:
    return list(tournament.entries.select_related("version__bot").order_by("seed"))


@dataclass(frozen=True)
class _Seat:
    game_id: int
    version_id: int
    durak: bool
    fault: bool
    draw: bool


def _seats(tournament: Tournament) -> list[_Seat]:
    rows = (
        GameSeat.objects.filter(game__match__tournament_table__round__tournament=tournament)
        .order_by("game_id", "seat")
        .values_list("game_id", "version_id", "durak", "offender", "game__reason", "game__draw")
    )
    # A team's seats are one entrant's part in the game: count it once (its seats share the result).
    seats: dict[tuple[int, int], _Seat] = {}
    for g, v, durak, offender, reason, draw in rows:
        known = seats.get((g, v))
        fault = offender and reason in FAULTS
        seats[g, v] = _Seat(g, v, durak or bool(known and known.durak), fault or bool(known and known.fault), draw)
    return list(seats.values())


def entry_points(tournament: Tournament) -> dict[int, int]:
    """Points per entry (its pk): games in which it was not the durak, plus Swiss bye points."""
    by_version = {e.version_id: e for e in tournament.entries.all()}
    points = {e.pk: e.bye_points for e in by_version.values()}
    for seat in _seats(tournament):
        if not seat.durak and seat.version_id in by_version:
            points[by_version[seat.version_id].pk] += 1
    return points


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings: the counts, the durak rate with its 95 % Wilson interval, the performance
    rating with its 95 % interval (None without a decided game), and where it stands in the event."""

    rank: int
    entry: TournamentEntry
    games: int
    duraks: int
    draws: int
    faults: int
    points: int
    rate: float | None
    rate_low: float
    rate_high: float
    rating: float | None
    rating_low: float | None
    rating_high: float | None
    stage: str

    @property
    def rate_text(self) -> str:
        if self.rate is None:
            return "–"
        return f"{100 * self.rate:.0f} % ({100 * self.rate_low:.0f}–{100 * self.rate_high:.0f})"


def _performance(entries: list[TournamentEntry], seats: list[_Seat]) -> dict[int, tuple[float, float, float]]:
    """Per entry pk: the maximum-a-posteriori rating of the loser-choice model over this tournament's games alone
    (``arena.ratings.maths.fit``), and its 95 % interval."""
    index = {e.version_id: i for i, e in enumerate(entries)}
    tables: list[list[int]] = []
    duraks: list[int | None] = []
    current: list[_Seat] = []
    for seat in [*seats, None]:
        if seat is None or (current and seat.game_id != current[0].game_id):
            if current and all(s.version_id in index for s in current) and len(current) >= maths.MIN_SEATS:
                tables.append([index[s.version_id] for s in current])
                duraks.append(next((i for i, s in enumerate(current) if s.durak), None))
            current = []
        if seat is not None:
            current.append(seat)
    games = maths.GameSet.from_tables(tables, duraks, len(entries))
    if not len(games):
        return {}
    fit = maths.fit(games, prior_sd=PERFORMANCE_PRIOR_SD, prior_mean=maths.PRIOR_MEAN)
    played = fit.games
    return {e.pk: (float(fit.ratings[i]), *fit.interval(i)) for i, e in enumerate(entries) if played[i] > 0}


def _stage(tournament: Tournament, entry: TournamentEntry, champion: bool) -> str:
    if entry.withdrawn:
        when = f" in round {entry.withdrawn_round}" if entry.withdrawn_round else " before the start"
        return f"withdrawn{when}: {entry.withdrawn_reason}"
    if tournament.format != Format.KNOCKOUT:
        return ""
    if entry.eliminated_round is not None:
        return f"out in round {entry.eliminated_round}"
    if champion:
        return "winner"
    return "still in" if tournament.status == Tournament.Status.RUNNING else ""


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The standings, best first (knockout: by the round reached, then the place at the last table)."""
    entries = tournament_entries(tournament)
    seats = _seats(tournament)
    tally: dict[int, list[int]] = {e.version_id: [0, 0, 0, 0, 0] for e in entries}  # games duraks draws faults safe
    for seat in seats:
        counts = tally.get(seat.version_id)
        if counts is None:
            continue
        counts[0] += 1
        counts[1] += seat.durak
        counts[2] += seat.draw
        counts[3] += seat.fault
        counts[4] += not seat.durak
    ratings = _performance(entries, seats)
    last_place: dict[int, int] = {}
    if tournament.format == Format.KNOCKOUT:
        for entry_id, place in TournamentSeat.objects.filter(
            entry__tournament=tournament, place__isnull=False
        ).order_by("table__round__number", "table__number").values_list("entry_id", "place"):
            if place is not None:
                last_place[entry_id] = place
    finished = tournament.status == Tournament.Status.FINISHED

    def order(entry: TournamentEntry) -> tuple[float, ...]:
        games, duraks, _, faults, safe = tally[entry.version_id]
        points = safe + entry.bye_points
        rate = duraks / games if games else 1.0
        if tournament.format == Format.KNOCKOUT:
            reached = entry.eliminated_round or (entry.withdrawn_round or 0 if entry.withdrawn else math.inf)
            return (-reached, last_place.get(entry.pk, 99), -points, entry.seed)
        return (-points, rate, faults, entry.seed)

    ranked = sorted(entries, key=order)
    alive = [e for e in ranked if not e.withdrawn and e.eliminated_round is None]
    rows: list[StandingRow] = []
    for rank, entry in enumerate(ranked, 1):
        games, duraks, draws, faults, safe = tally[entry.version_id]
        low, high = wilson_interval(duraks, games)
        rating = ratings.get(entry.pk)
        champion = (tournament.format == Format.KNOCKOUT and finished and len(alive) == 1 and alive[0] is entry)
        rows.append(StandingRow(
            rank=rank, entry=entry, games=games, duraks=duraks, draws=draws, faults=faults,
            points=safe + entry.bye_points, rate=duraks / games if games else None, rate_low=low, rate_high=high,
            rating=rating[0] if rating else None, rating_low=rating[1] if rating else None,
            rating_high=rating[2] if rating else None, stage=_stage(tournament, entry, champion),
        ))
    return rows


@dataclass(frozen=True)
class CrossCell:
    """The row entrant against the column entrant: games at one table, and how often each was the durak.

    ``share`` is the row's part of the two's duraks, with its 95 % Wilson interval: under the loser-choice
    model it depends on the two ratings alone, whoever else sat at the table."""

    games: int
    mine: int
    theirs: int

    @property
    def share(self) -> float | None:
        decided = self.mine + self.theirs
        return self.mine / decided if decided else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.mine, self.mine + self.theirs)

    @property
    def title(self) -> str:
        low, high = self.interval
        share = "no durak between them" if self.share is None else (
            f"its share of the two's duraks {100 * self.share:.0f} % (95 %: {100 * low:.0f}–{100 * high:.0f} %)")
        return f"durak {self.mine}, opponent durak {self.theirs} in {self.games} games together; {share}"


def tournament_crosstable(tournament: Tournament, entries: Iterable[TournamentEntry]) -> list[list[CrossCell | None]]:
    """Entry × entry in the order given; None on the diagonal."""
    order = [e.version_id for e in entries]
    cells: dict[tuple[int, int], list[int]] = {}
    by_game: dict[int, list[_Seat]] = {}
    for seat in _seats(tournament):
        by_game.setdefault(seat.game_id, []).append(seat)
    for table in by_game.values():
        for mine in table:
            for other in table:
                if mine.version_id != other.version_id:
                    cell = cells.setdefault((mine.version_id, other.version_id), [0, 0, 0])
                    cell[0] += 1
                    cell[1] += mine.durak
                    cell[2] += other.durak
    return [[None if a == b else CrossCell(*cells.get((a, b), [0, 0, 0])) for b in order] for a in order]


@dataclass(frozen=True)
class Progress:
    done: int
    failed: int
    playing: int
    total: int

    @property
    def finished(self) -> int:
        return self.done + self.failed

    @property
    def percent(self) -> int:
        return round(100 * self.finished / self.total) if self.total else 0


def tournament_progress(tournament: Tournament) -> Progress:
    """Matches done (or failed) of all it will play: created and planned tables, plus an estimate of the rounds
    not yet drawn (Swiss: rounds left times full tables; knockout: the bracket the survivors still need)."""
    counts = dict.fromkeys(TournamentTable.Status.values, 0)
    for status in TournamentTable.objects.filter(round__tournament=tournament).values_list("status", flat=True):
        counts[status] += 1
    done = counts[TournamentTable.Status.DONE]
    failed = counts[TournamentTable.Status.FAILED]
    playing = counts[TournamentTable.Status.PLAYING]
    total = done + failed + playing + counts[TournamentTable.Status.PLANNED]
    if tournament.status in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING, Tournament.Status.DRAFT):
        total += _tables_to_come(tournament)
    return Progress(done, failed, playing, total)


def _tables_to_come(tournament: Tournament) -> int:
    k = tournament.sides
    active = tournament.entries.filter(withdrawn=False)
    if tournament.status != Tournament.Status.RUNNING:
        if tournament.format == Format.ROUND_ROBIN:
            n = active.count()
            return math.ceil(n * (n - 1) / (k * (k - 1))) if n >= k else 0
        if tournament.format == Format.SWISS:
            return (tournament.rounds or 0) * (active.count() // k)
    if tournament.format == Format.SWISS:
        left = (tournament.rounds or 0) - tournament.tournament_rounds.count()
        return max(0, left) * (active.count() // k)
    if tournament.format != Format.KNOCKOUT:
        return 0
    current = tournament.tournament_rounds.filter(status=TournamentRound.Status.RUNNING).first()
    if current is not None:
        mains = current.tables.filter(tiebreak_of__isnull=True)
        remaining = current.byes.count() + sum(t.advance for t in mains)
    else:
        remaining = active.filter(eliminated_round__isnull=True).count()
    tables = 0
    while remaining >= 2:
        plan = knockout_round(list(range(remaining)), k)
        tables += len(plan.tables)
        remaining = len(plan.byes) + sum(plan.advance)
        if plan.final:
            break
    return tables


@dataclass(frozen=True)
class SeatView:
    seat: TournamentSeat
    games: int | None
    duraks: int | None
    faults: int | None


@dataclass(frozen=True)
class TableView:
    table: TournamentTable
    seats: list[SeatView]
    games: list[tuple[int, int]]
    """(game pk, number from 1) of the table's match, for the replay links."""


@dataclass(frozen=True)
class RoundView:
    round: TournamentRound
    tables: list[TableView]
    byes: list[TournamentEntry]


def tournament_round_list(tournament: Tournament) -> list[RoundView]:
    """Every round with its tables, seats (with their durak counts at that table) and game links."""
    rounds = (
        tournament.tournament_rounds.order_by("number")
        .prefetch_related(
            Prefetch("tables", queryset=TournamentTable.objects.select_related("match").order_by("number")),
            Prefetch("tables__seats", queryset=TournamentSeat.objects.select_related("entry__version__bot")
                     .order_by("position")),
            Prefetch("byes", queryset=TournamentEntry.objects.select_related("version__bot").order_by("seed")),
        )
    )
    results: dict[tuple[int, int], tuple[int, int, int]] = {
        (match_id, version_id): (games, duraks, faults)
        for match_id, version_id, games, duraks, faults in MatchEntry.objects.filter(
            match__tournament_table__round__tournament=tournament
        ).values_list("match_id", "version_id", "games", "duraks", "faults")
    }
    games: dict[int, list[tuple[int, int]]] = {}
    for match_id, pk, number in Game.objects.filter(
        match__tournament_table__round__tournament=tournament
    ).order_by("match_id", "number").values_list("match_id", "pk", "number"):
        games.setdefault(match_id, []).append((pk, number + 1))
    views: list[RoundView] = []
    for round_ in rounds:
        tables: list[TableView] = []
        for table in round_.tables.all():
            seats = []
            for seat in table.seats.all():
                played = results.get((table.match_id, seat.entry.version_id)) if table.match_id else None
                seats.append(SeatView(seat, *(played or (None, None, None))))
            tables.append(TableView(table, seats, games.get(table.match_id, []) if table.match_id else []))
        views.append(RoundView(round_, tables, list(round_.byes.all())))
    return views


def tournament_live(tournament: Tournament) -> dict[str, Any]:
    """The live page's JSON: status, progress and the standings, small enough to poll every few seconds."""
    progress = tournament_progress(tournament)
    return {
        "id": tournament.pk,
        "status": tournament.status,
        "current_round": tournament.current_round,
        "progress": {"done": progress.done, "failed": progress.failed, "playing": progress.playing,
                     "total": progress.total, "percent": progress.percent},
        "standings": [
            {"rank": row.rank, "bot": row.entry.version.bot.name, "version": row.entry.version.number,
             "points": row.points, "games": row.games, "duraks": row.duraks, "faults": row.faults,
             "withdrawn": row.entry.withdrawn,
             "rating": None if row.rating is None else round(row.rating, 1)}
            for row in tournament_standings(tournament)
        ],
    }


def tournament_of_match(match_id: int) -> QuerySet[TournamentTable]:
    return TournamentTable.objects.filter(match_id=match_id).select_related("round__tournament")
