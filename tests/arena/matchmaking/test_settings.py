"""The matchmaker's settings: defaults without any, the environment's text form, and loud errors."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from arena.matchmaking.conf import LadderShare, matchmaking_config


def test_the_defaults() -> None:
    config = matchmaking_config()
    assert config.ladders == (LadderShare("classic", 2, 4.0), LadderShare("classic", 3, 2.0),
                              LadderShare("classic", 4, 2.0), LadderShare("transfer", 2, 2.0),
                              LadderShare("pagat-pairs", 4, 1.0))
    assert [share.sides for share in config.ladders] == [2, 3, 4, 2, 2]  # the team ladder: one version a team
    assert (config.queue_depth, config.deals, config.starved_after) == (8, 1, timedelta(minutes=30))


@override_settings(ARENA_MATCHMAKING_LADDERS="classic-2:3, transfer-4:1,classic-6, classic-3:0",
                   ARENA_MATCHMAKING_QUEUE_DEPTH="12", ARENA_MATCHMAKING_STARVED_MINUTES="45.5")
def test_the_text_form_of_the_environment() -> None:
    config = matchmaking_config()
    assert config.ladders == (LadderShare("classic", 2, 3.0), LadderShare("transfer", 4, 1.0),
                              LadderShare("classic", 6, 1.0))  # weight 0: off
    assert config.queue_depth == 12 and config.starved_after == timedelta(minutes=45.5)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("ARENA_MATCHMAKING_LADDERS", "classic-7:1", "classic-7"),
    ("ARENA_MATCHMAKING_LADDERS", {"poker-2": 1}, "poker"),
    ("ARENA_MATCHMAKING_LADDERS", "classic-2:lots", "classic-2"),
    ("ARENA_MATCHMAKING_LADDERS", {"classic-2": -1}, "negative"),
    ("ARENA_MATCHMAKING_QUEUE_DEPTH", 0, "at least 1"),
    ("ARENA_MATCHMAKING_DEALS", "two", "whole number"),
    ("ARENA_MATCHMAKING_STARVED_MINUTES", "soon", "minutes"),
])
def test_a_bad_value_names_its_setting(name: str, value: object, message: str) -> None:
    with override_settings(**{name: value}), pytest.raises(ImproperlyConfigured, match=name) as error:
        matchmaking_config()
    assert message in str(error.value)
