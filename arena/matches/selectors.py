"""Reads of matches and games for the pages and the API (services write, selectors read)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Avg, Count, Max, QuerySet, Sum
from django.shortcuts import get_object_or_404

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, GameSeat, Match, MatchEntry, PairTally


def game_get(pk: int) -> Game:
    """A game with its match and seats (and their versions and bots) in one round of queries."""
    return get_object_or_404(
        Game.objects.select_related("match").prefetch_related("seats__version__bot"), pk=pk
    )


def match_get(pk: int) -> Match:
    return get_object_or_404(Match.objects.prefetch_related("entries__version__bot"), pk=pk)


def match_games(match: Match) -> QuerySet[Game]:
    """The match's games without their records (the list never needs them)."""
    return match.games.defer("record").prefetch_related("seats__version__bot").order_by("number")


def recent_matches(limit: int = 20, bot: Bot | None = None) -> QuerySet[Match]:
    matches = Match.objects.prefetch_related("entries__version__bot").order_by("-created")
    if bot is not None:
        matches = matches.filter(pk__in=MatchEntry.objects.filter(version__bot=bot).values("match"))
    return matches[:limit]


@dataclass(frozen=True)
class SeatLatency:
    version: BotVersion
    decisions: int
    ms_mean: float | None
    ms_max: int | None


def match_latency(match: Match) -> list[SeatLatency]:
    """Per bot of the match: decisions and answer times over all its games."""
    rows = (
        GameSeat.objects.filter(game__match=match)
        .values("version")
        .annotate(decisions=Sum("decisions"), mean=Avg("ms_mean"), most=Max("ms_max"), games=Count("id"))
    )
    versions = BotVersion.objects.select_related("bot").in_bulk([r["version"] for r in rows])
    return [SeatLatency(versions[r["version"]], r["decisions"] or 0, r["mean"], r["most"]) for r in rows]


@dataclass(frozen=True)
class OpponentResult:
    """Games a bot shared with one opponent version; who of the two was the durak how often."""

    opponent: BotVersion
    games: int
    my_duraks: int
    their_duraks: int
    draws: int


def bot_opponents(bot: Bot, limit: int = 30) -> list[OpponentResult]:
    """Results against the opponent versions met most often (summed over the bot's own versions)."""
    rows = (
        PairTally.objects.filter(version__bot=bot)
        .exclude(opponent__bot=bot)
        .values("opponent")
        .annotate(n=Sum("games"), mine=Sum("duraks"), theirs=Sum("opponent_duraks"), drawn=Sum("draws"))
        .order_by("-n", "opponent")[:limit]
    )
    versions = BotVersion.objects.select_related("bot").in_bulk([row["opponent"] for row in rows])
    return [OpponentResult(versions[row["opponent"]], row["n"], row["mine"], row["theirs"], row["drawn"])
            for row in rows]


def dataset_games(*, preset: str | None = None, players: int | None = None, bot: Bot | None = None,
                  since: datetime | None = None, until: datetime | None = None, after: int = 0) -> QuerySet[Game]:
    """Finished games for a dataset (docs/datasets.md), oldest id first, so ``after`` (the last id a client
    holds) resumes a download where it stopped. With ``preset`` and ``players``, a ladder's rated games."""
    games = Game.objects.filter(pk__gt=after)
    if preset is not None and players is not None:
        games = games.filter(preset=preset, players=players, rated=True)
    if bot is not None:
        games = games.filter(pk__in=GameSeat.objects.filter(version__bot=bot).values("game"))
    if since is not None:
        games = games.filter(finished__gte=since)
    if until is not None:
        games = games.filter(finished__lt=until)
    return games.order_by("pk")


def dataset_seats(game_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Who sat where in each of ``game_ids``: ``{game: [{"bot": name, "version": number}, ...]}`` in seat order."""
    seats: dict[int, list[dict[str, Any]]] = {pk: [] for pk in game_ids}
    rows = (GameSeat.objects.filter(game_id__in=game_ids).order_by("game_id", "seat")
            .values_list("game_id", "version__bot__name", "version__number"))
    for game_id, bot, number in rows:
        seats[game_id].append({"bot": bot, "version": number})
    return seats
