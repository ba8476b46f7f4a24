"""Synthetic pairs for the strength-test tests: a pair's match ended as if a worker had played and stored it.

The rows are those ``match_store_result`` writes (a Game per seating, a GameSeat
per seat with its version), so the hook scores exactly what it would read after
a real match, without playing one.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, GameSeat, Match
from arena.sprt.models import StrengthTest, StrengthTestPair

Durak = str
"""Who is the durak of a game: "B", "A" or "draw"."""

BIN_GAMES: dict[int, tuple[Durak, Durak]] = {
    0: ("B", "B"),
    1: ("B", "draw"),
    2: ("A", "B"),
    3: ("A", "draw"),
    4: ("A", "A"),
}
"""A pair of games giving each pentanomial bin (B's score in half-points)."""


def make_versions(owner: User, name: str, statuses: list[BotVersion.Status]) -> list[BotVersion]:
    """A bot of ``owner`` with one version per status (v1, v2, ...), newest first."""
    bot = Bot.objects.create(owner=owner, name=name)
    versions = [
        BotVersion.objects.create(bot=bot, number=i + 1, label=str(i + 1), language="python", status=status,
                                  admitted=timezone.now() if status in ("active", "retired") else None)
        for i, status in enumerate(statuses)
    ]
    return versions[::-1]


def store_pair(match: Match, duraks: Sequence[Durak]) -> None:
    """Store the match's games: game ``r`` has the entries rotated by ``r`` (seat s holds entry (s + r) % 2)."""
    entries = list(match.entries.select_related("version").order_by("index"))
    now = timezone.now()
    for number, durak in enumerate(duraks):
        order = [(seat + number) % 2 for seat in range(2)]
        roles = ["B" if order[seat] == 0 else "A" for seat in range(2)]
        durak_seat = None if durak == "draw" else roles.index(durak)
        game = Game.objects.create(
            match=match, number=number, deal=0, rotation=number, preset=match.preset, players=2, rated=False,
            durak_seat=durak_seat, draw=durak_seat is None, reason="normal", record={}, finished=now,
        )
        for seat in range(2):
            GameSeat.objects.create(game=game, seat=seat, version=entries[order[seat]].version,
                                    durak=durak_seat == seat)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.DONE, finished=now)


def fail_pair(match: Match, error: str = "build: no bot.toml") -> None:
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FAILED, error=error, public_error=error,
                                             finished=timezone.now())


def playing(test: StrengthTest) -> list[StrengthTestPair]:
    """The test's pairs still waiting for their match, oldest first."""
    return list(test.pairs_played.filter(state=StrengthTestPair.State.PLAYING).select_related("match")
                .order_by("number"))


def play_bins(test: StrengthTest, bins: Sequence[int]) -> StrengthTest:
    """End the oldest playing pair with each bin in turn (the hook queues the next ones); the test, reloaded."""
    from arena.sprt.services import sprt_match_done

    for score in bins:
        pair = playing(test)[0]
        store_pair(pair.match, BIN_GAMES[score])
        sprt_match_done(pair.match_id)
    test.refresh_from_db()
    return test
