"""Writes of the sprt app: starting a strength test, counting its pairs as their matches end, stopping it.

A test keeps at most ``concurrency`` pairs (one match each) queued or playing.
When a pair's match ends, ``sprt_match_done`` (an ``ARENA_MATCH_DONE_HOOKS``
entry, called by the match task) locks the test row, counts the pair once,
recomputes the statistics with ``arena.ratings.sprt`` and either ends the test
or queues the next pair, all in one transaction: the queued match is enqueued
only once that commits, and a hook run twice for one match finds its pair
already counted.

Defaults, for Durak rather than chess. Bot versions here differ by tens to
hundreds of Elo (gentle vs random is several hundred, strong vs gentle over a
hundred), and a pair costs seconds of arena time, so fishtest's [0, 2]-Elo
bounds (100,000 games) would be absurd. H0: 0 against H1: 30 logistic Elo
(a 54 % expected score) with α = β = 0.05 decides a true 30-Elo gain, or its
absence, in about 150-600 pairs depending on how much the duplicate deal
cancels luck (pair-score variance 0.015-0.13 measured between reference bots),
and a big difference in a few dozen. The cap of 2,000 pairs bounds the cost of a
difference that sits between the bounds, where the test is slowest.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import MatchError, match_create
from arena.ops.redact import strip_host_paths
from arena.ratings.sprt import bounds
from arena.sprt.models import StrengthTest, StrengthTestPair
from arena.sprt.scoring import GameScore, pair_bin
from arena.sprt.selectors import ADMITTED, pair_game_scores
from arena.sprt.statistics import figures
from bots_sdk.engine import PRESETS, Rules

DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 30.0
DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05
DEFAULT_MAX_PAIRS = 2000
DEFAULT_CONCURRENCY = 2
"""Two pairs in flight keep two workers busy without letting one author's test crowd out the ladder."""

ELO_RANGE = 800.0
"""Bounds beyond ±800 Elo (a 99 % score) test nothing a page could show."""
MAX_PAIRS_LIMIT = 20000
MAX_CONCURRENCY = 8
MAX_FAILURES_IN_ROW = 5
"""A version whose matches keep failing (a build that broke, a host without a sandbox) ends the test, not loops."""


def max_running() -> int:
    """Tests one author may have running at once (``ARENA_SPRT_MAX_RUNNING``, default 3): they share the workers."""
    return int(getattr(settings, "ARENA_SPRT_MAX_RUNNING", 3))


class StrengthTestError(ValueError):
    """A test that cannot be started or stopped as asked; the message says why."""


def _admitted(version: BotVersion) -> bool:
    return version.status in ADMITTED or bool(version.reference)


def _check(
    *, author: User, version_b: BotVersion, version_a: BotVersion, preset: str, elo0: float,
    elo1: float, alpha: float, beta: float, model: str, max_pairs: int, concurrency: int,
) -> None:
    if version_b.bot.owner_id != author.pk:
        raise StrengthTestError(f"B must be one of your versions; {version_b.display} belongs to another author")
    if version_a.pk == version_b.pk:
        raise StrengthTestError(f"A and B are the same version ({version_b.display}): pick two different ones")
    for role, version in (("B", version_b), ("A", version_a)):
        if not _admitted(version):
            raise StrengthTestError(
                f"{role}: {version.display} is {version.get_status_display()}, not admitted: "
                "only versions that passed admission can play"
            )
    if preset not in PRESETS:
        raise StrengthTestError(f"preset {preset!r} is not one of {', '.join(PRESETS)}")
    try:
        Rules.preset(preset, players=2)
    except ValueError as error:
        raise StrengthTestError(f"preset {preset!r} has no 2-player table: {error}") from None
    if not all(math.isfinite(x) for x in (elo0, elo1, alpha, beta)):
        raise StrengthTestError("bounds and error rates must be numbers")
    if not elo0 < elo1:
        raise StrengthTestError(f"bad bounds: elo0 ({elo0:g}) must be below elo1 ({elo1:g})")
    if elo0 < -ELO_RANGE or elo1 > ELO_RANGE:
        raise StrengthTestError(f"bad bounds: keep elo0 and elo1 within ±{ELO_RANGE:.0f} Elo")
    for name, rate in (("alpha", alpha), ("beta", beta)):
        if not 0 < rate <= 0.5:
            raise StrengthTestError(f"bad error rate: {name} ({rate:g}) must be above 0 and at most 0.5")
    if model not in StrengthTest.Model.values:
        raise StrengthTestError(f"model {model!r} is not one of {', '.join(StrengthTest.Model.values)}")
    if not 1 <= max_pairs <= MAX_PAIRS_LIMIT:
        raise StrengthTestError(f"max_pairs: {max_pairs} is not between 1 and {MAX_PAIRS_LIMIT}")
    if not 1 <= concurrency <= MAX_CONCURRENCY:
        raise StrengthTestError(f"pairs in flight: {concurrency} is not between 1 and {MAX_CONCURRENCY}")


def strength_test_start(
    *, author: User, version_b: BotVersion, version_a: BotVersion, preset: str = "classic",
    elo0: float = DEFAULT_ELO0, elo1: float = DEFAULT_ELO1, alpha: float = DEFAULT_ALPHA,
    beta: float = DEFAULT_BETA, model: str = StrengthTest.Model.PENTANOMIAL, max_pairs: int = DEFAULT_MAX_PAIRS,
    concurrency: int = DEFAULT_CONCURRENCY,
) -> StrengthTest:
    """Start testing whether ``version_b`` (the author's) is stronger than ``version_a``, and queue its first pairs."""
    _check(author=author, version_b=version_b, version_a=version_a, preset=preset, elo0=elo0, elo1=elo1,
           alpha=alpha, beta=beta, model=model, max_pairs=max_pairs, concurrency=concurrency)
    lower, upper = bounds(alpha, beta)
    with transaction.atomic():
        running = StrengthTest.objects.filter(author_id=author.pk, status=StrengthTest.Status.RUNNING).count()
        if running >= max_running():
            raise StrengthTestError(
                f"you have {running} tests running (at most {max_running()}): wait for one or stop it"
            )
        test = StrengthTest.objects.create(
            author_id=author.pk, version_b=version_b, version_a=version_a, preset=preset, elo0=elo0, elo1=elo1,
            alpha=alpha, beta=beta, model=model, max_pairs=max_pairs, concurrency=concurrency,
            lower=lower, upper=upper, history=[[0, 0.0]],
        )
        try:
            _queue_pairs(test)
        except MatchError as error:
            raise StrengthTestError(f"cannot queue a match: {error}") from None
    return test


def _queue_pairs(test: StrengthTest) -> int:
    """Top the test up to ``concurrency`` pairs in flight, never past ``max_pairs``; returns how many were queued."""
    in_flight = test.pairs_played.filter(state=StrengthTestPair.State.PLAYING).count()
    room = min(test.concurrency - in_flight, test.max_pairs - test.pairs - in_flight)
    number = test.pairs_played.aggregate(last=Max("number"))["last"] or 0
    versions = [test.version_b, test.version_a]
    for _ in range(max(room, 0)):
        number += 1
        match = match_create(
            kind=Match.Kind.SPRT, versions=versions, preset=test.preset, deals=1, rated=False,
            requested_by=test.author,
        )
        StrengthTestPair.objects.create(test=test, match=match, number=number)
    return max(room, 0)


def _finish(test: StrengthTest, status: StrengthTest.Status, note: str = "") -> None:
    test.status = status
    test.note = note[:500]
    test.finished = timezone.now()


def _count(test: StrengthTest, score: int, games: list[int]) -> None:
    """Add one pair (its bin and its two games, each 0 loss, 1 draw, 2 win) and recompute the statistics."""
    field = f"pairs_{score}"
    setattr(test, field, getattr(test, field) + 1)
    test.game_losses += games.count(0)
    test.game_draws += games.count(1)
    test.game_wins += games.count(2)
    results = test.pentanomial if test.model == StrengthTest.Model.PENTANOMIAL else test.trinomial
    update = figures(results, test.elo0, test.elo1, test.alpha, test.beta)
    test.llr, test.lower, test.upper = update.llr, update.lower, update.upper
    test.elo, test.elo_low, test.elo_high, test.los = update.elo, update.elo_low, update.elo_high, update.los
    test.estimate = update.estimate
    test.history = [*test.history, [test.pairs, round(update.llr, 4)]]
    if update.decision == "H1":
        _finish(test, StrengthTest.Status.ACCEPTED_H1)
    elif update.decision == "H0":
        _finish(test, StrengthTest.Status.ACCEPTED_H0)
    elif test.pairs >= test.max_pairs:
        _finish(test, StrengthTest.Status.STOPPED, f"the cap of {test.max_pairs} pairs was reached first")


def sprt_match_done(match_id: int) -> None:
    """Called after a match is stored or has failed (ARENA_MATCH_DONE_HOOKS): count it if it is a test's pair.

    Idempotent: the pair's state is read and written under the test row's lock,
    so a second call for the same match changes nothing. A pair that ends after
    its test has ended is kept (state ``late``) but not counted: the decision
    was made on the counts it shows.
    """
    test_id = StrengthTestPair.objects.filter(match_id=match_id).values_list("test_id", flat=True).first()
    if test_id is None:
        return
    with transaction.atomic():
        test = StrengthTest.objects.select_for_update().get(pk=test_id)
        pair = StrengthTestPair.objects.select_related("match").get(match_id=match_id)
        if pair.state != StrengthTestPair.State.PLAYING:
            return
        match = pair.match
        error = ""
        scores: list[GameScore] = []
        if match.status == Match.Status.DONE:
            try:
                scores = pair_game_scores(match, test.version_b_id)
                pair.score = pair_bin(scores)
            except ValueError as problem:
                error = f"match {match.pk}: {problem}"
        elif match.status == Match.Status.FAILED:
            error = f"match {match.pk} failed: {strip_host_paths(match.error) or 'no reason given'}"  # public page
        else:
            return  # not over yet: a hook called early; the real call comes when it ends
        pair.ended = timezone.now()
        if not test.is_running:
            pair.state = StrengthTestPair.State.LATE if not error else StrengthTestPair.State.FAILED
        elif error:
            pair.state = StrengthTestPair.State.FAILED
            test.failed_matches += 1
            test.failures_in_row += 1
            if test.failures_in_row >= MAX_FAILURES_IN_ROW:
                _finish(test, StrengthTest.Status.FAILED, f"{test.failures_in_row} matches failed in a row; the last: "
                        f"{error}")
        else:
            assert pair.score is not None
            pair.state = StrengthTestPair.State.COUNTED
            test.failures_in_row = 0
            _count(test, pair.score, [s.value for s in scores])
        pair.save(update_fields=["state", "score", "ended"])
        if test.is_running:
            try:
                _queue_pairs(test)
            except MatchError as problem:  # a version deleted or a preset withdrawn since the start
                _finish(test, StrengthTest.Status.FAILED, f"cannot queue the next pair: {problem}")
        test.save()


def strength_test_stop(*, test: StrengthTest, user: User) -> StrengthTest:
    """The author ends a running test before a decision; pairs still playing finish but are not counted."""
    if test.author_id != user.pk:
        raise StrengthTestError("only the author of a test can stop it")
    with transaction.atomic():
        locked = StrengthTest.objects.select_for_update().get(pk=test.pk)
        if not locked.is_running:
            raise StrengthTestError(f"the test has already ended ({locked.get_status_display()})")
        pairs = f"{locked.pairs} pair{'' if locked.pairs == 1 else 's'}"
        _finish(locked, StrengthTest.Status.STOPPED, f"stopped by its author after {pairs}")
        locked.save()
    return locked
