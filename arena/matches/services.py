"""Writes of the matches app: creating matches, claiming them exactly once, storing their results.

Claiming is a conditional update (``status`` queued, or running under the very
task id that Celery redelivers after a worker died), so two workers never play
one match; storing is one transaction guarded by the same condition, so a match
is stored once, whole, with its rating updates, or not at all.
"""

from __future__ import annotations

import logging
import secrets
import statistics
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.module_loading import import_string

from arena.bots.models import BotVersion
from arena.jobs import enqueue_on_commit
from arena.matches.deadlines import match_budget
from arena.matches.models import Game, GameSeat, Match, MatchEntry, PairTally
from arena.notices import as_param, notice
from bots_sdk.engine import PRESETS, DurakError, GameRecord, Reason
from bots_sdk.engine import Game as EngineGame
from bots_sdk.match import table_rules
from worker.referee.match import GameResult, MatchSpec

log = logging.getLogger(__name__)

FAULTS = tuple(reason.value for reason in Reason if reason.is_forfeit)
"""The reasons that end a game as a forfeit, in the engine's order (the statistics' columns)."""
TOURNAMENT_QUEUE = "tournament"
PLAY_MATCH_TASK = "arena.matches.tasks.play_match"
"""The Celery queue of tournament matches; every other match goes to ``referee`` (the task's route)."""


class MatchError(ValueError):
    """A match that cannot be created as asked; the message says why."""


def match_create(
    *, kind: str, versions: Sequence[BotVersion], preset: str, deals: int, rated: bool,
    requested_by: User | None = None, seed: str | None = None,
) -> Match:
    """A queued match between ``versions`` (spec order); it is enqueued once the transaction commits.

    Under a team preset each version is a team: it plays every seat of its team (``pagat-pairs`` with two
    versions is a four-player match), so a team's result is one bot's result.
    """
    if not 2 <= len(versions) <= 6:
        raise MatchError(f"a table seats 2 to 6 bots, not {len(versions)}")
    if preset not in PRESETS:
        raise MatchError(f"preset {preset!r} is not one of {', '.join(PRESETS)}")
    try:
        rules = table_rules(preset, len(versions))
    except ValueError as error:
        raise MatchError(str(error)) from None
    if rules.teams is not None and len(versions) != len(rules.teams):
        raise MatchError(f"preset {preset!r} seats one bot a team: give {len(rules.teams)} bots, not {len(versions)}")
    if not 1 <= deals <= 500:
        raise MatchError(f"deals: {deals} is not between 1 and 500")
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind, preset=preset, players=rules.players, deals=deals, seed=seed or secrets.token_hex(8),
            rated=rated, move_s=settings.ARENA_MOVE_S, bank_s=settings.ARENA_BANK_S, start_s=settings.ARENA_START_S,
            requested_by=requested_by,
        )
        MatchEntry.objects.bulk_create(
            MatchEntry(match=match, index=i, version=version) for i, version in enumerate(versions)
        )
        # Tournament matches have their own queue, with workers of their own (ARENA_LADDER_WORKERS), so an event
        # starts on time.
        enqueue_on_commit(PLAY_MATCH_TASK, match.pk,
                          queue=TOURNAMENT_QUEUE if kind == Match.Kind.TOURNAMENT else None)
    return match


def challenge_create(*, user: User, version: BotVersion, opponents: Sequence[BotVersion],
                     preset: str = "classic") -> Match:
    """An unrated match an author asks for: one of their own versions against any active bots."""
    if version.bot.owner_id != user.pk:
        raise MatchError(f"{version.display} belongs to another author")
    for candidate in (version, *opponents):
        if candidate.status not in (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED) and not candidate.reference:
            raise MatchError(f"{candidate.display} is {candidate.get_status_display()}, not admitted")
    return match_create(
        kind=Match.Kind.CHALLENGE, versions=[version, *opponents], preset=preset,
        deals=settings.ARENA_CHALLENGE_DEALS, rated=False, requested_by=user,
    )


def match_claim(*, match_id: int, task_id: str, worker: str) -> Match | None:
    """Take the match for this task; None if it is done, cancelled, gone, or held by another task (only a
    queued match, or one this very task already holds, is claimed).

    Each claim counts an attempt and sets the deadline its clocks allow (``deadlines.match_budget``); the reaper
    takes back a match still running after it."""
    claimable = Q(status=Match.Status.QUEUED) | Q(status=Match.Status.RUNNING, task_id=task_id)
    head = Match.objects.filter(pk=match_id).values("deals", "players", "move_s", "bank_s", "start_s").first()
    if head is None:
        return None
    now = timezone.now()
    budget = match_budget(entries=MatchEntry.objects.filter(match_id=match_id).count(), **head)
    taken = Match.objects.filter(claimable, pk=match_id).update(
        status=Match.Status.RUNNING, task_id=task_id, worker=worker[:255], started=now, deadline=now + budget,
        attempts=F("attempts") + 1,
    )
    if taken != 1:
        return None
    return Match.objects.prefetch_related("entries__version__bot").get(pk=match_id)


def matches_cancel(*, match_ids: Sequence[int], reason: str) -> list[int]:
    """Cancel those of ``match_ids`` still queued (a conditional update, so a worker's claim and the cancel never
    both win); a running match plays on. The ids cancelled."""
    with transaction.atomic():
        cancelled = list(Match.objects.select_for_update().filter(pk__in=match_ids, status=Match.Status.QUEUED)
                         .values_list("pk", flat=True))
        Match.objects.filter(pk__in=cancelled).update(
            status=Match.Status.CANCELLED, error=reason[:10000], finished=timezone.now()
        )
    return cancelled


def match_release(*, match: Match, task_id: str, error: str = "", public_error: str = "") -> bool:
    """Give the claim back (the worker could not play it, another may): True if it is queued again, False if it
    has had its ``ARENA_TASK_ATTEMPTS`` and failed instead (with ``error``), or the claim was lost."""
    held = Match.objects.filter(pk=match.pk, status=Match.Status.RUNNING, task_id=task_id)
    if held.filter(attempts__lt=settings.ARENA_TASK_ATTEMPTS).update(
        status=Match.Status.QUEUED, task_id="", worker="", started=None, deadline=None
    ):
        return True
    tries = settings.ARENA_TASK_ATTEMPTS
    last = as_param(public_error) if public_error else notice("failure.worker_error")
    match_fail(match=match, task_id=task_id, error=f"gave up after {tries} attempts; the last: {error}",
               public_error=notice("match.gave_up", count=tries, reason=last).stored())
    return False


def match_fail(*, match: Match, task_id: str, error: str, public_error: str = "", author_error: str = "") -> bool:
    """End the match as failed: ``error`` in full for staff, ``public_error`` (no host details) for everyone
    else, ``author_error`` (a build's output) for its bots' authors only, which the match-done hooks may pass on
    (an admission rejects its version with it). False if this task lost the claim."""
    public = public_error or notice("match.not_played").stored()
    return bool(Match.objects.filter(pk=match.pk, status=Match.Status.RUNNING, task_id=task_id).update(
        status=Match.Status.FAILED, error=_clip(error, 10000), public_error=public[:500],
        author_error=_clip(author_error, 10000), finished=timezone.now(), deadline=None,
    ))


def _clip(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, keeping its head (what failed) and its tail (a traceback's exception)."""
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]}\n...\n{text[-half:]}"


def match_spec(match: Match, bots: Sequence[str]) -> MatchSpec:
    """The referee's spec of ``match``; ``bots`` names each entry's bot for the referee (store entry or name)."""
    return MatchSpec(
        bots=tuple(bots), preset=match.preset, deals=match.deals, seed=match.seed, duplicate=True,
        move_s=match.move_s, bank_s=match.bank_s, start_s=match.start_s,
    )


def _latency(record: dict[str, Any], seat: int) -> tuple[int, float | None, float | None, int | None]:
    times = [a["ms"] for a in record["actions"] if a["seat"] == seat and isinstance(a.get("ms"), int)]
    decisions = sum(1 for a in record["actions"] if a["seat"] == seat)
    if not times:
        return decisions, None, None, None
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return decisions, statistics.fmean(times), float(p95), ordered[-1]


def _deal_facts(record: dict[str, Any]) -> tuple[int | None, list[int | None]]:
    """The first attacker and each seat's trumps right after the deal (what the statistics pages group by)."""
    try:
        parsed = GameRecord.from_dict(record)
        game = EngineGame.from_deck(parsed.rules, parsed.deck, parsed.dealer)
    except (DurakError, ValueError):
        return None, [None] * len(record.get("seats", []))
    trump = game.trump
    return game.attacker, [sum(1 for card in game.hand(seat) if card.suit == trump) for seat in range(game.players)]


def match_store_result(*, match: Match, task_id: str, results: Sequence[GameResult]) -> bool:
    """Store every game of ``match`` with its seats, finish the match and apply its ratings: all or nothing.

    False (and nothing written) if this task no longer holds the claim."""
    from arena.ratings.services import ratings_apply_games

    entries = list(match.entries.select_related("version__bot").order_by("index"))
    now = timezone.now()
    rated = match.rated
    with transaction.atomic():
        finished = Match.objects.filter(pk=match.pk, status=Match.Status.RUNNING, task_id=task_id).update(
            status=Match.Status.DONE, finished=now
        )
        if finished != 1:
            transaction.set_rollback(True)
            return False
        games: list[Game] = []
        seats: list[GameSeat] = []
        facts = [_deal_facts(result.record) for result in results]
        for number, (result, (first_attacker, _)) in enumerate(zip(results, facts)):
            record = result.record
            game = Game(
                match=match, number=number, deal=result.deal, rotation=result.rotation, preset=match.preset,
                players=match.players, rated=rated, durak_seat=result.durak, draw=result.draw, reason=result.reason,
                offender_seat=result.offender, detail=result.detail[:5000], decisions=len(record["actions"]),
                bouts=result.bouts, first_attacker=first_attacker, record=record, finished=now,
            )
            games.append(game)
        Game.objects.bulk_create(games)
        for game, result, (_, trumps) in zip(games, results, facts):
            out = result.record["result"].get("out_order", [])
            for seat, index in enumerate(result.seats):
                decisions, mean, p95, most = _latency(result.record, seat)
                seats.append(GameSeat(
                    game=game, seat=seat, version=entries[index].version, durak=_lost(result, index),
                    out_position=out.index(seat) + 1 if seat in out else None, offender=result.offender == seat,
                    start_trumps=trumps[seat],
                    decisions=decisions, ms_mean=mean, ms_p95=p95, ms_max=most,
                ))
        GameSeat.objects.bulk_create(seats)
        for entry in entries:
            entry.games = len(results)
            entry.duraks = sum(1 for r in results if _lost(r, entry.index))
            entry.faults = sum(
                1 for r in results
                if r.reason in FAULTS and r.offender is not None and r.seats[r.offender] == entry.index
            )
        MatchEntry.objects.bulk_update(entries, ["games", "duraks", "faults"])
        _tally_pairs(seats)
        if rated:
            ratings_apply_games(games=games, seats=seats)
    return True


def _lost(result: GameResult, index: int) -> bool:
    """Whether the spec's bot ``index`` lost: it sat in the durak's seat, or (teams) in the durak's team."""
    return result.durak is not None and result.seats[result.durak] == index


_TALLY_SQL = """
INSERT INTO {table} (version_id, opponent_id, games, duraks, opponent_duraks, draws) VALUES (%s, %s, %s, %s, %s, %s)
ON CONFLICT (version_id, opponent_id) DO UPDATE SET games = {table}.games + excluded.games,
    duraks = {table}.duraks + excluded.duraks, opponent_duraks = {table}.opponent_duraks + excluded.opponent_duraks,
    draws = {table}.draws + excluded.draws
"""


def _tally_pairs(seats: Sequence[GameSeat]) -> None:
    """Add these games to the per-pair tallies; an upsert with increments, so concurrent matches never clash."""
    by_game: dict[int, list[GameSeat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    tallies: dict[tuple[int, int], list[int]] = {}
    for table in by_game.values():
        lost: dict[int, bool] = {}  # per version: a team's seats count once
        for seat in table:
            lost[seat.version_id] = lost.get(seat.version_id, False) or seat.durak
        draw = not any(lost.values())
        for mine, mine_lost in lost.items():
            for other, other_lost in lost.items():
                if other == mine:
                    continue
                tally = tallies.setdefault((mine, other), [0, 0, 0, 0])
                tally[0] += 1
                tally[1] += mine_lost
                tally[2] += other_lost
                tally[3] += draw
    sql = _TALLY_SQL.format(table=connection.ops.quote_name(PairTally._meta.db_table))
    with connection.cursor() as cursor:
        cursor.executemany(sql, [(a, b, *counts) for (a, b), counts in sorted(tallies.items())])


def match_done(match_id: int) -> None:
    """Tell the apps waiting on matches (admission, tournaments, strength tests) that this one is over; a hook
    that raises is logged and the others still run (their own periodic tasks, or the reaper, catch up)."""
    for hook in settings.ARENA_MATCH_DONE_HOOKS:
        try:
            import_string(hook)(match_id)
        except Exception:
            log.exception("match %s: the done hook %s failed", match_id, hook)
