"""Reads of the sprt app: tests, their pairs, the versions an author may test, and the page's words and figures."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from arena.bots.models import BotVersion
from arena.matches.models import Game, Match
from arena.ratings.sprt import ELO_LIMIT
from arena.sprt.models import PENTANOMIAL_LABELS, StrengthTest, StrengthTestPair
from arena.sprt.scoring import GameScore, game_score

ADMITTED = (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED)
"""Versions that passed admission (a retired one is still a fine baseline)."""


def strength_test_get(pk: int) -> StrengthTest:
    return get_object_or_404(
        StrengthTest.objects.select_related("author", "version_a__bot", "version_b__bot"), pk=pk
    )


def author_tests(user: AbstractBaseUser | AnonymousUser) -> QuerySet[StrengthTest]:
    """The author's tests, newest first."""
    return StrengthTest.objects.filter(author_id=user.pk).select_related("version_a__bot", "version_b__bot")


def strength_test_pairs(test: StrengthTest, limit: int = 50) -> list[StrengthTestPair]:
    """The latest pairs of the test with their matches (newest first)."""
    games = Game.objects.only("id", "match_id", "number").order_by("number")
    return list(
        test.pairs_played.select_related("match").prefetch_related(Prefetch("match__games", queryset=games))
        .order_by("-number")[:limit]
    )


def pair_game_scores(match: Match, version_b_id: int) -> list[GameScore]:
    """B's result in each stored game of a pair's match, read from the Game and GameSeat rows.

    Raises ``ValueError`` when B did not sit in a game (a match that is not the pair it claims to be).
    """
    scores: list[GameScore] = []
    for game in Game.objects.filter(match=match).defer("record").prefetch_related("seats").order_by("number"):
        b_seat = next((s.seat for s in game.seats.all() if s.version_id == version_b_id), None)
        if b_seat is None:
            raise ValueError(f"match {match.pk} game {game.number}: version {version_b_id} has no seat")
        scores.append(game_score(durak_seat=None if game.draw else game.durak_seat, b_seat=b_seat))
    return scores


def candidate_versions(user: AbstractBaseUser | AnonymousUser) -> QuerySet[BotVersion]:
    """What an author may test as B: their own admitted versions."""
    return (
        BotVersion.objects.filter(bot__owner_id=user.pk, status__in=ADMITTED)
        .select_related("bot").order_by("bot__name", "-number")
    )


def baseline_versions(user: AbstractBaseUser | AnonymousUser) -> QuerySet[BotVersion]:
    """What B may be measured against: the author's admitted versions and every other bot's active one."""
    return (
        BotVersion.objects.filter(
            Q(bot__owner_id=user.pk, status__in=ADMITTED) | Q(status=BotVersion.Status.ACTIVE)
        )
        .select_related("bot").order_by("bot__name", "-number")
    )


ESTIMATE_NOTES = {
    "sequential": gettext_lazy("Elo is median-unbiased and the interval allows for the test stopping early."),
    "fixed": gettext_lazy("Elo, interval and LOS as for a fixed-length match: the sequential estimate finds no value "
                          "for counts like these (pairs nearly all alike)."),
}
"""What the page says under the figures, by the estimate they come from (see ``arena.sprt.statistics``)."""


def _elo_text(elo: float) -> str:
    """An Elo figure as the page shows it; the estimate's search stops at ±ELO_LIMIT, which means "beyond"."""
    if elo >= ELO_LIMIT:
        return f"≥ +{ELO_LIMIT:.0f}"
    if elo <= -ELO_LIMIT:
        return f"≤ −{ELO_LIMIT:.0f}"
    return f"{elo:+.1f}".replace("-", "−")


def _bound(elo: float) -> str:
    return f"{elo:g}"


def verdict(test: StrengthTest) -> str:
    """The state of the test in plain words."""
    values = {
        "b": test.version_b.display, "a": test.version_a.display, "elo0": _bound(test.elo0), "elo1": _bound(test.elo1),
        "pairs": ngettext("%(count)s pair", "%(count)s pairs", test.pairs) % {"count": test.pairs},
        "alpha": f"{test.alpha:.0%}", "beta": f"{test.beta:.0%}", "upper": f"{test.upper:.2f}",
        "lower": f"{test.lower:.2f}", "note": test.note,
    }
    if test.status == StrengthTest.Status.ACCEPTED_H1:
        return _("%(b)s is stronger than %(a)s by at least %(elo1)s Elo (H1 accepted after %(pairs)s; a false alarm "
                 "has at most a %(alpha)s chance).") % values
    if test.status == StrengthTest.Status.ACCEPTED_H0:
        text = (_("%(b)s is not stronger than %(a)s") if test.elo0 <= 0
                else _("%(b)s is not more than %(elo0)s Elo stronger than %(a)s")) % values
        return _("%(verdict)s (H0 accepted after %(pairs)s; missing a gain of %(elo1)s Elo has at most a %(beta)s "
                 "chance).") % {**values, "verdict": text}
    if test.status == StrengthTest.Status.STOPPED:
        return _("No decision: %(note)s.") % values if test.note else _("No decision: stopped.")
    if test.status == StrengthTest.Status.FAILED:
        return _("The test failed: %(note)s.") % values
    return _("Running: %(pairs)s played. It stops when the LLR reaches %(upper)s (B is stronger by %(elo1)s Elo) or "
             "%(lower)s (not stronger than %(elo0)s).") % values


def strength_test_data(test: StrengthTest) -> dict[str, Any]:
    """Everything the live page shows and polls for, JSON-friendly."""
    has_figures = test.elo is not None and test.elo_low is not None and test.elo_high is not None
    return {
        "id": test.pk,
        "status": test.status,
        "status_text": test.get_status_display(),
        "running": test.is_running,
        "verdict": verdict(test),
        "pairs": test.pairs,
        "games": test.games,
        "max_pairs": test.max_pairs,
        "failed_matches": test.failed_matches,
        "pentanomial": test.pentanomial,
        "pentanomial_labels": list(PENTANOMIAL_LABELS),
        "games_won_drawn_lost": [test.game_wins, test.game_draws, test.game_losses],
        "llr": round(test.llr, 4),
        "lower": round(test.lower, 4),
        "upper": round(test.upper, 4),
        "elo0": test.elo0,
        "elo1": test.elo1,
        "elo": test.elo,
        "elo_low": test.elo_low,
        "elo_high": test.elo_high,
        "los": test.los,
        "estimate": test.estimate,
        "estimate_note": str(ESTIMATE_NOTES.get(test.estimate, "")),
        "elo_text": _elo_text(test.elo) if has_figures and test.elo is not None else "–",
        "interval_text": (_("%(low)s to %(high)s") % {"low": _elo_text(test.elo_low), "high": _elo_text(test.elo_high)}
                          if test.elo_low is not None and test.elo_high is not None else "–"),
        "los_text": f"{formats.number_format(round(100 * test.los, 1), 1)}%" if test.los is not None else "–",
        "history": test.history,
    }
