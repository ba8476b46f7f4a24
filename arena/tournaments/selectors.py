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

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from arena.matches.models import Game, GameSeat, MatchEntry
from arena.matches.services import FAULTS
from arena.notices import shown
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
from arena.tournaments.tiebreaks import Tally, TieBreaks, finishing_places, pair_score, standing_key, tiebreaks
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
    """One entrant's part in one counted game (a team's seats count once: they share the result)."""

    game_id: int
    table_id: int
    version_id: int
    durak: bool
    fault: bool
    draw: bool
    finishing: float
    """``sides - place`` by finishing order (``tiebreaks.finishing_places``)."""


def _seats(tournament: Tournament, tables: Iterable[int] | None = None) -> list[_Seat]:
    """The entrants' parts in the games that count: those of tables played to the end (done). A table skipped
    after a withdrawal (its match may still have finished) or cancelled with its tournament does not count.

    Out positions come from the table's replayed ``out_positions`` (seats out in the same bout share one); a
    game without them keeps the record's order, and if it is a draw its last two out share their places."""
    done = TournamentTable.objects.filter(round__tournament=tournament, status=TournamentTable.Status.DONE)
    if tables is not None:
        done = done.filter(pk__in=list(tables))
    replayed: dict[str, dict[str, int]] = {}
    for positions in done.values_list("out_positions", flat=True):
        replayed.update(positions or {})
    rows = GameSeat.objects.filter(game__match__tournament_table__in=done)
    by_game: dict[int, list[tuple[int, int, int, bool, bool, int | None, str, bool]]] = {}
    for row in rows.order_by("game_id", "seat").values_list(
        "game_id", "game__match__tournament_table", "seat", "version_id", "durak", "offender", "out_position",
        "game__reason", "game__draw",
    ):
        by_game.setdefault(row[0], []).append(row[1:])
    seats: list[_Seat] = []
    for game_id, game in by_game.items():
        known = replayed.get(str(game_id))
        if known is not None:
            places = finishing_places([(v, known.get(str(seat)), durak) for _, seat, v, durak, *_ in game])
        else:
            places = finishing_places([(v, out, durak) for _, _, v, durak, _, out, _, _ in game], draw=game[0][7])
        sides = len(places)
        parts: dict[int, _Seat] = {}
        for table_id, _, v, durak, offender, _, reason, draw in game:
            seen = parts.get(v)
            fault = offender and reason in FAULTS
            parts[v] = _Seat(game_id, table_id, v, durak or bool(seen and seen.durak),
                             fault or bool(seen and seen.fault), draw, sides - places[v])
        seats.extend(parts.values())
    return seats


def table_results(tournament: Tournament, tables: Iterable[int]) -> dict[int, dict[int, tuple[int, float]]]:
    """Per table (pk) and version: its duraks and its finishing points over the table's games (knockout)."""
    results: dict[int, dict[int, tuple[int, float]]] = {}
    for seat in _seats(tournament, tables):
        duraks, finishing = results.setdefault(seat.table_id, {}).get(seat.version_id, (0, 0.0))
        results[seat.table_id][seat.version_id] = (duraks + seat.durak, finishing + seat.finishing)
    return results


def _walkover_byes(tournament: Tournament) -> dict[int, int]:
    """Per entry pk: tables it did not play because another entrant at them withdrew (Swiss and round robin).

    **The withdrawal rule**: games already played stand, for everyone. A table that is not played, or whose
    match was still running when an entrant withdrew (it finishes and is recorded, but does not count), scores
    each other entrant seated there as a bye: an average seat's points, in the byes column. So every entrant
    still in has the same number of tables counted, whoever it was drawn against and when."""
    if tournament.format == Format.KNOCKOUT:
        return {}
    byes: dict[int, int] = {}
    for entry_id, withdrawn, withdrawn_round, number in TournamentSeat.objects.filter(
        table__round__tournament=tournament, table__status=TournamentTable.Status.SKIPPED,
    ).values_list("entry_id", "entry__withdrawn", "entry__withdrawn_round", "table__round__number"):
        if not withdrawn or (withdrawn_round or 0) > number:
            byes[entry_id] = byes.get(entry_id, 0) + 1
    return byes


def bye_points(tournament: Tournament) -> int:
    """What a bye scores: an average seat's points at a table, ``deals * (sides - 1)``."""
    return tournament.deals * (tournament.sides - 1)


def entry_points(tournament: Tournament) -> dict[int, int]:
    """Points per entry (its pk): games in which it was not the durak, plus byes (Swiss, and walkovers)."""
    by_version = {e.version_id: e for e in tournament.entries.all()}
    walkovers = _walkover_byes(tournament)
    points = {e.pk: e.bye_points + walkovers.get(e.pk, 0) * bye_points(tournament) for e in by_version.values()}
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
    byes: int
    """Tables sat out: Swiss byes, and tables not played because another entrant withdrew."""
    bye_points: int
    breaks: TieBreaks

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
        if entry.withdrawn_round:
            return gettext("withdrawn in round %(round)s: %(reason)s") % {
                "round": entry.withdrawn_round, "reason": shown(entry.withdrawn_reason)}
        return gettext("withdrawn before the start: %(reason)s") % {"reason": shown(entry.withdrawn_reason)}
    if tournament.format != Format.KNOCKOUT:
        return ""
    if entry.eliminated_round is not None:
        return gettext("out in round %(round)s") % {"round": entry.eliminated_round}
    if champion:
        return gettext("winner")
    return gettext("still in") if tournament.status == Tournament.Status.RUNNING else ""


def _tallies(tournament: Tournament, entries: list[TournamentEntry], seats: list[_Seat],
             walkovers: dict[int, int]) -> dict[int, Tally[int]]:
    """Per entry pk: points, byes, finishing points, opponents per table and pairwise results per game."""
    by_version = {e.version_id: e for e in entries}
    tallies: dict[int, Tally[int]] = {}
    for entry in entries:
        byes = entry.byes + walkovers.get(entry.pk, 0)
        tallies[entry.pk] = Tally(points=entry.bye_points + walkovers.get(entry.pk, 0) * bye_points(tournament),
                                  byes=byes)
    by_game: dict[int, list[_Seat]] = {}
    for seat in seats:
        if seat.version_id in by_version:
            by_game.setdefault(seat.game_id, []).append(seat)
    met: set[tuple[int, int, int]] = set()
    for game in by_game.values():
        for mine in game:
            tally = tallies[by_version[mine.version_id].pk]
            tally.points += not mine.durak
            tally.finishing += mine.finishing
            for other in game:
                if other.version_id == mine.version_id:
                    continue
                opponent = by_version[other.version_id].pk
                tally.results.append((opponent, pair_score(mine.durak, other.durak)))
                if (mine.table_id, mine.version_id, other.version_id) not in met:
                    met.add((mine.table_id, mine.version_id, other.version_id))
                    tally.opponents.append(opponent)
    return tallies


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The standings, best first. Swiss and round robin: points, then the tie-breaks of
    ``arena.tournaments.tiebreaks`` (Buchholz, median Buchholz, Sonneborn-Berger, direct encounter, finishing
    points), then the seed. Knockout: the round reached, the place at the last table, points, finishing points,
    then the seed."""
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
    walkovers = _walkover_byes(tournament)
    tallies = _tallies(tournament, entries, seats, walkovers)
    breaks = tiebreaks(tallies, tournament.sides, tournament.deals * tournament.sides)
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
        points = tallies[entry.pk].points
        if tournament.format == Format.KNOCKOUT:
            reached = entry.eliminated_round or (entry.withdrawn_round or 0 if entry.withdrawn else math.inf)
            return (-reached, last_place.get(entry.pk, 99), -points, -tallies[entry.pk].finishing, entry.seed)
        return standing_key(points, breaks[entry.pk], entry.seed)

    ranked = sorted(entries, key=order)
    alive = [e for e in ranked if not e.withdrawn and e.eliminated_round is None]
    rows: list[StandingRow] = []
    for rank, entry in enumerate(ranked, 1):
        games, duraks, draws, faults, _ = tally[entry.version_id]
        low, high = wilson_interval(duraks, games)
        rating = ratings.get(entry.pk)
        champion = (tournament.format == Format.KNOCKOUT and finished and len(alive) == 1 and alive[0] is entry)
        byes = tallies[entry.pk].byes
        rows.append(StandingRow(
            rank=rank, entry=entry, games=games, duraks=duraks, draws=draws, faults=faults,
            points=round(tallies[entry.pk].points), rate=duraks / games if games else None, rate_low=low,
            rate_high=high, rating=rating[0] if rating else None, rating_low=rating[1] if rating else None,
            rating_high=rating[2] if rating else None, stage=_stage(tournament, entry, champion),
            byes=byes, bye_points=entry.bye_points + walkovers.get(entry.pk, 0) * bye_points(tournament),
            breaks=breaks[entry.pk],
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
        share = gettext("no durak between them") if self.share is None else (
            gettext("its share of the two's duraks %(share)s %% (95 %%: %(low)s–%(high)s %%)") % {
                "share": f"{100 * self.share:.0f}", "low": f"{100 * low:.0f}", "high": f"{100 * high:.0f}"})
        return gettext("durak %(mine)s, opponent durak %(theirs)s in %(games)s games together; %(share)s") % {
            "mine": self.mine, "theirs": self.theirs, "games": self.games, "share": share}


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

    @property
    def ranked(self) -> list[SeatView]:
        """The seats by their place at the table (knockout), unplaced ones after, in seat order."""
        return sorted(self.seats, key=lambda s: (s.seat.place is None, s.seat.place or 0, s.seat.position))

    @property
    def decision(self) -> str:
        """What decided a knockout table (who went on, and by which rule), as the advance wrote it."""
        return shown(self.table.notes)


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
             "withdrawn": row.entry.withdrawn, "byes": row.byes, "bye_points": row.bye_points,
             "tiebreaks": {"buchholz": row.breaks.buchholz, "median_buchholz": row.breaks.median_buchholz,
                           "sonneborn_berger": row.breaks.sonneborn_berger, "direct": row.breaks.direct,
                           "finishing": row.breaks.finishing},
             "rating": None if row.rating is None else round(row.rating, 1)}
            for row in tournament_standings(tournament)
        ],
    }
