"""Writes of the ratings app: the per-game K update and the batch maximum-likelihood fit.

Between fits each rated game moves its seats' ratings by the online update of
the loser-choice model and narrows their standard errors by the game's Fisher
information, so the ladder moves at once and its intervals stay honest; the
periodic batch fit (``ratings_refit``) then replaces both with the maximum-
likelihood values over every rated game of the ladder.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from django.db import transaction
from django.utils import timezone

from arena.matches.models import Game, GameSeat
from arena.ratings import maths
from arena.ratings.models import Ladder, Rating, RatingPoint

START_RATING = 1500.0
START_SE = 350.0
"""The prior of the batch fit: every version starts at 1500 with this standard deviation."""
K_PROVISIONAL = 40.0
K_ESTABLISHED = 32.0
_INFO_SCALE = (math.log(10) / 400) ** 2
"""Fisher information per unit of p(1 - p), in 1/points² (the model is logistic in base 10 over 400 points)."""


def ladder_for(preset: str, players: int) -> Ladder:
    ladder, _ = Ladder.objects.get_or_create(preset=preset, players=players)
    return ladder


def _rating_for(ladder: Ladder, version_id: int, cache: dict[int, Rating]) -> Rating:
    if version_id not in cache:
        cache[version_id], _ = Rating.objects.get_or_create(
            ladder=ladder, version_id=version_id, defaults={"rating": START_RATING, "se": START_SE}
        )
    return cache[version_id]


def rated_sides(versions: Sequence[int], durak_seat: int, teams: bool) -> tuple[list[int], int] | None:
    """The rated sides of one game and which of them lost.

    Each seat is a side, or under a team preset each team, played by one version in all its seats
    (DESIGN: a team is one bot version), so a team game rates like a game between its teams' versions.
    None when one version sits on two sides (a self-play test): that says nothing about it.
    """
    parties = list(dict.fromkeys(versions)) if teams else list(versions)
    if len(set(parties)) < len(parties):
        return None
    return parties, parties.index(versions[durak_seat])


def ratings_apply_games(*, games: Sequence[Game], seats: Sequence[GameSeat]) -> None:
    """The K update for each rated game with a durak, in order; one history point per version and call (a
    match), so the history stays small however many games a bot plays."""
    by_game: dict[int, list[GameSeat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    caches: dict[int, dict[int, Rating]] = {}
    points: dict[tuple[int, int], RatingPoint] = {}
    now = timezone.now()
    for game in games:
        if not game.rated or game.durak_seat is None:
            continue
        ladder = ladder_for(game.preset, game.players)
        cache = caches.setdefault(ladder.pk, {})
        table = sorted(by_game[game.pk], key=lambda s: s.seat)
        rated = rated_sides([s.version_id for s in table], game.durak_seat, ladder.teams is not None)
        if rated is None:
            continue
        parties, durak = rated
        rows = [_rating_for(ladder, version_id, cache) for version_id in parties]
        before = [row.rating for row in rows]
        ks = [K_PROVISIONAL if row.provisional else K_ESTABLISHED for row in rows]
        after = maths.k_update(before, durak, ks)
        p_durak = maths.expected_durak(before)
        for side, (row, rating, p) in enumerate(zip(rows, after, p_durak)):
            row.rating = rating
            row.se = 1 / math.sqrt(1 / row.se**2 + _INFO_SCALE * p * (1 - p))
            row.games += 1
            row.duraks += int(side == durak)
            row.provisional = maths.is_provisional(row.se, row.games)
            points[ladder.pk, row.version_id] = RatingPoint(
                ladder=ladder, version_id=row.version_id, at=now, rating=row.rating, se=row.se, games=row.games,
                source=RatingPoint.Source.GAME)
    for cache in caches.values():
        Rating.objects.bulk_update(list(cache.values()), ["rating", "se", "games", "duraks", "provisional"])
    RatingPoint.objects.bulk_create(points.values())


def ladder_games(ladder: Ladder) -> tuple[list[int], maths.GameSet]:
    """Every rated game of ``ladder`` with a durak, as the fit's arrays; and the version id of each index."""
    rows = (
        GameSeat.objects.filter(
            game__preset=ladder.preset, game__players=ladder.players, game__rated=True, game__durak_seat__isnull=False
        )
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "version_id", "game__durak_seat")
    )
    data = np.array(list(rows), dtype=np.int64).reshape(-1, 4)
    versions = sorted(set(data[:, 2].tolist()))
    index = {version: i for i, version in enumerate(versions)}
    tables: list[list[int]] = []
    duraks: list[int | None] = []
    players = ladder.players
    teams = ladder.teams is not None
    for start in range(0, len(data), players):
        block = data[start:start + players]
        rated = rated_sides([index[int(v)] for v in block[:, 2]], int(block[0, 3]), teams)
        if rated is not None:
            tables.append(rated[0])
            duraks.append(rated[1])
    return versions, maths.GameSet.from_tables(tables, duraks, len(versions))


def ratings_refit(ladder: Ladder) -> int:
    """Replace the ladder's ratings with the batch fit over all its rated games; returns the games fitted."""
    versions, games = ladder_games(ladder)
    if not versions:
        return 0
    fit = maths.fit(games, prior_sd=START_SE, prior_mean=START_RATING)
    now = timezone.now()
    with transaction.atomic():
        existing = {r.version_id: r for r in Rating.objects.select_for_update().filter(ladder=ladder)}
        updated: list[Rating] = []
        points: list[RatingPoint] = []
        for i, version_id in enumerate(versions):
            row = existing.get(version_id) or Rating.objects.create(
                ladder=ladder, version_id=version_id, rating=START_RATING, se=START_SE
            )
            row.rating = float(fit.ratings[i])
            row.se = float(fit.se[i])
            row.games = int(fit.games[i])
            row.provisional = maths.is_provisional(row.se, row.games)
            updated.append(row)
            points.append(RatingPoint(ladder=ladder, version_id=version_id, at=now, rating=row.rating, se=row.se,
                                      games=row.games, source=RatingPoint.Source.FIT))
        Rating.objects.bulk_update(updated, ["rating", "se", "games", "provisional"])
        RatingPoint.objects.bulk_create(points)
        Ladder.objects.filter(pk=ladder.pk).update(fitted=now, fit_games=len(games))
    return len(games)


REFIT_TASK = "arena.ratings.refit_ladders"
REFIT_SCHEDULE_NAME = "Refit every ladder"


def refit_schedule_ensure(every_minutes: int = 60) -> None:
    """The periodic batch fit as a django-celery-beat schedule (editable in the admin; kept if it exists)."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    interval, _ = IntervalSchedule.objects.get_or_create(every=every_minutes, period=IntervalSchedule.MINUTES)
    PeriodicTask.objects.get_or_create(name=REFIT_SCHEDULE_NAME, defaults={"task": REFIT_TASK, "interval": interval})
