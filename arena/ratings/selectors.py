"""Reads of the ratings app: ladders, standings, rating histories."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404

from arena.bots.models import BotVersion
from arena.ratings.models import Ladder, Rating, RatingPoint
from bots_sdk.stats import Z95

HISTORY_POINTS = 150
"""Points per ladder on a bot page's chart: enough for its shape, few enough to stay fast at any game count."""


@dataclass(frozen=True)
class Standing:
    """A ladder line. Established ratings rank first; provisional ones rank after them (by rating) and are
    marked so: a new arena, where every rating starts provisional, still has an order."""

    rank: int
    rating: Rating

    @property
    def provisional(self) -> bool:
        return self.rating.provisional


def ladder_list() -> QuerySet[Ladder]:
    return Ladder.objects.all()


def ladder_get(slug: str) -> Ladder:
    preset, _, players = slug.rpartition("-")
    if not players.isdigit():
        raise Http404(f"no ladder {slug!r}")
    ladder = Ladder.objects.filter(preset=preset, players=int(players)).first()
    if ladder is None:
        raise Http404(f"no ladder {slug!r}")
    return ladder


def ladder_standings(ladder: Ladder, limit: int | None = None, language: str | None = None) -> list[Standing]:
    """Active versions, established ones first by rating, then the provisional ones by rating.

    ``language`` keeps the versions of that language only, each at its rank on the whole ladder."""
    rows = (
        Rating.objects.filter(ladder=ladder, version__status=BotVersion.Status.ACTIVE)
        .select_related("version__bot__owner")
        .order_by("provisional", "-rating")
    )
    if language is None and limit is not None:
        rows = rows[:limit]
    standings = [Standing(rank, row) for rank, row in enumerate(rows, start=1)]
    if language is not None:
        standings = [s for s in standings if s.rating.version.language == language][:limit]
    return standings


def ladder_languages(ladder: Ladder) -> list[str]:
    """The languages of the ladder's active versions (what its language filter offers), sorted."""
    return sorted(set(
        Rating.objects.filter(ladder=ladder, version__status=BotVersion.Status.ACTIVE)
        .values_list("version__language", flat=True)
    ))


def version_ratings(version_ids: list[int]) -> QuerySet[Rating]:
    return Rating.objects.filter(version_id__in=version_ids).select_related("ladder", "version")


def rating_history(version_ids: list[int]) -> dict[str, list[tuple[int, float, float, float, int]]]:
    """Per ladder slug, ``(games, rating, low, high, version number)`` points of these versions in time order,
    thinned evenly to ``HISTORY_POINTS`` (compact: the busiest bots have a point per match on many ladders)."""
    points = (
        RatingPoint.objects.filter(version_id__in=version_ids)
        .order_by("ladder_id", "at", "pk")
        .values_list("ladder__preset", "ladder__players", "rating", "se", "games", "version__number")
    )
    raw: dict[str, list[tuple[float, float, int, int]]] = {}
    for preset, players, rating, se, games, number in points:
        raw.setdefault(f"{preset}-{players}", []).append((rating, se, games, number))
    series: dict[str, list[tuple[int, float, float, float, int]]] = {}
    for slug, line in raw.items():
        if len(line) > HISTORY_POINTS:
            step = len(line) / HISTORY_POINTS
            line = [line[int(i * step)] for i in range(HISTORY_POINTS - 1)] + [line[-1]]
        series[slug] = [(games, round(rating, 1), round(rating - Z95 * se, 1), round(rating + Z95 * se, 1), number)
                        for rating, se, games, number in line]
    return series
