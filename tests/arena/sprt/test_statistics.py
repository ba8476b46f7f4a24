"""A test reports what ``arena.ratings.sprt`` computes for its counts (docs/ratings.md section 10); the page
shows it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from arena.bots.models import BotVersion
from arena.ratings.sprt import elo_from_results, llr_logistic, sprt
from arena.sprt.models import StrengthTest
from arena.sprt.selectors import strength_test_data
from arena.sprt.services import strength_test_start
from arena.sprt.statistics import figures
from tests.arena.sprt.pairs import play_bins

pytestmark = pytest.mark.django_db


def with_counts(test: StrengthTest, counts: list[int], last_bin: int) -> StrengthTest:
    """The test after pairs ``counts`` minus one of ``last_bin`` are set, then that one is played through the hook."""
    before = list(counts)
    before[last_bin] -= 1
    StrengthTest.objects.filter(pk=test.pk).update(
        max_pairs=sum(counts) + 10, **{f"pairs_{i}": n for i, n in enumerate(before)}
    )
    test.refresh_from_db()
    return play_bins(test, [last_bin])


def page_text(test: StrengthTest) -> str:
    html = Client().get(f"/sprt/{test.pk}/").content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_fishtest_pentanomial_vector(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, elo0=-3, elo1=1)
    vector = [10789, 19328, 33806, 19402, 10543]
    test = with_counts(test, vector, 4)
    assert test.pentanomial == vector
    assert test.llr == pytest.approx(2.1311, abs=5e-5)  # docs/ratings.md section 10, fishtest's own case
    assert test.is_running  # below the upper bound of 2.944
    assert "2.131" in page_text(test)
    assert test.upper == pytest.approx(2.944, abs=5e-4)
    assert test.lower == pytest.approx(-2.944, abs=5e-4)


def test_the_page_reports_exactly_what_sprt_computes(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, elo0=0, elo1=30, alpha=0.05, beta=0.1)
    counts = [3, 7, 20, 9, 5]
    test = with_counts(test, counts, 4)
    expected = sprt(counts, 0, 30, alpha=0.05, beta=0.1)
    assert expected.decision is None
    assert test.llr == pytest.approx(expected.llr)
    assert (test.lower, test.upper) == pytest.approx((expected.lower, expected.upper))
    assert test.elo == pytest.approx(expected.elo)
    assert (test.elo_low, test.elo_high) == pytest.approx(expected.ci)
    assert test.los == pytest.approx(expected.los)
    assert test.estimate == "sequential"
    data = strength_test_data(test)
    text = page_text(test)
    assert f"{expected.llr:.3f}" in text
    assert data["elo_text"] == f"{expected.elo:+.1f}".replace("-", "−") and data["elo_text"] in text
    assert data["interval_text"] in text and f"{expected.ci[0]:+.1f}".replace("-", "−") in data["interval_text"]
    assert f"{expected.los:.1%}" in text


def test_the_trinomial_model_counts_games(alice: User, mine: tuple[BotVersion, BotVersion]) -> None:
    b, a = mine
    test = strength_test_start(author=alice, version_b=b, version_a=a, model=StrengthTest.Model.TRINOMIAL)
    test = play_bins(test, [4, 3, 2, 1, 4, 2])
    assert test.trinomial == [test.game_losses, test.game_draws, test.game_wins] == [3, 2, 7]
    assert test.llr == pytest.approx(llr_logistic([3, 2, 7], 0, 30))


def test_pairs_that_barely_vary_fall_back_to_the_fixed_length_estimate(
    alice: User, mine: tuple[BotVersion, BotVersion]
) -> None:
    b, a = mine
    test = play_bins(strength_test_start(author=alice, version_b=b, version_a=a), [2, 2, 2, 2, 2])
    sequential = sprt([0, 0, 5, 0, 0], 0, 30)
    assert sequential.ci[0] == sequential.ci[1]  # the sequential search has nothing to work with
    fixed = elo_from_results([0, 0, 5, 0, 0])
    assert test.estimate == "fixed"
    assert test.llr == pytest.approx(sequential.llr)
    assert test.elo == pytest.approx(fixed.elo)
    assert (test.elo_low, test.elo_high) == pytest.approx((fixed.elo - fixed.half_width, fixed.elo + fixed.half_width))
    assert "as for a fixed-length match" in page_text(test)


def test_figures_keep_the_sequential_estimate_when_it_is_sound() -> None:
    update = figures([1, 2, 5, 2, 1], 0, 30, 0.05, 0.05)
    expected = sprt([1, 2, 5, 2, 1], 0, 30)
    assert update.estimate == "sequential"
    assert (update.elo, update.elo_low, update.elo_high, update.los) == pytest.approx(
        (expected.elo, *expected.ci, expected.los)
    )
