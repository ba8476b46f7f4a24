"""Writes of the statistics app: gentle self-play stored as ordinary matches, so a fresh arena has data.

The games go through the matches services exactly as a worker's task plays a
match (create, claim, play the spec with the plain process launcher, store), so
they are ordinary unrated challenge matches with replayable records: the page
reads them like any other games, and nothing here can drift from what the
arena stores. The match is claimed in the transaction that creates it, so the
task that ``match_create`` enqueues on commit finds it taken and does nothing.
"""

from __future__ import annotations

import logging
import secrets
import socket
from collections.abc import Callable

from django.db import transaction
from kombu.exceptions import OperationalError

from arena.bots.services import reference_versions_ensure
from arena.matches.models import Match
from arena.matches.services import match_claim, match_create, match_fail, match_spec, match_store_result
from arena.stats import source
from worker.referee.launch import launcher_for
from worker.referee.match import GameResult, play_spec

log = logging.getLogger(__name__)

DEALS_PER_MATCH = 100
"""Deals per stored match: an interrupted run keeps every match finished before it."""


class SelfplayError(RuntimeError):
    pass


def selfplay_play(
    *, deals: int, players: int, seed: str | None = None, deals_per_match: int = DEALS_PER_MATCH,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[Match]:
    """Play ``deals`` deals of ``classic`` with gentle in every seat, each in every rotation, as stored matches."""
    if not 2 <= players <= 6:
        raise SelfplayError(f"players: {players} is not between 2 and 6")
    if deals < 1:
        raise SelfplayError(f"deals: {deals} is not a positive number")
    gentle = reference_versions_ensure()["gentle"]
    launcher = launcher_for("none")
    run = seed or secrets.token_hex(6)
    worker = f"{socket.gethostname()} stats_selfplay"[:255]
    matches: list[Match] = []
    left = deals
    while left > 0:
        count = min(left, deals_per_match)
        task_id = f"stats-selfplay-{run}-{len(matches)}"
        try:
            with transaction.atomic():
                match = match_create(kind=Match.Kind.CHALLENGE, versions=[gentle] * players, preset=source.PRESET,
                                     deals=count, rated=False, seed=f"selfplay-{run}-{len(matches)}")
                claimed = match_claim(match_id=match.pk, task_id=task_id, worker=worker)
        except OperationalError as error:
            # The commit happened; only enqueuing the (no-op) task failed: this command needs no broker.
            log.info("stats_selfplay: the broker is unreachable (%s); playing the match here anyway", error)
            claimed = match_claim(match_id=match.pk, task_id=task_id, worker=worker)
        if claimed is None:
            raise SelfplayError(f"match {match.pk}: another task claimed it")
        try:
            results = play_spec(match_spec(claimed, ["gentle"] * players), launcher, on_game=on_game)
        except BaseException as error:
            match_fail(match=claimed, task_id=task_id, error=f"stats_selfplay interrupted: {error!r}")
            raise
        if not match_store_result(match=claimed, task_id=task_id, results=results):
            raise SelfplayError(f"match {match.pk}: lost its claim, not stored")
        matches.append(claimed)
        left -= count
    return matches
