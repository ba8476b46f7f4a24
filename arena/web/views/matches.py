"""Match pages: what was played, how each game ended and why, and how fast each bot answered.

Under a team preset (``pagat-pairs``, ``pagat-trios``) a bot version plays every
seat of its team and the teams swap seats between rotations, so a game's seat
list alone does not say who played with whom: the page names each game's teams
(letter, seats, version) and which team lost, with the same letters as the
replay viewer (team A is always the team of seat 0).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import pgettext

from arena.analysis.models import GameAnalysis
from arena.analysis.selectors import analyses_for_match
from arena.bots.models import BotVersion
from arena.matches.models import Game, GameSeat, Match
from arena.matches.replay import TEAM_LETTERS, team_label
from arena.matches.selectors import match_games, match_get, match_latency
from arena.ops.redact import error_for
from bots_sdk.engine import DurakError, Rules

Layout = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class TeamSide:
    """One team of one game as the pages show it."""

    index: int
    letter: str
    label: str
    """Its seats, ``"0+2"``."""
    seats: tuple[GameSeat, ...]
    versions: tuple[BotVersion, ...]
    """Who played its seats: in the arena one version, unless a game was stored otherwise."""
    lost: bool

    @property
    def names(self) -> str:
        return " / ".join(version.bot.name for version in self.versions)


@dataclass(frozen=True)
class GameRow:
    game: Game
    sides: list[TeamSide]
    """The game's teams; empty in individual play."""
    analysis: GameAnalysis | None = None


def team_layout(preset: str, players: int) -> Layout | None:
    """The teams of ``preset`` at a table of ``players`` (``None``: everyone for themselves, or unknown)."""
    try:
        return Rules.preset(preset, players=players).teams
    except DurakError:
        return None


def game_sides(game: Game, layout: Layout | None) -> list[TeamSide]:
    """``game``'s teams from its stored seats (``GameSeat.durak`` is set on every seat of the losing team)."""
    seats = {seat.seat: seat for seat in game.seats.all()}
    if layout is None or any(s not in seats for team in layout for s in team):
        return []
    return [
        TeamSide(
            index=index, letter=TEAM_LETTERS[index], label=team_label(team), seats=tuple(seats[s] for s in team),
            versions=tuple({seats[s].version.pk: seats[s].version for s in team}.values()),
            lost=any(seats[s].durak for s in team),
        )
        for index, team in enumerate(layout)
    ]


def match_list(request: HttpRequest) -> HttpResponse:
    matches = Match.objects.prefetch_related("entries__version__bot").order_by("-created")
    page = Paginator(matches, 30).get_page(request.GET.get("page"))
    return render(request, "web/match_list.html", {"page": page})


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_get(pk)
    layout = team_layout(match.preset, match.players)
    analyses = analyses_for_match(match)
    rows = [GameRow(game, game_sides(game, layout), analyses.get(game.pk)) for game in match_games(match)]
    # Per version, the seats it played as a team (they change with the rotations).
    played: dict[int, list[str]] = {}
    for row in rows:
        for side in row.sides:
            for version in side.versions:
                labels = played.setdefault(version.pk, [])
                if side.label not in labels:
                    labels.append(side.label)
    entries = match.entries.all()
    return render(request, "web/match.html", {
        "match": match,
        "entries": [(entry, pgettext("seats", " or ").join(played.get(entry.version_id, []))) for entry in entries],
        "rows": rows, "latency": match_latency(match),
        "error": error_for(match.error, request.user, [entry.version.bot.owner_id for entry in entries]),
        "layout": pgettext("teams", " vs ").join(map(team_label, layout)) if layout else "",
        "analysing": any(a.status in (GameAnalysis.Status.QUEUED, GameAnalysis.Status.RUNNING)
                         for a in analyses.values()),
        "unanalysed": match.status == Match.Status.DONE and any(
            row.analysis is None or row.analysis.status == GameAnalysis.Status.FAILED for row in rows),
    })
