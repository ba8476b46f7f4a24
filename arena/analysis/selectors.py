"""What the pages show of analyses."""

from __future__ import annotations

from django.db.models import QuerySet

from arena.analysis.models import AnalysedSeat, GameAnalysis
from arena.bots.models import Bot
from arena.matches.models import Game, Match


def analysis_for_game(game: Game) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=game).first()


def analyses_for_match(match: Match) -> dict[int, GameAnalysis]:
    """Per game id, its analysis (games never queued are missing)."""
    return {a.game_id: a for a in GameAnalysis.objects.filter(game__match=match).defer("reviews")}


def costliest_games(bot: Bot, limit: int = 10) -> QuerySet[AnalysedSeat]:
    """The bot's analysed games in which its decisions gave away the most, costliest first."""
    return (AnalysedSeat.objects.filter(version__bot=bot, cost__gt=0)
            .select_related("analysis__game", "version").order_by("-cost", "-analysis__game_id")[:limit])
