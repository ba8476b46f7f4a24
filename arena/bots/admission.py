"""Admission: a new version's match against ``random`` decides whether it enters the ladders.

The matches app plays and stores an admission match like any other and knows nothing of what it decides:
this module's ``admission_match_done``, a hook of ``ARENA_MATCH_DONE_HOOKS``, reads the ended match and
admits the version (rating its admission games) or rejects it with the reason its author sees. A match that
ended without a verdict (it failed for the worker's or the referee's reasons, was cancelled, or is gone) is
queued again, up to ``ARENA_TASK_ATTEMPTS`` attempts in all, and then the version is rejected with what
happened. A hook that never ran (its worker died between storing and announcing) is made up for by the
reaper's pass, ``admissions_settle``, which settles every version left in admission with no match under
way. Both hold the version's row while they decide, so a version is decided, or re-queued, once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction

from arena.bots.models import BotVersion
from arena.bots.services import reference_versions_ensure, version_admit, version_reject
from arena.matches.models import Game, GameSeat, Match, MatchEntry
from arena.matches.services import match_create
from arena.notices import Notice, as_param, notice
from arena.ratings.services import ratings_apply_games

log = logging.getLogger(__name__)

OPPONENT = "random"
"""The reference bot a new version plays for its admission."""
UNDER_WAY = (Match.Status.QUEUED, Match.Status.RUNNING)


@dataclass
class Settled:
    """What one pass over the versions left in admission did (the reaper reports it)."""

    admitted: list[int] = field(default_factory=list)
    rejected: list[int] = field(default_factory=list)
    requeued: list[int] = field(default_factory=list)


def admission_queue(version: BotVersion) -> Match:
    """A new admission match of ``version`` against ``random``, unrated until the version is admitted; queued
    once the transaction commits."""
    opponent = reference_versions_ensure()[OPPONENT]
    return match_create(kind=Match.Kind.ADMISSION, versions=[version, opponent],
                        preset=settings.ARENA_ADMISSION_PRESET, deals=settings.ARENA_ADMISSION_DEALS, rated=False)


def admission_match_done(match_id: int) -> None:
    """The match-done hook: if ``match_id`` is an admission match, settle its version."""
    version_id = (MatchEntry.objects.filter(match_id=match_id, index=0, match__kind=Match.Kind.ADMISSION)
                  .values_list("version_id", flat=True).first())
    if version_id is not None:
        admission_settle(version_id, Settled())


def admissions_settle() -> Settled:
    """The reaper's pass: settle every version still in admission whose admission match is no longer under way
    (its hook failed or never ran, or the match was cancelled or deleted)."""
    under_way = MatchEntry.objects.filter(index=0, match__kind=Match.Kind.ADMISSION,
                                          match__status__in=UNDER_WAY).values("version_id")
    settled = Settled()
    waiting = BotVersion.objects.filter(status=BotVersion.Status.ADMISSION).exclude(pk__in=under_way)
    for version_id in waiting.values_list("pk", flat=True):
        admission_settle(version_id, settled)
    return settled


def admission_settle(version_id: int, settled: Settled) -> None:
    """Decide the version from its latest admission match, or queue another; nothing if it is decided already
    or its match is still under way. What it did is added to ``settled``."""
    with transaction.atomic():
        version = (BotVersion.objects.select_for_update().select_related("bot")
                   .filter(pk=version_id, status=BotVersion.Status.ADMISSION).first())
        if version is None:
            return
        matches = list(Match.objects.filter(kind=Match.Kind.ADMISSION, entries__index=0, entries__version=version)
                       .order_by("-created", "-pk"))
        latest = matches[0] if matches else None
        if latest is not None and latest.status in UNDER_WAY:
            return
        if latest is not None and latest.status == Match.Status.DONE:
            fault = _first_fault(latest, version)
            if fault is None:
                _admit(version, latest)
                settled.admitted.append(version_id)
            else:
                version_reject(version=version, error=fault)
                settled.rejected.append(version_id)
            return
        if latest is not None and latest.status == Match.Status.FAILED and latest.author_error:
            # the author's own bot failed (its build): playing again would only do the same
            version_reject(version=version,
                           error=notice("version.admission_failed", reason=as_param(latest.author_error)).stored())
            settled.rejected.append(version_id)
            return
        attempts = sum(max(match.attempts, 1) for match in matches)
        if attempts < settings.ARENA_TASK_ATTEMPTS:
            queued = admission_queue(version)
            log.warning("version %s: its admission match %s %s; queued admission match %s", version_id,
                        latest.pk if latest else "-", _ending(latest).text(), queued.pk)
            settled.requeued.append(version_id)
            return
        version_reject(version=version, error=notice("version.admission_gave_up", count=attempts,
                                                     ending=_ending(latest)).stored())
        log.warning("version %s: rejected: its admission match %s after %d attempts", version_id,
                    _ending(latest).text(), attempts)
        settled.rejected.append(version_id)


def _ending(match: Match | None) -> Notice:
    """How an admission match ended without a verdict, in words its author may read (no host details)."""
    if match is None:
        return notice("admission.gone")
    if match.status == Match.Status.CANCELLED:
        return notice("admission.cancelled")
    return notice("admission.failed", reason=as_param(match.public_error) if match.public_error
                  else notice("match.not_played"))


def _first_fault(match: Match, version: BotVersion) -> str | None:
    """Why ``version`` failed its stored admission match (the first game it forfeited), or None if it did not."""
    offended = (GameSeat.objects.filter(game__match=match, version=version, offender=True)
                .select_related("game").order_by("game__number").first())
    if offended is None:
        return None
    game = offended.game
    return notice("version.admission_lost", game=game.number + 1, reason=notice("reason", code=game.reason),
                  detail=notice("fault", detail=game.detail)).stored()


def _admit(version: BotVersion, match: Match) -> None:
    """Admit the version and rate its admission games, which were stored unrated until now."""
    version_admit(version=version)
    Match.objects.filter(pk=match.pk).update(rated=True)
    Game.objects.filter(match=match).update(rated=True)
    games = list(Game.objects.filter(match=match).order_by("number"))
    ratings_apply_games(games=games, seats=list(GameSeat.objects.filter(game__match=match)))
