"""What the REST API sends and takes (django-ninja schemas; the OpenAPI docs at /api/docs come from these)."""

from __future__ import annotations

from datetime import datetime

from ninja import Field, Schema


class ErrorOut(Schema):
    detail: str


class AboutOut(Schema):
    name: str
    version: str
    """The arena's own release (``durak --version`` and the site's footer say the same)."""
    record_format: str


class LimitsOut(Schema):
    upload_bytes: int
    upload_limit: str
    """The same limit as the submit form states it (``5 MB``)."""


class VersionOut(Schema):
    id: int
    bot: str
    number: int
    label: str
    language: str
    status: str
    error: str = ""
    """Why the build or admission failed; shown to the bot's owner only."""
    created: datetime
    admitted: datetime | None
    url: str


class RatingOut(Schema):
    ladder: str
    rating: float
    low: float
    high: float
    games: int
    provisional: bool


class BotOut(Schema):
    name: str
    author: str
    language: str
    """The ``language`` of its latest version's ``bot.toml`` (``python``, ``typescript``...; ``reference``)."""
    description: str
    url: str


class BotDetailOut(BotOut):
    versions: list[VersionOut]
    ratings: list[RatingOut]


class StandingOut(Schema):
    rank: int
    """Established ratings rank first; a provisional one (``provisional``) ranks after them."""
    bot: str
    version: int
    language: str
    author: str
    rating: float
    low: float
    high: float
    games: int
    provisional: bool


class LadderOut(Schema):
    slug: str
    preset: str
    players: int
    standings: list[StandingOut]


class ChallengeIn(Schema):
    bot: str
    """One of your bots; its active version plays."""
    opponents: list[str]
    """Names of active bots (1 to 5), one per other seat."""
    preset: str = "classic"


class GameOut(Schema):
    id: int
    number: int
    durak_seat: int | None
    losers: list[int] | None = Field(
        None, description="In a team game: every seat of the losing team (empty for a draw); null otherwise.")
    draw: bool
    reason: str
    offender_seat: int | None
    detail: str
    seats: list[str]
    url: str
    record_url: str


class EntryOut(Schema):
    bot: str
    version: int
    games: int
    duraks: int
    faults: int


class MatchOut(Schema):
    id: int
    kind: str
    status: str
    preset: str
    players: int
    deals: int
    rated: bool
    created: datetime
    finished: datetime | None
    error: str
    entries: list[EntryOut]
    games: list[GameOut]
    url: str
