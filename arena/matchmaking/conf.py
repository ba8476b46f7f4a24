"""The matchmaker's settings, read from Django settings with these defaults (``settings.py`` need not name them).

- ``ARENA_MATCHMAKING_LADDERS``: the ladders kept busy and their share of the ladder matches, as a mapping
  ``{"classic-2": 4, ...}`` or the text ``"classic-2:4,classic-3:2"`` (what an environment variable holds).
- ``ARENA_MATCHMAKING_QUEUE_DEPTH``: at most this many ladder matches queued or running at once; twice the
  referee processes, so a worker that finishes a match finds the next one waiting, while an admission, a
  challenge or a tournament match queued behind them waits about one match length. The pass runs once a
  minute, so this also caps ladder matches at about this many a minute: on an arena whose matches take
  well under half a minute, raise it (with 30-second matches, 2x left the workers idle 8 % of the time).
- ``ARENA_MATCHMAKING_DEALS``: duplicate deals per ladder match (each is played in every seat rotation, so one
  deal is a 2-player match of 2 games, a 4-player one of 4). One: the smallest set that cancels the deal's
  luck, and short matches let the matchmaker re-mix the tables often (tests/bench/matchmaking.py, 200 bots on
  4 workers: with 1 deal no bot waited 30 minutes for a game; with 2, every bot now and then did, as each
  bot's turn came in longer, rarer matches).
- ``ARENA_MATCHMAKING_STARVED_MINUTES``: an active version without a rated game for longer than this is
  reported (log warning, mark on the activity page).

A value that does not parse raises ``ImproperlyConfigured`` naming the setting, as the rest of the settings do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from bots_sdk.engine import Rules

LADDERS = "ARENA_MATCHMAKING_LADDERS"
QUEUE_DEPTH = "ARENA_MATCHMAKING_QUEUE_DEPTH"
DEALS = "ARENA_MATCHMAKING_DEALS"
STARVED_MINUTES = "ARENA_MATCHMAKING_STARVED_MINUTES"

DEFAULT_LADDERS: dict[str, float] = {
    "classic-2": 4.0, "classic-3": 2.0, "classic-4": 2.0, "transfer-2": 2.0, "pagat-pairs-4": 1.0,
}
DEFAULT_QUEUE_DEPTH = 8
"""Twice the four referee processes a small arena runs."""
DEFAULT_DEALS = 1
DEFAULT_STARVED_MINUTES = 30.0


@dataclass(frozen=True)
class LadderShare:
    preset: str
    players: int
    weight: float

    @property
    def slug(self) -> str:
        return f"{self.preset}-{self.players}"

    @property
    def sides(self) -> int:
        """Versions at one table: one a seat, or on a team ladder one a team."""
        return Rules.preset(self.preset, self.players).sides


@dataclass(frozen=True)
class Config:
    ladders: tuple[LadderShare, ...]
    queue_depth: int
    deals: int
    starved_after: timedelta


def _ladders(raw: object) -> tuple[LadderShare, ...]:
    items: list[tuple[str, str]]
    if isinstance(raw, str):
        items = []
        for part in filter(None, (p.strip() for p in raw.split(","))):
            slug, _, weight = part.partition(":")
            items.append((slug.strip(), weight.strip() or "1"))
    elif isinstance(raw, Mapping):
        items = [(str(k), str(v)) for k, v in raw.items()]
    else:
        raise ImproperlyConfigured(f"{LADDERS}: a mapping or 'preset-players:weight,...', not {type(raw).__name__}")
    shares: list[LadderShare] = []
    for slug, weight in items:
        preset, _, players = slug.rpartition("-")
        try:
            share = LadderShare(preset, int(players), float(weight))
            Rules.preset(share.preset, players=share.players)
        except (ValueError, TypeError) as error:
            raise ImproperlyConfigured(f"{LADDERS}: {slug!r}: {error}") from None
        if share.weight < 0:
            raise ImproperlyConfigured(f"{LADDERS}: {slug!r}: weight {share.weight} is negative")
        if share.weight > 0:
            shares.append(share)
    return tuple(shares)


def _positive_int(name: str, default: int) -> int:
    value = getattr(settings, name, default)
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip().isdigit():
        raise ImproperlyConfigured(f"{name}: {value!r} is not a whole number")
    if int(value) < 1:
        raise ImproperlyConfigured(f"{name}: {value!r} must be at least 1")
    return int(value)


def matchmaking_config() -> Config:
    """The settings as read now (tests override them with ``override_settings``)."""
    minutes = getattr(settings, STARVED_MINUTES, DEFAULT_STARVED_MINUTES)
    try:
        starved = timedelta(minutes=float(minutes))
    except (TypeError, ValueError):
        raise ImproperlyConfigured(f"{STARVED_MINUTES}: {minutes!r} is not a number of minutes") from None
    return Config(
        ladders=_ladders(getattr(settings, LADDERS, DEFAULT_LADDERS)),
        queue_depth=_positive_int(QUEUE_DEPTH, DEFAULT_QUEUE_DEPTH),
        deals=min(500, _positive_int(DEALS, DEFAULT_DEALS)),
        starved_after=starved,
    )
