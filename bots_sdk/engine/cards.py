"""Cards, suits, ranks and card sets as integer bitmasks.

A card is bit ``suit * 16 + rank`` of a card set, so a whole hand is one ``int``
and set operations (``&``, ``|``, ``bit_count``) replace loops. That is what
keeps random play above several thousand games a second in pure Python.
``Card`` objects are interned: there is exactly one object per card, so
comparisons by identity are correct and creating one costs a dictionary look-up.

>>> Card.parse("TD")
Card.parse('TD')
>>> str(Card.parse("10♦"))
'TD'
>>> Card.parse("6S").beats(Card.parse("AH"), trump=Suit.SPADES)
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar, Final

from bots_sdk.engine.errors import InvalidCardError

CardSet = int
"""A set of cards: bit ``card.index`` is set for each member."""


class Suit(enum.IntEnum):
    """The four suits, in the order of their text letters ``S H D C``."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read ``S``/``H``/``D``/``C`` (any case) or the symbols ``♠ ♥ ♦ ♣``."""
        suit = _SUIT_BY_TEXT.get(text.strip().upper())
        if suit is None:
            raise InvalidCardError(f"{text!r} is not a suit (use S, H, D, C or ♠ ♥ ♦ ♣)")
        return suit


class Rank(enum.IntEnum):
    """Ranks by their face value, so ``Rank.ACE > Rank.KING`` holds."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]


SUIT_LETTERS: Final = {Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D", Suit.CLUBS: "C"}
RANK_LETTERS: Final = {r: ("T" if r == 10 else "JQKA"[r - 11] if r > 10 else str(int(r))) for r in Rank}
_SUIT_BY_TEXT: Final = {
    **{letter: suit for suit, letter in SUIT_LETTERS.items()},
    "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}
_RANK_BY_TEXT: Final = {**{letter: rank for rank, letter in RANK_LETTERS.items()}, "10": Rank.TEN}

SUIT_BITS: Final = 16
"""Bits reserved per suit in a card set; ranks 2..14 use bits 2..14 of each block."""


class Card:
    """One playing card; immutable and interned (``Card(rank, suit) is Card(rank, suit)``)."""

    __slots__ = ("_text", "index", "mask", "rank", "suit")
    _interned: ClassVar[dict[tuple[int, int], Card]] = {}

    rank: Rank
    """The face value, ``Rank.SIX`` to ``Rank.ACE`` (``Rank.TWO`` upwards with 52 cards)."""
    suit: Suit
    """The suit."""
    index: int
    """The card's bit position in a card set: ``suit * 16 + rank``."""
    mask: CardSet
    """The card set holding only this card."""
    _text: str

    def __new__(cls, rank: int, suit: int) -> Card:
        card = cls._interned.get((rank, suit))
        if card is None:
            raise InvalidCardError(f"no card of rank {rank!r} and suit {suit!r}")
        return card

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", suit * SUIT_BITS + rank)
        object.__setattr__(card, "mask", 1 << (suit * SUIT_BITS + rank))
        object.__setattr__(card, "_text", rank.letter + suit.letter)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (int(self.rank), int(self.suit)))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``TD``, ``10D``, ``td`` or ``10♦``; raise ``InvalidCardError`` otherwise."""
        if not isinstance(text, str):
            raise InvalidCardError(f"{text!r} is not a card (expected text like 'TD')")
        cleaned = text.strip()
        if len(cleaned) < 2:
            raise InvalidCardError(f"{text!r} is not a card (expected rank then suit, like 'TD')")
        rank = _RANK_BY_TEXT.get(cleaned[:-1].upper())
        suit = _SUIT_BY_TEXT.get(cleaned[-1].upper())
        if rank is None or suit is None:
            raise InvalidCardError(
                f"{text!r} is not a card (ranks 2-9 T J Q K A, suits S H D C or ♠ ♥ ♦ ♣)"
            )
        return CARDS[suit * SUIT_BITS + rank]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at bit ``index`` of a card set."""
        card = CARDS[index] if isinstance(index, int) and 0 <= index < len(CARDS) else None
        if card is None:
            raise InvalidCardError(f"{index!r} is not a card index")
        return card

    def beats(self, other: Card, trump: Suit) -> bool:
        """Whether this card beats ``other``: higher in its suit, or a trump over a non-trump."""
        if self.suit == other.suit:
            return self.rank > other.rank
        return self.suit == trump

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        """Order by rank, then suit: a fixed order for sets of cards (a hand for people: ``sort_hand``)."""
        return (self.rank, self.suit) < (other.rank, other.suit)


CARDS: Final[list[Card]] = [None] * (4 * SUIT_BITS)  # type: ignore[list-item]
"""Cards by index; slots of indexes that are no card stay None."""
for _suit in Suit:
    for _rank in Rank:
        CARDS[_suit * SUIT_BITS + _rank] = Card._make(_rank, _suit)

DECK_RANKS: Final = {
    36: tuple(Rank(r) for r in range(6, 15)),
    52: tuple(Rank(r) for r in range(2, 15)),
    24: tuple(Rank(r) for r in range(9, 15)),
}
"""The ranks each deck option holds."""


def deck_cards(size: int) -> list[Card]:
    """The cards of a deck in a fixed order (suit by suit, low to high): the order a seed shuffles."""
    return [CARDS[s * SUIT_BITS + r] for s in Suit for r in DECK_RANKS[size]]


def suit_order(trump: Suit) -> tuple[Suit, Suit, Suit, Suit]:
    """The suits as a player holds them under ``trump``: the trumps last, and red and black alternating.

    The three plain suits are two of the other colour than the trump's, with the one of the trump's colour
    between them; the two go in the order ♠ ♥ ♣ ♦. So under ♦ it is ♠ ♥ ♣ ♦, under ♣ ♥ ♠ ♦ ♣.

    >>> [suit.letter for suit in suit_order(Suit.HEARTS)]
    ['S', 'D', 'C', 'H']
    """
    plain = [suit for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS) if suit != trump]
    other = [suit for suit in plain if is_red(suit) != is_red(trump)]
    (same,) = (suit for suit in plain if is_red(suit) == is_red(trump))
    return other[0], same, other[1], trump


def sort_hand(cards: Iterable[Card], trump: Suit) -> list[Card]:
    """``cards`` as a player holds them: grouped by suit in ``suit_order(trump)``, each suit low to high, so
    the trumps come last and the highest trump is the last card. The replay viewer and the tables show every
    hand in this order.

    >>> hand = [Card.parse(text) for text in "AH 6S 7D TS 6H".split()]
    >>> " ".join(map(str, sort_hand(hand, Suit.HEARTS)))
    '6S TS 7D 6H AH'
    """
    position = {suit: place for place, suit in enumerate(suit_order(trump))}
    return sorted(cards, key=lambda card: (position[card.suit], card.rank))


def is_red(suit: Suit) -> bool:
    """Hearts and diamonds."""
    return suit in (Suit.HEARTS, Suit.DIAMONDS)


def deck_mask(size: int) -> CardSet:
    return cards_to_mask(deck_cards(size))


def suit_mask(suit: int) -> CardSet:
    """Every card of ``suit`` (all 16 bit positions of its block)."""
    return 0xFFFF << (suit * SUIT_BITS)


def rank_mask(rank: int) -> CardSet:
    """Every card of ``rank``, one bit in each suit block."""
    return (1 << rank) * 0x0001_0001_0001_0001


def cards_to_mask(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def mask_to_cards(mask: CardSet) -> list[Card]:
    """The cards of a set, lowest bit first (suit by suit, low rank first)."""
    cards: list[Card] = []
    while mask:
        low = mask & -mask
        cards.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return cards


BEATERS: Final[list[list[CardSet]]] = [[0] * (4 * SUIT_BITS) for _ in Suit]
"""``BEATERS[trump][index]``: every card (of any deck) that beats the card at ``index``."""
for _trump in Suit:
    for _index, _card in enumerate(CARDS):
        if _card is None:
            continue
        higher = suit_mask(_card.suit) & ~((2 << _card.index) - 1)
        BEATERS[_trump][_index] = higher | (suit_mask(_trump) if _card.suit != _trump else 0)

RANK_OF_INDEX: Final = [i % SUIT_BITS for i in range(4 * SUIT_BITS)]
RANK_MASK_OF_INDEX: Final = [rank_mask(i % SUIT_BITS) for i in range(4 * SUIT_BITS)]
"""For a card index, every card of the same rank: throw-ins need it per table card."""
