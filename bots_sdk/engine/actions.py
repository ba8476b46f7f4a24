"""Actions and their text form (docs/protocol.md section 1).

``attack 6S``, ``defend 6S 9S`` (the attack card, then the card that beats it),
``take``, ``pass``, ``transfer 6H``, ``exchange``. Actions are interned like cards:
every possible action exists once, built at import, so generating legal actions
allocates nothing and equality is identity.

>>> Action.parse("defend 6s 10S")
Action.parse('defend 6S TS')
>>> Action.parse("defend 6S TS").card
Card.parse('TS')
>>> str(Action.attack(Card.parse("9H")))
'attack 9H'
"""

from __future__ import annotations

import enum
from typing import ClassVar, Final

from bots_sdk.engine.cards import CARDS, SUIT_BITS, Card, rank_mask
from bots_sdk.engine.errors import InvalidActionError, InvalidCardError

KIND_ATTACK: Final = 1
KIND_DEFEND: Final = 2
KIND_TAKE: Final = 3
KIND_PASS: Final = 4
KIND_TRANSFER: Final = 5
KIND_EXCHANGE: Final = 6
"""``ActionKind`` values as plain ints (``Action._k``): the engine's ``push`` and the playouts of
search bots compare these, which is faster than comparing enum members."""


class ActionKind(enum.IntEnum):
    ATTACK = KIND_ATTACK
    """Add an attack card: the lead, or a throw-in of a rank already on the table."""
    DEFEND = KIND_DEFEND
    """Beat one unbeaten attack card."""
    TAKE = KIND_TAKE
    """The defender will pick up the table."""
    PASS = KIND_PASS
    """An attacker adds nothing now."""
    TRANSFER = KIND_TRANSFER
    """The defender adds a card of the attack rank and the next player defends."""
    EXCHANGE = KIND_EXCHANGE
    """Swap the trump six for the turned-up trump."""


_CARD_KINDS: Final = (ActionKind.ATTACK, ActionKind.DEFEND, ActionKind.TRANSFER)
_WORDS: Final = {kind.name.lower(): kind for kind in ActionKind}


class Action:
    """One decision. ``card`` is the card leaving the hand; ``target`` the attack card a defence beats."""

    __slots__ = ("_a", "_b", "_bit", "_k", "_ranks", "_text", "card", "kind", "target")
    _interned: ClassVar[dict[tuple[ActionKind, Card | None, Card | None], Action]] = {}

    kind: ActionKind
    card: Card | None
    """The card played (attack, transfer, or the covering card of a defence)."""
    target: Card | None
    """For a defence: the attack card it beats."""
    _text: str
    _k: int
    """``kind`` as a plain int (one of the ``KIND_*`` constants), for the engine's dispatch."""
    _a: int
    """The index of ``card`` (-1 if none)."""
    _b: int
    """The index of ``target`` (-1 if none)."""
    _bit: int
    """``card``'s bit in a card set (0 if none)."""
    _ranks: int
    """Every card of ``card``'s rank (0 if none): what a throw-in may match once it is on the table."""

    def __new__(cls, kind: ActionKind, card: Card | None = None, target: Card | None = None) -> Action:
        action = cls._interned.get((kind, card, target))
        if action is not None:
            return action
        if kind is ActionKind.DEFEND:
            valid = card is not None and target is not None and card is not target
        else:
            valid = (kind in _CARD_KINDS) == (card is not None) and target is None
        if not valid:
            raise InvalidActionError(f"no action of kind {kind!r} with card {card!r} and target {target!r}")
        # Made here, once per action (``__new__`` is where compiled code may create the object itself).
        action = object.__new__(cls)
        object.__setattr__(action, "kind", kind)
        object.__setattr__(action, "_k", int(kind))
        object.__setattr__(action, "card", card)
        object.__setattr__(action, "target", target)
        object.__setattr__(action, "_a", card.index if card is not None else -1)
        object.__setattr__(action, "_b", target.index if target is not None else -1)
        object.__setattr__(action, "_bit", card.mask if card is not None else 0)
        object.__setattr__(action, "_ranks", rank_mask(card.rank) if card is not None else 0)
        word = kind.name.lower()
        if kind is ActionKind.DEFEND:
            text = f"{word} {target} {card}"
        elif card is not None:
            text = f"{word} {card}"
        else:
            text = word
        object.__setattr__(action, "_text", text)
        cls._interned[(kind, card, target)] = action
        return action

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __reduce__(self) -> tuple[type[Action], tuple[ActionKind, Card | None, Card | None]]:
        return (Action, (self.kind, self.card, self.target))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action's text; raise ``InvalidActionError`` saying what is wrong."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action (expected text like 'attack 6S')")
        words = text.split()
        if not words:
            raise InvalidActionError("an empty text is not an action")
        kind = _WORDS.get(words[0].lower())
        if kind is None:
            raise InvalidActionError(
                f"{text!r} is not an action: {words[0]!r} is not one of {', '.join(_WORDS)}"
            )
        wanted = 2 if kind is ActionKind.DEFEND else 1 if kind in _CARD_KINDS else 0
        if len(words) - 1 != wanted:
            shape = {0: f"'{kind.name.lower()}'", 1: f"'{kind.name.lower()} CARD'",
                     2: "'defend ATTACK_CARD CARD'"}[wanted]
            raise InvalidActionError(f"{text!r} is not an action: expected {shape}")
        try:
            cards = [Card.parse(word) for word in words[1:]]
        except InvalidCardError as error:
            raise InvalidActionError(f"{text!r} is not an action: {error}") from None
        if kind is ActionKind.DEFEND:
            if cards[0] is cards[1]:
                raise InvalidActionError(f"{text!r} is not an action: a card cannot beat itself")
            return defend_action(cards[0].index * 64 + cards[1].index)
        if cards:
            return (ATTACKS if kind is ActionKind.ATTACK else TRANSFERS)[cards[0].index]
        return {ActionKind.TAKE: TAKE, ActionKind.PASS: PASS, ActionKind.EXCHANGE: EXCHANGE}[kind]

    @classmethod
    def attack(cls, card: Card) -> Action:
        return ATTACKS[card.index]

    @classmethod
    def defend(cls, target: Card, card: Card) -> Action:
        """Beat attack card ``target`` with ``card``."""
        return defend_action(target.index * 64 + card.index)

    @classmethod
    def transfer(cls, card: Card) -> Action:
        return TRANSFERS[card.index]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    def __lt__(self, other: Action) -> bool:
        """Plain string order, the order of ``legal`` in a replay trace."""
        return self._text < other._text

    def __hash__(self) -> int:
        """By identity, as equality is: spelled out because a compiled class with ``__lt__`` has no hash."""
        return id(self)


_REAL_CARDS: Final = [card for card in CARDS if card is not None]
# Tables by card index; slots of indexes that are no card stay None and are never read.
ATTACKS: Final[list[Action]] = [None] * (4 * SUIT_BITS)  # type: ignore[list-item]
TRANSFERS: Final[list[Action]] = [None] * (4 * SUIT_BITS)  # type: ignore[list-item]
DEFENDS: Final[list[Action | None]] = [None] * (64 * 64)
"""``DEFENDS[target.index * 64 + card.index]``, made on first use (``defend_action``): building all
2,704 at import would add a noticeable pause to every bot process start."""
for _card in _REAL_CARDS:
    ATTACKS[_card.index] = Action(ActionKind.ATTACK, _card)
    TRANSFERS[_card.index] = Action(ActionKind.TRANSFER, _card)


def defend_action(slot: int) -> Action:
    """The defence at ``DEFENDS[slot]``, made and kept on first use."""
    action = DEFENDS[slot]
    if action is None:
        target, card = CARDS[slot >> 6], CARDS[slot & 63]
        if target is None or card is None or target is card:
            raise InvalidActionError(f"no defence action at slot {slot}")
        # ``ActionKind(KIND_DEFEND)``, not ``ActionKind.DEFEND``: mypyc miscompiles the member here.
        action = DEFENDS[slot] = Action(ActionKind(KIND_DEFEND), card, target)
    return action
TAKE: Final = Action(ActionKind.TAKE)
PASS: Final = Action(ActionKind.PASS)
EXCHANGE: Final = Action(ActionKind.EXCHANGE)
