"""A pair is scored from B's point of view into the pentanomial bins 0-4, whichever seat B held."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_create
from arena.sprt.scoring import GameScore, game_score, pair_bin
from arena.sprt.selectors import pair_game_scores
from tests.arena.sprt.pairs import BIN_GAMES, store_pair


def test_a_game_is_a_win_when_a_is_the_durak_whichever_seat_b_holds() -> None:
    assert game_score(durak_seat=1, b_seat=0) is GameScore.WIN
    assert game_score(durak_seat=0, b_seat=1) is GameScore.WIN
    assert game_score(durak_seat=0, b_seat=0) is GameScore.LOSS
    assert game_score(durak_seat=1, b_seat=1) is GameScore.LOSS
    assert game_score(durak_seat=None, b_seat=1) is GameScore.DRAW


@pytest.mark.parametrize(("first", "second"), list(itertools.product(GameScore, repeat=2)))
def test_every_pair_of_games_lands_in_the_bin_of_its_mean_score(first: GameScore, second: GameScore) -> None:
    points = {GameScore.LOSS: 0.0, GameScore.DRAW: 0.5, GameScore.WIN: 1.0}
    mean = (points[first] + points[second]) / 2  # 0, 1/4, 1/2, 3/4, 1
    assert pair_bin([first, second]) == round(4 * mean)
    assert pair_bin([first, second]) == pair_bin([second, first])


def test_a_split_and_two_draws_share_the_middle_bin() -> None:
    assert pair_bin([GameScore.WIN, GameScore.LOSS]) == pair_bin([GameScore.DRAW, GameScore.DRAW]) == 2


def test_a_pair_is_two_games() -> None:
    with pytest.raises(ValueError, match="2 games"):
        pair_bin([GameScore.WIN])


@pytest.mark.django_db
@pytest.mark.parametrize("score", range(5))
def test_stored_games_are_scored_from_the_seats_b_held(
    score: int, mine: tuple[BotVersion, BotVersion], alice: User
) -> None:
    b, a = mine
    match = match_create(kind=Match.Kind.SPRT, versions=[b, a], preset="classic", deals=1, rated=False)
    store_pair(match, BIN_GAMES[score])
    scores = pair_game_scores(match, b.pk)
    assert pair_bin(scores) == score
    # A's view of the same games is the mirror image.
    assert pair_bin(pair_game_scores(match, a.pk)) == 4 - score
