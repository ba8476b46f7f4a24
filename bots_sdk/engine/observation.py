"""What one seat sees (docs/rules.md section 9), and nothing hidden.

The observation is built from the public state plus the seat's own hand: the
other hands appear only as sizes and as the cards everyone saw go into them
(picked up from the table, or the drawn turn-up). A test checks that changing
other seats' hidden cards never changes an observation.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from typing import TYPE_CHECKING, Literal

from bots_sdk.engine.cards import Card, Suit, mask_to_cards
from bots_sdk.engine.history import Event, HistoryEntry, to_event
from bots_sdk.engine.legal import LegalActions
from bots_sdk.engine.outcome import Outcome
from bots_sdk.engine.rules import Rules

if TYPE_CHECKING:
    from bots_sdk.engine.game import Game


@dataclasses.dataclass(frozen=True, slots=True)
class TablePair:
    """An attack card and the card that beat it (``None`` while unbeaten)."""

    attack: Card
    cover: Card | None = None


@dataclasses.dataclass(frozen=True)
class Observation:
    """One seat's view of a game at one moment."""

    seat: int
    rules: Rules
    hand: tuple[Card, ...]
    """Own cards, in deal order of suits and ranks (sort them as you like)."""
    trump: Suit
    trump_card: Card
    """The turned-up card (stays visible at the bottom of the stock until drawn)."""
    trump_drawn_by: int | None
    stock_size: int
    hand_sizes: tuple[int, ...]
    out: tuple[bool, ...]
    """Per seat: gone out (safe)."""
    out_order: tuple[int, ...]
    table: tuple[TablePair, ...]
    discard: tuple[Card, ...]
    """The discard pile: face down, but everyone saw it."""
    attacker: int
    """The main attacker of this bout."""
    defender: int
    attacker_position: int
    """The place at the table the main attacker plays from: their own seat, or with teams that of
    an out partner they stand in for (the next bout's turns are counted from positions)."""
    defender_position: int
    """The place the defender plays from (with teams, possibly an out partner's)."""
    partners: tuple[int, ...]
    """This seat's partners in a team game (option ``teams``); empty in individual play."""
    eligible_attackers: tuple[int, ...]
    """Who may add attack cards now, in priority order."""
    take_declared: bool
    bout: int
    attack_limit: int
    """The most attack cards this bout may hold (L1 and the defender's starting hand, L2)."""
    pickups_in_a_row: int
    dealer: int
    to_act: int | None
    legal_actions: LegalActions
    """What this seat may do now; empty when it is not this seat's decision."""
    known_cards: tuple[tuple[Card, ...], ...]
    """Per seat: cards of that hand everyone knows (picked up from the table, the drawn turn-up)."""
    outcome: Outcome | None
    _history: tuple[HistoryEntry, ...] = dataclasses.field(repr=False)
    """The engine's compact entries (``bots_sdk.engine.history``), which the SDK passes on cheaply
    (gRPC, ``Game.from_observation``); bots read ``history``."""
    time_left: float | None = None
    """Seconds left for this decision, when a clock runs (the referee fills it)."""
    bank_left: float | None = None
    """Seconds left in this game's time bank, when a clock runs."""

    @functools.cached_property
    def history(self) -> tuple[Event, ...]:
        """Every public event of the game so far, in order."""
        return tuple(map(to_event, self._history))

    @property
    def raw_history(self) -> tuple[HistoryEntry, ...]:
        """Deprecated: the engine's internal tuples; read ``history``, whose ``Event`` entries are typed."""
        warnings.warn(
            "Observation.raw_history is deprecated and will be removed: read Observation.history",
            DeprecationWarning, stacklevel=2,
        )
        return self._history

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def role(self) -> Literal["attacker", "defender", "thrower", "idle", "out"]:
        """This seat's part in the bout: main attacker, defender, another eligible attacker, or none."""
        if self.out[self.seat]:
            return "out"
        if self.seat == self.defender:
            return "defender"
        if self.seat == self.attacker:
            return "attacker"
        return "thrower" if self.seat in self.eligible_attackers else "idle"

    def is_partner(self, seat: int) -> bool:
        """Whether ``seat`` plays on this seat's team (never true of this seat itself)."""
        return seat in self.partners

    @property
    def unbeaten(self) -> tuple[Card, ...]:
        return tuple(pair.attack for pair in self.table if pair.cover is None)


def observe(game: Game, seat: int) -> Observation:
    """Build ``seat``'s observation of ``game`` from public state and that seat's hand only."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"seat: {seat!r} is not a seat of this {game.players}-player game")
    n = game.players
    over = game.is_over()
    return Observation(
        seat=seat,
        rules=game.rules,
        hand=tuple(mask_to_cards(game.hand_mask(seat))),
        trump=game.trump,
        trump_card=game.trump_card,
        trump_drawn_by=game.trump_drawn_by,
        stock_size=game.stock_size,
        hand_sizes=tuple(game.hand_size(s) for s in range(n)),
        out=tuple(game.is_out(s) for s in range(n)),
        out_order=game.out_order,
        table=tuple(TablePair(a, c) for a, c in game.table()),
        discard=tuple(mask_to_cards(game.discard_mask())),
        attacker=game.attacker,
        defender=game.defender,
        attacker_position=game.attacker_position,
        defender_position=game.defender_position,
        partners=game.partners(seat),
        eligible_attackers=tuple(game.eligible_attackers()),
        take_declared=game.take_declared and not over,
        bout=game.bout,
        attack_limit=game.attack_limit,
        pickups_in_a_row=game.pickups_in_a_row,
        dealer=game.dealer,
        to_act=game.to_act,
        legal_actions=game.legal_actions() if game.to_act == seat else LegalActions(),
        known_cards=tuple(tuple(mask_to_cards(game.known_mask(s))) for s in range(n)),
        outcome=game.outcome,
        _history=tuple(game._history),
    )
