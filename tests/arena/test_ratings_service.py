"""The ladder's ratings: the per-game K update between fits, and the batch fit that replaces it."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Game, GameSeat, Match
from arena.ratings import maths
from arena.ratings.models import Ladder, Rating, RatingPoint
from arena.ratings.services import ladder_for, ratings_apply_games, ratings_refit

pytestmark = pytest.mark.django_db


def versions(n: int) -> list[BotVersion]:
    owner = User.objects.create_user("owner")
    return [BotVersion.objects.create(bot=Bot.objects.create(owner=owner, name=f"b{i}"), number=1, label="1",
                                      language="python", status=BotVersion.Status.ACTIVE) for i in range(n)]


def store_games(tables: Sequence[tuple[list[BotVersion], int | None]], rated: bool = True) -> None:
    match = Match.objects.create(kind="ladder", preset="classic", players=len(tables[0][0]), deals=len(tables),
                                 seed="s", rated=rated, move_s=1, bank_s=10, start_s=10)
    games, seats = [], []
    for number, (table, durak) in enumerate(tables):
        game = Game.objects.create(
            match=match, number=number, deal=number, rotation=0, preset="classic", players=len(table), rated=rated,
            durak_seat=durak, draw=durak is None, reason="normal", record={}, finished=timezone.now())
        games.append(game)
        seats += [GameSeat.objects.create(game=game, seat=s, version=v, durak=durak == s) for s, v in enumerate(table)]
    ratings_apply_games(games=games, seats=seats)


def test_one_game_moves_ratings_by_the_elo_update() -> None:
    a, b = versions(2)
    ladder = ladder_for("classic", 2)
    Rating.objects.create(ladder=ladder, version=a, rating=1500, se=100, games=40, provisional=False)
    Rating.objects.create(ladder=ladder, version=b, rating=1700, se=100, games=40, provisional=False)
    store_games([([a, b], 1)])  # a (1500) beats b (1700): docs/ratings.md section 10's vector, K = 32
    assert Rating.objects.get(version=a).rating == pytest.approx(1524.31, abs=0.01)
    assert Rating.objects.get(version=b).rating == pytest.approx(1675.69, abs=0.01)
    assert Rating.objects.get(version=a).se < 100  # the game's information narrows the interval


def test_four_new_bots_the_durak_loses_32_each_safe_bot_gains_a_third_of_it_at_k40() -> None:
    table = versions(4)
    store_games([(table, 2)])
    moved = [Rating.objects.get(version=v).rating - 1500 for v in table]
    assert moved == pytest.approx([10, 10, -30, 10])  # provisional K = 40: -40 * 3/4 and +40 * 1/4


def test_draws_and_unrated_games_leave_ratings_alone() -> None:
    a, b = versions(2)
    store_games([([a, b], None)])
    store_games([([a, b], 0)], rated=False)
    assert not Rating.objects.filter(games__gt=0).exists()
    assert not RatingPoint.objects.exists()


def test_the_batch_fit_equals_the_maximum_likelihood_fit_of_every_rated_game() -> None:
    bots = versions(3)
    tables = []
    for i, order in zip(range(60), itertools.cycle(itertools.permutations(bots))):
        durak = [0, 1, 2, 2, 2, 1][i % 6]  # bot in seat 2 loses most, then seat 1
        tables.append((list(order), durak))
    store_games(tables)
    ladder = Ladder.objects.get(preset="classic", players=3)
    assert ratings_refit(ladder) == 60
    index = {v.pk: i for i, v in enumerate(bots)}
    expected = maths.fit(
        maths.GameSet.from_tables([[index[v.pk] for v in t] for t, _ in tables], [d for _, d in tables], 3),
        prior_sd=350.0, prior_mean=1500.0)
    for version in bots:
        row = Rating.objects.get(version=version, ladder=ladder)
        assert row.rating == pytest.approx(float(expected.ratings[index[version.pk]]), abs=1e-6)
        assert row.se == pytest.approx(float(expected.se[index[version.pk]]), abs=1e-6)
        assert row.games == 60 and not row.provisional  # 30+ games and an interval within ±110
    assert ladder.ratings.count() == 3
    assert RatingPoint.objects.filter(source=RatingPoint.Source.FIT).count() == 3
    assert Ladder.objects.get(pk=ladder.pk).fitted is not None


def test_the_periodic_task_refits_every_ladder() -> None:
    from arena.ratings.tasks import refit_ladders

    a, b = versions(2)
    store_games([([a, b], 1), ([b, a], 1), ([a, b], 0)])
    assert refit_ladders.apply().get() == {"classic-2": 3}
    assert Ladder.objects.get(preset="classic", players=2).fit_games == 3
