"""Rule options and the presets of docs/rules.md section 8.

Every option is explicit: a ``Rules`` value always holds all of them, and
``Rules.to_dict()`` is exactly the ``rules`` object of a ``durak-game/1``
record, so records written by any tool that follows the spec replay here.

>>> Rules.preset("classic", players=3).first_bout_limit
5
>>> Rules.preset("table", players=5).throw_in
'neighbours'
>>> Rules.preset("kawu", players=3)
Traceback (most recent call last):
...
bots_sdk.engine.errors.InvalidRulesError: players: preset 'kawu' is for 2 players, not 3
>>> Rules.preset("pagat-pairs", players=6).teams
((0, 3), (1, 4), (2, 5))

The partnership presets are seed 004's rules (``pagat``) with its team layouts:
``pagat-pairs`` seats partners opposite each other (4 players: 0+2 vs 1+3;
6 players: three teams of two), ``pagat-trios`` plays two teams of three
(0+2+4 vs 1+3+5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final, Literal

from bots_sdk.engine.errors import InvalidRulesError

FirstAttacker = Literal["lowest_trump", "dealer_left"]
ThrowIn = Literal["all", "neighbours"]

DECK_SIZES: Final = (36, 52, 24)
PRESETS: Final = ("classic", "transfer", "kawu", "table", "house", "pagat", "pagat-pairs", "pagat-trios")
TEAM_PRESETS: Final = ("pagat-pairs", "pagat-trios")
PLAYER_COUNTS: Final[dict[str, tuple[int, ...]]] = {
    "classic": (2, 3, 4, 5, 6), "transfer": (2, 3, 4, 5, 6), "kawu": (2,), "table": (2, 3, 4, 5, 6),
    "house": (2, 3, 4, 5), "pagat": (2, 3, 4, 5, 6), "pagat-pairs": (4, 6), "pagat-trios": (6,),
}
"""The table sizes each preset is played at."""


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of docs/rules.md section 8; construct with ``Rules.preset`` or ``Rules.from_dict``."""

    players: int = 2
    """Number of seats, 2 to 6."""
    deck: int = 36
    """36 (6..A), 52 (2..A) or 24 (9..A) cards."""
    hand_size: int = 6
    """Cards dealt to each player, and the size hands are refilled to."""
    first_attacker: FirstAttacker = "lowest_trump"
    """Who leads the first bout: the holder of the lowest trump, or the dealer's left."""
    throw_in: ThrowIn = "all"
    """Who may add attack cards: every active non-defender, or only the defender's two neighbours."""
    bout_limit: int | None = 6
    """L1: attack cards per bout (``None``: no fixed limit)."""
    first_bout_limit: int | None = 5
    """L1 for bout 1 (``None``: no fixed limit)."""
    multi_card_attacks: bool = False
    """Attackers keep adding cards until all pass, before the defender answers (seed 003)."""
    transfer: bool = False
    """The defender may pass the attack on with a card of the same rank (Perevodnoy)."""
    early_out: bool = False
    """A player whose hand empties is out at once, even while the stock holds cards."""
    trump_exchange: bool = False
    """The holder of the trump six may swap it for the turned-up trump (seed 004)."""
    teams: tuple[tuple[int, ...], ...] | None = None
    """Partnerships: every seat in exactly one team, at least two teams (``None``: everyone for themselves)."""
    pickup_draw_limit: int | None = 40
    """Draw after this many takes in a row once the stock is empty (``None``: never)."""
    max_bouts: int = 1000
    """Draw once this many bouts have been completed."""
    preset_name: str = "custom"
    """The preset these options come from, or ``"custom"``."""

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def preset(cls, name: str, players: int = 2) -> Rules:
        """The options of preset ``name`` for ``players`` seats."""
        if name not in PRESETS:
            raise InvalidRulesError(f"preset: {name!r} is not a preset (one of {', '.join(PRESETS)})")
        counts = PLAYER_COUNTS[name]
        if not isinstance(players, int) or isinstance(players, bool) or players not in counts:
            raise InvalidRulesError(f"players: preset {name!r} is for {_spell(counts)} players, not {players!r}")
        return cls(players=players, preset_name=name, **_preset_options(name, players))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; it keeps the preset name only if it still matches."""
        unknown = sorted(set(changes) - set(OPTION_NAMES) - {"preset"})
        if unknown:
            raise InvalidRulesError(f"{unknown[0]}: unknown option (options: {', '.join(OPTION_NAMES)})")
        name = changes.pop("preset", self.preset_name)
        options = {option: getattr(self, option) for option in OPTION_NAMES}
        options.update(changes)
        if name != "custom" and name in PRESETS:
            try:
                expected = Rules.preset(name, options["players"]).to_dict()
            except InvalidRulesError:
                expected = None
            if expected is None or any(expected[k] != _plain(options[k]) for k in OPTION_NAMES):
                name = "custom"
        return Rules(preset_name=name, **options)

    def to_dict(self) -> dict[str, Any]:
        """The record form: ``preset`` then every option, in the order of docs/rules.md section 8."""
        out: dict[str, Any] = {"preset": self.preset_name}
        for name in OPTION_NAMES:
            out[name] = _plain(getattr(self, name))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Read a record's ``rules`` object: every option spelled out, nothing unknown.

        A preset name other than ``custom`` must match its options, so a mislabelled
        record is caught instead of replaying under rules nobody intended.
        """
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"expected an object of rule options, got {type(data).__name__}")
        unknown = sorted(set(data) - set(OPTION_NAMES) - {"preset"})
        if unknown:
            raise InvalidRulesError(f"{unknown[0]}: unknown option")
        missing = [name for name in ("preset", *OPTION_NAMES) if name not in data]
        if missing:
            raise InvalidRulesError(f"{missing[0]}: missing (every option must be spelled out)")
        name = data["preset"]
        if name != "custom" and name not in PRESETS:
            raise InvalidRulesError(f"preset: {name!r} is not a preset (one of {', '.join(PRESETS)} or custom)")
        teams = data["teams"]
        options = {k: data[k] for k in OPTION_NAMES}
        if isinstance(teams, list):
            options["teams"] = tuple(tuple(t) if isinstance(t, list) else t for t in teams)
        rules = cls(preset_name="custom", **options)
        if name != "custom":
            expected = Rules.preset(name, rules.players).to_dict()
            actual = rules.to_dict()
            for option in OPTION_NAMES:
                if expected[option] != actual[option]:
                    raise InvalidRulesError(
                        f"{option}: {data[option]!r} differs from preset {name!r} ({expected[option]!r});"
                        ' label the rules "custom" to change options'
                    )
            rules = dataclasses.replace(rules, preset_name=name)
        return rules

    @property
    def sides(self) -> int:
        """The parties a game is between: the teams, or every player for themselves."""
        return len(self.teams) if self.teams is not None else self.players

    @property
    def deal_size(self) -> int:
        """Cards dealt in all."""
        return self.players * self.hand_size


OPTION_NAMES: Final = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "preset_name")


def _spell(counts: tuple[int, ...]) -> str:
    """``(2,)`` as "2", ``(4, 6)`` as "4 or 6", a run as "2 to 6"."""
    if len(counts) == 1:
        return str(counts[0])
    if counts == tuple(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


def team_layout(kind: str, players: int) -> tuple[tuple[int, ...], ...]:
    """Seed 004's layouts: ``pairs`` sit opposite each other, ``trios`` alternate around the table."""
    if kind == "pairs":
        half = players // 2
        return tuple((s, s + half) for s in range(half))
    return tuple(tuple(range(first, players, 2)) for first in (0, 1))


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _preset_options(name: str, players: int) -> dict[str, Any]:
    base: dict[str, Any] = {
        "deck": 36, "hand_size": 6, "first_attacker": "lowest_trump", "throw_in": "all",
        "bout_limit": 6, "first_bout_limit": 5, "multi_card_attacks": False, "transfer": False,
        "early_out": False, "trump_exchange": False, "teams": None,
        "pickup_draw_limit": 40, "max_bouts": 1000,
    }
    if name == "transfer":
        base["transfer"] = True
    elif name == "kawu":
        base.update(first_bout_limit=6, pickup_draw_limit=None)
    elif name == "table":
        base.update(first_bout_limit=6, throw_in="neighbours" if players >= 5 else "all")
    elif name == "house":
        base.update(hand_size=7, bout_limit=None, first_bout_limit=None,
                    multi_card_attacks=True, transfer=True, early_out=True)
    elif name.startswith("pagat"):
        base.update(trump_exchange=True, first_bout_limit=6 if players <= 3 else 5)
        if name != "pagat":
            base["teams"] = team_layout(name.removeprefix("pagat-"), players)
    return base


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(rules: Rules) -> None:
    def need(ok: bool, name: str, expected: str) -> None:
        if not ok:
            raise InvalidRulesError(f"{name}: {getattr(rules, name)!r} is not {expected}")

    need(_is_int(rules.players) and 2 <= rules.players <= 6, "players", "a number from 2 to 6")
    need(rules.deck in DECK_SIZES and _is_int(rules.deck), "deck", "36, 52 or 24")
    need(_is_int(rules.hand_size) and rules.hand_size >= 1, "hand_size", "a whole number of at least 1")
    need(rules.first_attacker in ("lowest_trump", "dealer_left"), "first_attacker",
         "'lowest_trump' or 'dealer_left'")
    need(rules.throw_in in ("all", "neighbours"), "throw_in", "'all' or 'neighbours'")
    for name in ("bout_limit", "first_bout_limit", "pickup_draw_limit"):
        value = getattr(rules, name)
        need(value is None or (_is_int(value) and value >= 1), name, "null or a whole number of at least 1")
    for name in ("multi_card_attacks", "transfer", "early_out", "trump_exchange"):
        need(isinstance(getattr(rules, name), bool), name, "true or false")
    _validate_teams(rules)
    need(_is_int(rules.max_bouts) and rules.max_bouts >= 1, "max_bouts", "a whole number of at least 1")
    need(rules.preset_name in PRESETS or rules.preset_name == "custom", "preset_name", "a preset name or 'custom'")
    if rules.deal_size > rules.deck:
        raise InvalidRulesError(
            f"hand_size: {rules.players} players x {rules.hand_size} cards need {rules.deal_size} cards,"
            f" the {rules.deck}-card deck holds {rules.deck}"
        )


def _validate_teams(rules: Rules) -> None:
    """Teams must split the seats exactly; stored sorted, so equal layouts compare equal."""
    teams = rules.teams
    if teams is None:
        return
    expected = "null or a list of at least two teams (lists of seats) holding every seat exactly once"
    if not isinstance(teams, tuple) or len(teams) < 2 or not all(isinstance(t, tuple) and t for t in teams):
        raise InvalidRulesError(f"teams: {_plain(teams)!r} is not {expected}")
    seats = [s for team in teams for s in team]
    for s in seats:
        if not _is_int(s) or not 0 <= s < rules.players:
            raise InvalidRulesError(f"teams: {s!r} is not a seat of a {rules.players}-player game")
    if sorted(seats) != list(range(rules.players)):
        twice = sorted({s for s in seats if seats.count(s) > 1})
        problem = f"seat {twice[0]} is in two teams" if twice else (
            f"seat {min(set(range(rules.players)) - set(seats))} is in no team")
        raise InvalidRulesError(f"teams: {_plain(teams)!r}: {problem}")
    canonical = tuple(sorted(tuple(sorted(team)) for team in teams))
    if canonical != teams:
        object.__setattr__(rules, "teams", canonical)
