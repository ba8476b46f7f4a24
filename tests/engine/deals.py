"""Hand-arranged decks for the rules tests (``test_rules_*.py``).

docs/rules.md section 2: ``deck[0]`` goes to the dealer's left, then one card at a time
clockwise until everyone holds ``hand_size``; ``deck[N*hand_size]`` is turned up and
the stock is drawn from ``deck[N*hand_size+1]`` on, the turned-up card last.
``deck_order`` inverts that: from the hands each seat should hold, the turn-up and
the top of the stock, it builds the full deck order (the cards not named are put
below the named stock cards, in plain deck order). ``test_rules_deal.py`` checks the
deal itself against a raw deck list, independently of this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots_sdk.engine import Card, Game, Rules

RANKS_BY_DECK: dict[int, str] = {36: "6789TJQKA", 52: "23456789TJQKA", 24: "9TJQKA"}
SUITS = "SHDC"


def full_deck(size: int = 36) -> list[str]:
    """Every card of a ``size``-card deck as text, suit by suit (S H D C), low to high."""
    return [rank + suit for suit in SUITS for rank in RANKS_BY_DECK[size]]


def _text(card: str) -> str:
    return str(Card.parse(card))


def deck_order(
    hands: Sequence[Sequence[str]],
    turn_up: str | None,
    stock: Sequence[str] = (),
    *,
    dealer: int | None = None,
    deck: int = 36,
) -> list[str]:
    """The deck order that deals ``hands[seat]`` to each seat.

    ``turn_up`` is the card turned up after the deal (``None`` when the hands use the
    whole deck: then the dealer's last card is the trump card). ``stock`` lists the
    first cards to be drawn, top first; the remaining cards follow in plain order.
    """
    n = len(hands)
    if not 2 <= n <= 6:
        raise ValueError(f"{n} hands: a table has 2 to 6 seats")
    if dealer is None:
        dealer = n - 1
    size = len(hands[0])
    if any(len(hand) != size for hand in hands):
        raise ValueError(f"every hand must hold {size} cards: {[len(h) for h in hands]}")
    order = [_text(hands[(dealer + 1 + j) % n][k]) for k in range(size) for j in range(n)]
    if turn_up is not None:
        order.append(_text(turn_up))
    order += [_text(card) for card in stock]
    cards = full_deck(deck)
    seen: set[str] = set()
    for card in order:
        if card in seen:
            raise ValueError(f"{card} is named twice")
        if card not in cards:
            raise ValueError(f"{card} is not in the {deck}-card deck")
        seen.add(card)
    rest = [card for card in cards if card not in seen]
    if turn_up is None and (rest or stock):
        raise ValueError("without a turn-up card the hands must use the whole deck")
    return order + rest


def deal(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    turn_up: str | None,
    stock: Sequence[str] = (),
    *,
    dealer: int | None = None,
) -> Game:
    """A game in which seat ``i`` is dealt exactly ``hands[i]`` (see ``deck_order``)."""
    if len(hands) != rules.players:
        raise ValueError(f"{len(hands)} hands for {rules.players} players")
    if any(len(hand) != rules.hand_size for hand in hands):
        raise ValueError(f"every hand must hold hand_size={rules.hand_size} cards")
    order = deck_order(hands, turn_up, stock, dealer=dealer, deck=rules.deck)
    return Game.from_deck(rules, order, dealer=dealer)


def play(game: Game, *moves: tuple[int, str]) -> None:
    """Apply decisions in order, each checked to be by the given seat."""
    for seat, action in moves:
        game.apply(action, seat=seat)


def legal(game: Game) -> list[str]:
    """The legal actions of the seat to act, as sorted texts."""
    return game.legal_actions().texts()


def hand(game: Game, seat: int) -> set[str]:
    """The cards ``seat`` holds, as texts."""
    return {str(card) for card in game.hand(seat)}


def steps(game: Game) -> list[tuple[int, str, bool]]:
    """Every action applied so far as ``(seat, text, forced)``."""
    return [(seat, str(action), forced) for seat, action, forced in game.steps()]


def decisions(game: Game) -> list[tuple[int, str]]:
    """The decisions players made (forced moves left out) as ``(seat, text)``."""
    return [(seat, str(action)) for seat, action in game.decisions()]


def table(game: Game) -> list[tuple[str, str | None]]:
    """The table as ``(attack, cover or None)`` texts."""
    return [(str(a), None if c is None else str(c)) for a, c in game.table()]


# ---------------------------------------------------------------- a short game with an empty stock

WHOLE_24_BOUT_1: list[tuple[int, str]] = [
    (0, "attack 9S"), (1, "defend 9S TS"), (0, "attack 9H"), (1, "defend 9H JH"), (0, "attack JS"),
    (1, "defend JS QS"), (0, "attack 9D"), (1, "defend 9D TD"), (0, "attack TH"), (1, "defend TH QH"),
]
"""Bout 1 of ``whole_24_game``: seat 0 attacks five cards, seat 1 beats them all (the first-bout limit
of 5 then forces seat 0's pass), so seat 1 attacks bout 2."""

WHOLE_24_BOUT_2: list[tuple[int, str]] = [
    (1, "attack JD"), (0, "defend JD QD"), (1, "attack QC"), (0, "defend QC KC"), (1, "attack KS"),
    (0, "defend KS AS"), (1, "attack KH"), (0, "defend KH AH"), (1, "attack KD"), (0, "defend KD AD"),
    (1, "attack JC"), (0, "defend JC AC"),
]
"""Bout 2 of ``whole_24_game``: seat 1 attacks six cards, seat 0 beats them all (bout_limit 6 then forces
seat 1's pass); each seat is left with its last card and seat 0 attacks bout 3."""


def whole_24_game(last_0: str, last_1: str, **changes: object) -> Game:
    """Two players, 24-card deck, 12 cards each: the whole deck is dealt and the stock is empty.

    Trump is clubs (JC, the dealer's last card). Seat 0 attacks first (``dealer_left``).
    ``last_0`` and ``last_1`` are 9C and TC in some order: the card each seat keeps for bout 3.
    """
    if {last_0, last_1} != {"9C", "TC"}:
        raise ValueError("the last cards are 9C and TC")
    rules = Rules.preset("classic", players=2).replace(
        deck=24, hand_size=12, first_attacker="dealer_left", **changes
    )
    seat_0 = ["9S", "9H", "JS", "9D", "TH", "QD", "KC", "AS", "AH", "AD", "AC", last_0]
    seat_1 = ["TS", "JH", "QS", "TD", "QH", "JD", "QC", "KS", "KH", "KD", last_1, "JC"]
    return deal(rules, [seat_0, seat_1], None)


# ---------------------------------------------------------------- a stock of four cards

SIXTEEN_HANDS: list[list[str]] = [
    ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "6H", "7H", "8H", "9H", "TH", "JH", "QH"],
    ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "6D", "7D", "8D", "9D", "TD", "JD", "QD"],
]
"""Two hands of 16 (``hand_size=16``, two players): with ``SIXTEEN_TURN_UP`` and ``SIXTEEN_STOCK`` the
stock holds AH, KH, AD and then the turned-up KD (trump diamonds). Seat 1 holds 6D and attacks; seat 0
holds neither clubs nor diamonds, so it must take every club seat 1 leads."""
SIXTEEN_TURN_UP = "KD"
SIXTEEN_STOCK = ["AH", "KH", "AD"]


def sixteen_game(**changes: object) -> Game:
    """The ``SIXTEEN_HANDS`` deal under ``classic`` with ``hand_size=16`` (and ``changes``)."""
    rules = Rules.preset("classic", players=2).replace(hand_size=16, **changes)
    return deal(rules, SIXTEEN_HANDS, SIXTEEN_TURN_UP, SIXTEEN_STOCK)


def take_a_club(game: Game, rank: str) -> None:
    """In ``sixteen_game``: seat 1 leads the club of ``rank``, seat 0 must take, seat 1 adds nothing.

    ``rank`` is 6 to Q, so seat 1 still holds the diamond of that rank and its pass is a real decision.
    """
    play(game, (1, f"attack {rank}C"), (1, "pass"))
