"""The sentence a finished table ends with, for the person who played it."""

from __future__ import annotations

import pytest

from arena.tables.selectors import _result_text

NAMES = ["you", "gentle", "random", "strong"]


@pytest.mark.parametrize(("out_order", "said"), [
    ([0, 2, 3], "You went out first: well played!"),
    ([2, 0, 3], "You went out 2nd."),
    ([2, 3, 0], "You went out 3rd."),
])
def test_the_person_hears_their_place(out_order: list[int], said: str) -> None:
    text = _result_text({"durak": 1, "draw": False, "reason": "normal", "out_order": out_order}, NAMES, 0)
    assert text == f"gentle (seat 1) is the durak. {said}"


def test_a_team_game_names_the_losing_team() -> None:
    result = {"durak": 1, "draw": False, "reason": "normal", "out_order": [0, 2], "losers": [1, 3]}
    assert _result_text(result, NAMES, 0) == "Team gentle (seat 1) and strong (seat 3) lost; your team is safe."
    assert _result_text(result, NAMES, 3) == "Your team lost."
