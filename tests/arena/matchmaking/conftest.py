"""Fixtures of the matchmaking tests: an arena of authors and rated bots made in bulk, and finishing matches.

Nothing here plays a game: the tests use the plain ``db`` fixture, whose transaction never commits, so the
matches a pass creates are never enqueued and stay queued until a test marks them done.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Match, MatchEntry
from arena.matchmaking.conf import DEFAULT_LADDERS
from arena.matchmaking.models import LadderSlot, VersionPlay
from arena.matchmaking.selectors import author_of
from arena.ratings.models import Ladder, Rating
from arena.ratings.services import ladder_for

RatingSpec = tuple[float, float, int]
"""(rating, se, games) on one ladder."""


@dataclass
class ArenaMaker:
    """Makes authors and active versions with ratings and a matchmaking history, in bulk."""

    now: datetime
    names: Iterator[int] = field(default_factory=itertools.count)

    def author(self, name: str | None = None) -> User:
        return User.objects.create(username=name or f"author{next(self.names)}", password="!")  # no hashing: fast

    def versions(
        self, specs: Sequence[tuple[User, Mapping[str, RatingSpec]]], *, admitted_ago: timedelta = timedelta(days=3),
        played_ago: timedelta | None = timedelta(minutes=5), scheduled: int = 10,
    ) -> list[BotVersion]:
        """One active bot version per spec, owned by its user, rated as given; with ``scheduled`` ladder matches
        on each rated ladder (0: new to every ladder) and a last rated game ``played_ago`` (None: never)."""
        bots = Bot.objects.bulk_create(Bot(owner=owner, name=f"bot{next(self.names)}") for owner, _ in specs)
        versions = BotVersion.objects.bulk_create(
            BotVersion(bot=bot, number=1, label="1", language="python", status=BotVersion.Status.ACTIVE,
                       admitted=self.now - admitted_ago) for bot in bots
        )
        ratings: list[Rating] = []
        slots: list[LadderSlot] = []
        ladders: dict[str, Ladder] = {}
        for version, (_, spec) in zip(versions, specs):
            for slug, (rating, se, games) in spec.items():
                if slug not in ladders:
                    preset, _, players = slug.rpartition("-")
                    ladders[slug] = ladder_for(preset, int(players))
                ladder = ladders[slug]
                ratings.append(Rating(ladder=ladder, version=version, rating=rating, se=se, games=games,
                                      provisional=games < 30))
                if scheduled:
                    slots.append(LadderSlot(ladder=ladder, version=version, matches=scheduled,
                                            last_scheduled=self.now - (played_ago or admitted_ago)))
        Rating.objects.bulk_create(ratings)
        LadderSlot.objects.bulk_create(slots)
        if played_ago is not None:
            VersionPlay.objects.bulk_create(VersionPlay(version=v, last_played=self.now - played_ago)
                                            for v in versions)
        for version in versions:
            version.bot = next(b for b in bots if b.pk == version.bot_id)
        return versions

    def random_arena(self, rng: random.Random, authors: int, bots: int,
                     ladders: Iterable[str] = DEFAULT_LADDERS) -> list[BotVersion]:
        """``bots`` versions spread unevenly over ``authors`` authors, ratings 1000-2000 on every ladder."""
        users = [self.author() for _ in range(authors)]
        owners = users + [rng.choice(users[: max(1, authors // 3)]) for _ in range(bots - authors)]
        specs = [(owner, {slug: (rng.uniform(1000, 2000), rng.uniform(30, 200), rng.randrange(0, 500))
                          for slug in ladders}) for owner in owners]
        return self.versions(specs, played_ago=timedelta(minutes=rng.randrange(1, 60)))


@pytest.fixture
def arena(db: None) -> ArenaMaker:
    return ArenaMaker(now=timezone.now())


def finish(matches: Iterable[Match], at: datetime | None = None) -> None:
    """The matches are over (no games stored: the matchmaker reads only the match's status and time)."""
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(status=Match.Status.DONE,
                                                                finished=at or timezone.now())


def finish_all(at: datetime | None = None) -> None:
    finish(Match.objects.filter(kind=Match.Kind.LADDER, status__in=(Match.Status.QUEUED, Match.Status.RUNNING)), at)


def seated(match: Match) -> list[BotVersion]:
    return [entry.version for entry in MatchEntry.objects.filter(match=match).select_related("version__bot")
            .order_by("index")]


def authors_at(match: Match) -> list[str]:
    return [author_of(version) for version in seated(match)]
