"""Starting a test says clearly what is wrong: not your version, the same version, not admitted, bad bounds."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from arena.bots.models import BotVersion
from arena.sprt.models import StrengthTest
from arena.sprt.services import StrengthTestError, strength_test_start
from tests.arena.sprt.pairs import make_versions

pytestmark = pytest.mark.django_db


def start(author: User, b: BotVersion, a: BotVersion, **options: Any) -> StrengthTest:
    return strength_test_start(author=author, version_b=b, version_a=a, **options)


def test_b_must_be_yours(alice: User, bob: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    with pytest.raises(StrengthTestError, match="B must be one of your versions; mybot v2 belongs to another"):
        start(bob, b, a)


def test_a_and_b_must_differ(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, _ = mine
    with pytest.raises(StrengthTestError, match=r"same version \(mybot v2\)"):
        start(alice, b, b)


def test_both_must_be_admitted(alice: User, bob: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    pending = make_versions(alice, "newbot", [BotVersion.Status.PENDING])[0]
    with pytest.raises(StrengthTestError, match="B: newbot v1 is waiting for a worker, not admitted"):
        start(alice, pending, a)
    rejected = make_versions(bob, "bobbot", [BotVersion.Status.REJECTED])[0]
    with pytest.raises(StrengthTestError, match="A: bobbot v1 is rejected, not admitted"):
        start(alice, b, rejected)


def test_another_authors_active_or_retired_version_and_references_are_fine(
    alice: User, bob: User, mine: tuple[BotVersion, BotVersion], references: dict[str, BotVersion]
) -> None:
    b, _ = mine
    active, retired = make_versions(bob, "bobbot", [BotVersion.Status.RETIRED, BotVersion.Status.ACTIVE])
    for baseline in (active, retired, references["random"]):
        assert start(alice, b, baseline, concurrency=1).is_running
        StrengthTest.objects.update(status=StrengthTest.Status.STOPPED)


@pytest.mark.parametrize(("options", "message"), [
    ({"elo0": 10, "elo1": 10}, r"bad bounds: elo0 \(10\) must be below elo1 \(10\)"),
    ({"elo0": 30, "elo1": 0}, "must be below"),
    ({"elo0": 0, "elo1": 900}, "within ±800"),
    ({"elo1": float("nan")}, "must be numbers"),
    ({"alpha": 0}, r"bad error rate: alpha \(0\)"),
    ({"beta": 0.7}, r"bad error rate: beta \(0.7\)"),
    ({"max_pairs": 0}, "max_pairs: 0"),
    ({"concurrency": 50}, "pairs in flight: 50"),
    ({"preset": "nonsense"}, "preset 'nonsense' is not one of"),
    ({"model": "normalized"}, "model 'normalized'"),
])
def test_bad_settings_are_refused(
    alice: User, mine: tuple[BotVersion, BotVersion], options: dict[str, Any], message: str
) -> None:
    b, a = mine
    with pytest.raises(StrengthTestError, match=message):
        start(alice, b, a, **options)
    assert not StrengthTest.objects.exists()


@override_settings(ARENA_SPRT_MAX_RUNNING=2)
def test_an_author_runs_a_few_tests_at_once(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    start(alice, b, a)
    start(alice, b, a)
    with pytest.raises(StrengthTestError, match=r"you have 2 tests running \(at most 2\)"):
        start(alice, b, a)
