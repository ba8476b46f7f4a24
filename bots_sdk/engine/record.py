"""Game records (``durak-game/1``, docs/protocol.md section 2): write, read, validate.

A record holds the deck order and the decisions only; replaying derives every
forced move again, so a record cannot disagree with the engine about them.
Reading is strict and every error names the field (``actions[12].action: ...``),
because records come from other tools and from bots' matches.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from bots_sdk.engine.actions import Action
from bots_sdk.engine.cards import Card
from bots_sdk.engine.errors import DurakError, InvalidRulesError, RecordError
from bots_sdk.engine.game import Game
from bots_sdk.engine.outcome import Outcome, Reason
from bots_sdk.engine.rules import Rules

FORMAT: Final = "durak-game/1"


@dataclasses.dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who played a seat."""

    bot: str
    version: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class RecordedAction:
    seat: int
    action: Action
    ms: int | None = None
    """How long the decision took, in milliseconds (``None`` when not measured)."""
    text: str = ""
    """The action as written in the record, for error messages."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: rules, deal, who played, the decisions and the result."""

    rules: Rules
    dealer: int
    deck: tuple[Card, ...]
    seats: tuple[SeatInfo, ...]
    actions: tuple[RecordedAction, ...]
    result: Outcome

    @classmethod
    def from_game(
        cls, game: Game, seats: Sequence[SeatInfo] | None = None, ms: Sequence[float | None] | None = None
    ) -> GameRecord:
        """The record of a finished (or forfeited) game; ``ms`` gives each decision's time (kept in whole
        milliseconds, as ``durak-game/1`` has them)."""
        if game.outcome is None:
            raise ValueError("the game is not over: only finished or forfeited games have records")
        decisions = game.decisions()
        times = [None if t is None else round(t) for t in ms] if ms is not None else [None] * len(decisions)
        if len(times) != len(decisions):
            raise ValueError(f"ms: {len(times)} times for {len(decisions)} decisions")
        if seats is None:
            seats = [SeatInfo("unknown") for _ in range(game.players)]
        return cls(
            rules=game.rules, dealer=game.dealer, deck=game.deck, seats=tuple(seats),
            actions=tuple(RecordedAction(s, a, t, str(a)) for (s, a), t in zip(decisions, times)),
            result=game.outcome,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "deck": [str(c) for c in self.deck],
            "seats": [{"bot": s.bot, "version": s.version} for s in self.seats],
            "actions": [
                {"seat": a.seat, "action": str(a.action), **({"ms": a.ms} if a.ms is not None else {})}
                for a in self.actions
            ],
            "result": self.result.to_dict(),
        }

    def to_json(self) -> str:
        """The record as JSON text, one action a line so diffs and eyes can follow a game."""
        data = self.to_dict()
        head = ",\n ".join(
            f"{json.dumps(key)}: {json.dumps(data[key])}" for key in ("format", "rules", "dealer", "deck", "seats")
        )
        actions = ",\n  ".join(json.dumps(a) for a in data["actions"])
        return (
            f"{{{head},\n \"actions\": [\n  {actions}],\n \"result\": {json.dumps(data['result'])}}}\n"
        )

    def write(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise RecordError(f"not JSON: {error}") from None
        return cls.from_dict(data)

    @classmethod
    def read(cls, path: str | Path) -> GameRecord:
        try:
            raw = Path(path).read_bytes()
        except OSError as error:
            raise RecordError(f"cannot read {path}: {error.strerror}") from None
        return cls.from_json(raw)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Validate and read a record; unknown top-level keys are ignored."""
        if not isinstance(data, Mapping):
            raise RecordError(f"a record is a JSON object, not {_kind(data)}")
        fmt = _field(data, "format", str)
        if fmt != FORMAT:
            raise RecordError(f"format: {fmt!r} is not {FORMAT!r}")
        try:
            rules = Rules.from_dict(_field(data, "rules", Mapping))
        except InvalidRulesError as error:
            raise RecordError(f"rules.{error}") from None
        dealer = _field(data, "dealer", int)
        deck_texts = _field(data, "deck", list)
        deck = []
        for i, text in enumerate(deck_texts):
            if not isinstance(text, str):
                raise RecordError(f"deck[{i}]: {text!r} is not a card text")
            try:
                deck.append(Card.parse(text))
            except DurakError as error:
                raise RecordError(f"deck[{i}]: {error}") from None
        try:
            Game.from_deck(rules, deck, dealer)
        except DurakError as error:
            raise RecordError(str(error)) from None
        seats = _read_seats(_field(data, "seats", list), rules.players)
        actions = _read_actions(_field(data, "actions", list), rules.players)
        result = _read_result(_field(data, "result", Mapping), rules)
        return cls(rules, dealer, tuple(deck), seats, actions, result)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def _field(data: Mapping[str, Any], name: str, kind: Any, where: str = "") -> Any:
    if name not in data:
        raise RecordError(f"{where}{name}: missing")
    value = data[name]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        wanted = {str: "a string", int: "a whole number", list: "a list", Mapping: "an object"}[kind]
        raise RecordError(f"{where}{name}: {value!r} is {_kind(value)}, expected {wanted}")
    return value


def _seat(value: Any, players: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise RecordError(f"{where}: {value!r} is not a seat of a {players}-player game (0-{players - 1})")
    return value


def _read_seats(items: list[Any], players: int) -> tuple[SeatInfo, ...]:
    if len(items) != players:
        raise RecordError(f"seats: {len(items)} entries for a {players}-player game")
    seats = []
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise RecordError(f"seats[{i}]: {item!r} is not an object")
        bot = _field(item, "bot", str, f"seats[{i}].")
        version = item.get("version", "")
        if not isinstance(version, str | int) or isinstance(version, bool):
            raise RecordError(f"seats[{i}].version: {version!r} is not text")
        seats.append(SeatInfo(bot, str(version)))
    return tuple(seats)


def _read_actions(items: list[Any], players: int) -> tuple[RecordedAction, ...]:
    actions = []
    for i, item in enumerate(items):
        where = f"actions[{i}]"
        if not isinstance(item, Mapping):
            raise RecordError(f"{where}: {item!r} is not an object")
        seat = _seat(item.get("seat"), players, f"{where}.seat") if "seat" in item else None
        if seat is None:
            raise RecordError(f"{where}.seat: missing")
        text = _field(item, "action", str, f"{where}.")
        try:
            action = Action.parse(text)
        except DurakError as error:
            raise RecordError(f"{where}.action: {error}") from None
        ms = item.get("ms")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int | float) or ms < 0):
            raise RecordError(f"{where}.ms: {ms!r} is not a non-negative number")
        actions.append(RecordedAction(seat, action, None if ms is None else int(ms), text))
    return tuple(actions)


def _read_result(data: Mapping[str, Any], rules: Rules) -> Outcome:
    players = rules.players
    reason_text = _field(data, "reason", str, "result.")
    try:
        reason = Reason(reason_text)
    except ValueError:
        raise RecordError(
            f"result.reason: {reason_text!r} is not one of {', '.join(r.value for r in Reason)}"
        ) from None
    if "durak" not in data:
        raise RecordError("result.durak: missing")
    durak = data["durak"]
    if durak is not None:
        durak = _seat(durak, players, "result.durak")
    draw = data.get("draw")
    if not isinstance(draw, bool):
        raise RecordError(f"result.draw: {draw!r} is not true or false")
    if draw != (durak is None):
        raise RecordError(f"result.draw: {draw} but result.durak is {durak!r}")
    out_order = tuple(
        _seat(s, players, f"result.out_order[{i}]") for i, s in enumerate(_field(data, "out_order", list, "result."))
    )
    if len(set(out_order)) != len(out_order):
        raise RecordError(f"result.out_order: {list(out_order)} lists a seat twice")
    offender = None
    detail = ""
    if reason.is_forfeit:
        offender = _seat(data.get("offender"), players, "result.offender")
        detail = _field(data, "detail", str, "result.")
        if durak != offender:
            raise RecordError(f"result.durak: {durak!r} must be the offender ({offender}) in a forfeit")
    elif reason is not Reason.NORMAL and durak is not None:
        raise RecordError(f"result.durak: {durak!r}, but reason {reason.value!r} is a draw")
    return Outcome(durak, reason, out_order, offender, detail, _read_losers(data, rules, durak))


def _read_losers(data: Mapping[str, Any], rules: Rules, durak: int | None) -> tuple[int, ...] | None:
    """A team game's losing seats; a writer that left them out gets the durak's team."""
    if rules.teams is None:
        if "losers" in data:
            raise RecordError("result.losers: only a team game (rules.teams) has losers")
        return None
    if "losers" not in data:
        return () if durak is None else next(team for team in rules.teams if durak in team)
    losers = _field(data, "losers", list, "result.")
    return tuple(_seat(s, rules.players, f"result.losers[{i}]") for i, s in enumerate(losers))
