"""docs/rules.md section 8: every preset's options per player count, the player ranges, invalid options."""

from __future__ import annotations

from typing import Any

import pytest

from bots_sdk.engine import PRESETS, InvalidRulesError, Rules

PLAYERS = {"classic": (2, 6), "transfer": (2, 6), "kawu": (2, 2), "table": (2, 6), "house": (2, 5),
           "pagat": (2, 6)}
"""The `players` row of the table."""
TEAM_PRESETS = {"pagat-pairs": {4: [[0, 2], [1, 3]], 6: [[0, 3], [1, 4], [2, 5]]},
                "pagat-trios": {6: [[0, 2, 4], [1, 3, 5]]}}
"""Section 7, partnerships under seed 004's rules: two teams of two, three teams of two, two teams of three."""


def expected_options(preset: str, players: int) -> dict[str, Any]:
    """The table of section 8, column ``preset``, for ``players`` seats (written out from the spec)."""
    column: dict[str, dict[str, Any]] = {
        "classic": {"first_bout_limit": 5},
        "transfer": {"first_bout_limit": 5, "transfer": True},
        "kawu": {"first_bout_limit": 6, "pickup_draw_limit": None},
        "table": {"first_bout_limit": 6, "throw_in": "all" if players <= 4 else "neighbours"},
        "house": {"hand_size": 7, "bout_limit": None, "first_bout_limit": None, "multi_card_attacks": True,
                  "transfer": True, "early_out": True},
        "pagat": {"first_bout_limit": 6 if players <= 3 else 5, "trump_exchange": True},
    }
    for name, layouts in TEAM_PRESETS.items():
        column[name] = {**column["pagat"], "teams": layouts.get(players)}
    options: dict[str, Any] = {
        "preset": preset, "players": players, "deck": 36, "hand_size": 6, "first_attacker": "lowest_trump",
        "throw_in": "all", "bout_limit": 6, "first_bout_limit": None, "multi_card_attacks": False,
        "transfer": False, "early_out": False, "trump_exchange": False, "teams": None,
        "pickup_draw_limit": 40, "max_bouts": 1000,
    }
    options.update(column[preset])
    return options


CONFIGS = [(preset, players) for preset, (low, high) in PLAYERS.items() for players in range(low, high + 1)] + [
    (preset, players) for preset, layouts in TEAM_PRESETS.items() for players in layouts
]


def test_the_engine_has_the_six_presets_of_the_table_and_the_team_layouts() -> None:
    """Section 8: the presets are classic, transfer, kawu, table, house, pagat; section 7 adds the layouts."""
    assert set(PRESETS) == set(PLAYERS) | set(TEAM_PRESETS)


@pytest.mark.parametrize(("preset", "players"), [("pagat-pairs", 5), ("pagat-pairs", 2), ("pagat-trios", 4)])
def test_team_presets_refuse_table_sizes_without_their_layout(preset: str, players: int) -> None:
    with pytest.raises(InvalidRulesError, match=f"players: preset '{preset}' is for"):
        Rules.preset(preset, players)


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_preset_options_match_the_table(preset: str, players: int) -> None:
    """Section 8: "Every option, its values, and its value in each preset"."""
    assert Rules.preset(preset, players=players).to_dict() == expected_options(preset, players)


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_record_rules_object_spells_out_every_option_plus_the_preset(preset: str, players: int) -> None:
    """Section 8: "A record's `rules` object spells out every option with these names and values, plus
    `preset`"; reading it back gives the same rules."""
    rules = Rules.preset(preset, players=players)
    data = rules.to_dict()
    assert list(data) == [
        "preset", "players", "deck", "hand_size", "first_attacker", "throw_in", "bout_limit", "first_bout_limit",
        "multi_card_attacks", "transfer", "early_out", "trump_exchange", "teams", "pickup_draw_limit", "max_bouts",
    ]
    assert Rules.from_dict(data) == rules


@pytest.mark.parametrize(("preset", "players"), [
    ("classic", 1), ("classic", 7), ("transfer", 7), ("kawu", 3), ("kawu", 6), ("table", 1), ("house", 6),
    ("pagat", 7),
])
def test_player_count_outside_the_presets_range_is_rejected(preset: str, players: int) -> None:
    """Section 8: `players` row: 2-6, kawu 2, house 2-5."""
    with pytest.raises(InvalidRulesError, match=r"^players: "):
        Rules.preset(preset, players=players)


def test_unknown_preset_is_rejected() -> None:
    """Section 8: only the six names are presets."""
    with pytest.raises(InvalidRulesError, match=r"^preset: "):
        Rules.preset("durak", players=2)


@pytest.mark.parametrize(("option", "value"), [
    ("players", 7), ("players", 1), ("deck", 40), ("deck", 32), ("hand_size", 0), ("hand_size", "6"),
    ("first_attacker", "random"), ("throw_in", "left"), ("bout_limit", 0), ("bout_limit", "6"),
    ("first_bout_limit", -1), ("multi_card_attacks", 1), ("transfer", "yes"), ("early_out", None),
    ("trump_exchange", 0), ("pickup_draw_limit", 0), ("max_bouts", 0), ("max_bouts", None),
])
def test_invalid_option_value_raises_naming_the_option(option: str, value: object) -> None:
    """Section 8: each option takes only the values of its row; a wrong value is an error naming the option."""
    with pytest.raises(InvalidRulesError, match=rf"^{option}: "):
        Rules.preset("classic", players=2).replace(**{option: value})


def test_unknown_option_raises_naming_it() -> None:
    """Section 8: options have exactly these names."""
    with pytest.raises(InvalidRulesError, match=r"^bout_limits: unknown option"):
        Rules.preset("classic", players=2).replace(bout_limits=6)


@pytest.mark.parametrize(("option", "value"), [
    ("deck", 52), ("deck", 24), ("hand_size", 1), ("first_attacker", "dealer_left"), ("throw_in", "neighbours"),
    ("bout_limit", None), ("first_bout_limit", None), ("multi_card_attacks", True), ("transfer", True),
    ("early_out", True), ("trump_exchange", True), ("pickup_draw_limit", None), ("max_bouts", 1),
])
def test_every_listed_option_value_is_accepted(option: str, value: object) -> None:
    """Section 8: the `values` column (`null` means no limit); a changed preset is labelled `custom`."""
    rules = Rules.preset("classic", players=4).replace(**{option: value})
    assert getattr(rules, option) == value
    assert rules.to_dict()["preset"] == "custom"


def test_record_with_a_preset_name_must_match_that_preset() -> None:
    """Section 8: a record's `preset` names a preset "or custom"; its options are that preset's."""
    data = Rules.preset("kawu", players=2).to_dict()
    data["first_bout_limit"] = 5
    with pytest.raises(InvalidRulesError, match=r"^first_bout_limit: "):
        Rules.from_dict(data)
    data["preset"] = "custom"
    assert Rules.from_dict(data).first_bout_limit == 5
