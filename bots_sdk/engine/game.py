"""The game state and the turn logic of RULES.md sections 2-7.

``Game`` keeps the true state of one game; ``observation(seat)`` is the
separate view of one player (OpenSpiel's split). The engine asks exactly one
seat at a time for a decision and applies every forced move itself, so after
any ``push``/``apply`` the game rests at the next real decision or at its end.

>>> game = Game.from_deck(Rules.preset("classic", players=2), [
...     "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "6H", "7H", "8H",
...     "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "9H", "TH", "JH",
...     "QH", "KH", "AH", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"])
>>> str(game.trump_card), game.to_act
('6D', 1)
>>> game.apply("attack 7S")
>>> game.legal_actions().texts()
['defend 7S 8S', 'defend 7S AS', 'defend 7S QS', 'take']

Rules decided where RULES.md is silent (the preset's source text agrees):
- A transfer card counts as an attack card for L1 (``bout_limit`` and
  ``first_bout_limit``) like every other card added to the table.
- Drawing after a bout goes clockwise from the main attacker of the moment,
  that is the last player who transferred, if anybody did.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from bots_sdk.engine.actions import ATTACKS, DEFENDS, EXCHANGE, PASS, TAKE, TRANSFERS, Action, ActionKind
from bots_sdk.engine.cards import (
    BEATERS,
    CARDS,
    RANK_LETTERS,
    RANK_MASK_OF_INDEX,
    SUIT_BITS,
    Card,
    CardSet,
    Rank,
    Suit,
    deck_cards,
    suit_mask,
)
from bots_sdk.engine.errors import IllegalActionError, InvalidActionError, InvalidDealError
from bots_sdk.engine.legal import LegalActions
from bots_sdk.engine.outcome import Outcome, Reason
from bots_sdk.engine.rules import Rules

ATTACKING: Final = 0
DEFENDING: Final = 1
OVER: Final = 2

ACTED: Final = 0
"""History entry ``(ACTED, seat, action, forced)``."""
DREW: Final = 1
"""History entry ``(DREW, seat, count, drew_turn_up)``."""

_NO_LIMIT: Final = 1 << 30
_EMPTY_LEGAL: Final = LegalActions([])


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Game:
    """One game of Durak: deal, bouts, drawing and the end, under one ``Rules``.

    Construct with ``Game.new(rules, seed)`` or ``Game.from_deck(rules, deck, dealer)``.
    ``apply`` checks an action and says why it is illegal; ``push`` is the unchecked
    fast path for search, for actions taken from ``legal_actions()``.
    """

    rules: Rules
    dealer: int
    deck: tuple[Card, ...]
    """The deal order: ``deck[0]`` went to the dealer's left."""

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, rules: Rules, seed: int | str | None = None) -> Game:
        """A game dealt from a deck shuffled by ``random.Random(seed)`` (reproducible per seed)."""
        cards = deck_cards(rules.deck)
        random.Random(seed).shuffle(cards)
        return cls.from_deck(rules, cards)

    @classmethod
    def from_deck(cls, rules: Rules, deck: Sequence[Card | str], dealer: int | None = None) -> Game:
        """A game dealt from an explicit deck order; ``dealer`` defaults to seat ``players - 1``."""
        n = rules.players
        if dealer is None:
            dealer = n - 1
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise InvalidDealError(f"dealer: {dealer!r} is not a seat of a {n}-player game")
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
        expected = deck_cards(rules.deck)
        if len(cards) != len(expected) or set(cards) != set(expected):
            seen: set[Card] = set()
            for i, card in enumerate(cards):
                if card in seen:
                    raise InvalidDealError(f"deck[{i}]: {card} appears twice")
                if card not in expected:
                    raise InvalidDealError(f"deck[{i}]: {card} is not in the {rules.deck}-card deck")
                seen.add(card)
            missing = sorted(set(expected) - seen)
            raise InvalidDealError(
                f"deck: holds {len(cards)} cards, the {rules.deck}-card deck needs {len(expected)}"
                + (f" (missing {', '.join(map(str, missing[:5]))})" if missing else "")
            )
        game = object.__new__(cls)
        game._setup(rules, tuple(cards), dealer)
        return game

    def _setup(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> None:
        n = rules.players
        self.rules = rules
        self.dealer = dealer
        self.deck = deck
        self._n = n
        self._hand_size = rules.hand_size
        self._early = rules.early_out
        self._multi = rules.multi_card_attacks
        self._transfer = rules.transfer
        self._neighbours = rules.throw_in == "neighbours"
        self._bout_limit = rules.bout_limit if rules.bout_limit is not None else _NO_LIMIT
        self._first_limit = rules.first_bout_limit if rules.first_bout_limit is not None else _NO_LIMIT
        idx = [c.index for c in deck]
        hands = [0] * n
        deal = rules.deal_size
        for i in range(deal):
            hands[(dealer + 1 + i) % n] |= 1 << idx[i]
        known = [0] * n
        if deal < len(idx):
            turn_up = idx[deal]
            self._stock: tuple[int, ...] = (*idx[deal + 1:], turn_up)
        else:
            turn_up = idx[deal - 1]
            self._stock = ()
            known[dealer] |= 1 << turn_up
        self._sp = 0
        self._sleft = len(self._stock)
        trump = turn_up // SUIT_BITS
        self._trump = trump
        self._turn_up = turn_up
        self._trump_mask = suit_mask(trump)
        self._beaters = BEATERS[trump]
        self._trump_drawn_by: int | None = None if self._sleft else dealer
        six = trump * SUIT_BITS + 6
        self._six = six
        self._exchange_ok = (
            rules.trump_exchange and rules.deck != 24 and turn_up != six and self._sleft > 0
        )
        self._hands = hands
        self._known = known
        self._discard = 0
        self._att: list[int] = []
        self._cov: list[int] = []
        self._unbeaten = 0
        self._nunb = 0
        self._ranks = 0
        self._one_rank = -1
        self._bout = 1
        self._attacker = 0
        self._defender = 0
        self._def_start = 0
        self._cap = 0
        self._taken = False
        self._take_hand = 0
        self._phase = ATTACKING
        self._poll = 0
        self._to_act: int | None = None
        self._legal: LegalActions = _EMPTY_LEGAL
        self._out = [False] * n
        self._out_order: list[int] = []
        self._streak = 0
        self._stock_empty_at_start = False
        self._outcome: Outcome | None = None
        self._history: list[tuple[int, int, object, object]] = []
        self._start_bout(self._first_attacker())
        self._advance()

    def _first_attacker(self) -> int:
        left = (self.dealer + 1) % self._n
        if self.rules.first_attacker == "lowest_trump":
            best = None
            for seat, hand in enumerate(self._hands):
                trumps = hand & self._trump_mask
                if trumps:
                    low = (trumps & -trumps).bit_length()
                    if best is None or low < best[0]:
                        best = (low, seat)
            if best is not None:
                return best[1]
        return left

    def clone(self) -> Game:
        """An independent copy, cheap enough to call at every node of a search."""
        game = object.__new__(Game)
        d = self.__dict__.copy()
        d["_hands"] = self._hands[:]
        d["_known"] = self._known[:]
        d["_att"] = self._att[:]
        d["_cov"] = self._cov[:]
        d["_out"] = self._out[:]
        d["_out_order"] = self._out_order[:]
        d["_history"] = self._history[:]
        game.__dict__ = d
        return game

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self._n

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the game waits for; ``None`` once it is over."""
        return self._to_act

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (empty once the game is over)."""
        return self._legal

    @property
    def trump(self) -> Suit:
        return Suit(self._trump)

    @property
    def trump_card(self) -> Card:
        """The turned-up card (after a trump exchange, the six that replaced it)."""
        return CARDS[self._turn_up]  # type: ignore[return-value]

    @property
    def bout(self) -> int:
        return self._bout

    @property
    def attacker(self) -> int:
        """The main attacker of the current bout."""
        return self._attacker

    @property
    def defender(self) -> int:
        return self._defender

    @property
    def stock_size(self) -> int:
        return self._sleft

    def hand(self, seat: int) -> list[Card]:
        """The true hand of ``seat`` (not a player's view: use ``observation`` for that)."""
        return _cards(self._hands[seat])

    def hand_mask(self, seat: int) -> CardSet:
        return self._hands[seat]

    def table(self) -> list[tuple[Card, Card | None]]:
        """Attack cards in the order played, each with the card that beat it, if any."""
        return [(CARDS[a], CARDS[c] if c >= 0 else None) for a, c in zip(self._att, self._cov)]  # type: ignore[misc]

    def decisions(self) -> list[tuple[int, Action]]:
        """The decisions players made, in order (forced moves left out): a record's ``actions``."""
        return [(e[1], e[2]) for e in self._history if e[0] == ACTED and not e[3]]  # type: ignore[misc]

    def steps(self) -> list[tuple[int, Action, bool]]:
        """Every action applied, forced ones included: ``(seat, action, forced)``."""
        return [(e[1], e[2], e[3]) for e in self._history if e[0] == ACTED]  # type: ignore[misc]

    def eligible_attackers(self) -> list[int]:
        """Who may add attack cards now, in priority order (RULES.md section 4)."""
        return self._order()

    def active(self, seat: int) -> bool:
        """Whether ``seat`` still plays: holds cards, or may still draw (RULES.md section 1)."""
        return self._hands[seat] != 0 or (self._sleft > 0 and not self._early)

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (or check it is ``seat``'s turn), then any forced moves.

        Raises ``InvalidActionError`` for text that does not parse and
        ``IllegalActionError`` (saying why) for an action the rules forbid now.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        elif not isinstance(action, Action):
            raise InvalidActionError(f"{action!r} is not an action")
        if self._outcome is not None or action not in self._legal._actions or (
            seat is not None and seat != self._to_act
        ):
            raise IllegalActionError(self.why_illegal(action, self._to_act if seat is None else seat))
        self.push(action)

    def push(self, action: Action) -> None:
        """Apply a legal action without checking it; the fast path for search.

        The caller guarantees that ``action`` is in ``legal_actions()``; anything else
        corrupts the state.
        """
        seat: int = self._to_act  # type: ignore[assignment]
        kind = action.kind
        self._history.append((ACTED, seat, action, False))
        if kind == 1:
            self._attack(seat, action._a)
        elif kind == 2:
            self._defend(action._b, action._a)
        elif kind == 3:
            self._take()
        elif kind == 4:
            self._poll += 1
        elif kind == 5:
            self._transfer_to_next(action._a)
        else:
            self._exchange(seat)
        self._advance()

    def forfeit(self, seat: int, reason: Reason | str, detail: str = "") -> Outcome:
        """End the game with ``seat`` as the durak for a fault (timeout, crash, illegal, protocol)."""
        reason = Reason(reason)
        if not reason.is_forfeit:
            raise ValueError(f"reason: {reason.value!r} is not a forfeit reason")
        if not 0 <= seat < self._n:
            raise ValueError(f"seat: {seat!r} is not a seat of this game")
        if self._outcome is not None:
            raise IllegalActionError("the game is over")
        self._outcome = Outcome(seat, reason, tuple(self._out_order), seat, detail)
        self._finish()
        return self._outcome

    # ------------------------------------------------------------------ the turn logic

    def _start_bout(self, attacker: int) -> None:
        self._attacker = attacker
        self._set_defender(self._next_active(attacker))
        self._taken = False
        self._phase = ATTACKING
        self._poll = 0
        self._one_rank = -1
        self._stock_empty_at_start = self._sleft == 0

    def _set_defender(self, defender: int) -> None:
        """Make ``defender`` the defender now, fixing L2 at their hand size (RULES.md section 4)."""
        self._defender = defender
        start = self._hands[defender].bit_count()
        self._def_start = start
        limit = self._first_limit if self._bout == 1 and self._first_limit < self._bout_limit else self._bout_limit
        self._cap = start if start < limit else limit

    def _next_active(self, seat: int) -> int:
        """The next active seat clockwise after ``seat`` (``seat`` itself if no other is active).

        With partnerships this becomes the next active opponent; every role is computed here.
        """
        n = self._n
        hands = self._hands
        stock_keeps = self._sleft > 0 and not self._early
        for i in range(1, n):
            other = (seat + i) % n
            if stock_keeps or hands[other]:
                return other
        return seat

    def _prev_active(self, seat: int) -> int:
        n = self._n
        hands = self._hands
        stock_keeps = self._sleft > 0 and not self._early
        for i in range(1, n):
            other = (seat - i) % n
            if stock_keeps or hands[other]:
                return other
        return seat

    def _order(self) -> list[int]:
        """The eligible attackers in priority order, from the active players of this moment."""
        d = self._defender
        a = self._attacker
        hands = self._hands
        stock_keeps = self._sleft > 0 and not self._early
        n = self._n
        if n == 2:
            other = 1 - d
            return [other] if stock_keeps or hands[other] else []
        if self._neighbours:
            left = self._next_active(d)
            right = self._prev_active(d)
            candidates = [s for s in (left, right) if s != d]
            order = [a] if a in candidates else []
            for s in candidates:
                if s not in order:
                    order.append(s)
            return order
        order = [a] if a != d and (stock_keeps or hands[a]) else []
        for i in range(1, n):
            s = (d + i) % n
            if s != a and (stock_keeps or hands[s]):
                order.append(s)
        return order

    def _advance(self) -> None:
        """Apply forced moves until a seat has a real decision or the game is over."""
        history = self._history
        while True:
            if self._phase == ATTACKING:
                order = self._order()
                poll = self._poll
                count = len(order)
                lead = not self._att
                while poll < count:
                    seat = order[poll]
                    legal = self._attack_options(seat, lead)
                    if len(legal) > 1:
                        self._poll = poll
                        self._to_act = seat
                        self._legal = LegalActions(legal)
                        return
                    action = legal[0]
                    history.append((ACTED, seat, action, True))
                    if action is PASS:
                        poll += 1
                        continue
                    self._poll = poll
                    self._attack(seat, action._a)
                    break
                else:
                    if self._nunb and not self._taken:
                        self._phase = DEFENDING
                    elif self._end_bout():
                        return
                continue
            if self._phase == DEFENDING:
                legal = self._defend_options()
                d = self._defender
                if len(legal) > 1:
                    self._to_act = d
                    self._legal = LegalActions(legal)
                    return
                history.append((ACTED, d, TAKE, True))
                self._take()
                continue
            return

    def _attack_options(self, seat: int, lead: bool) -> list[Action]:
        hand = self._hands[seat]
        if lead:
            options = [ATTACKS[c] for c in _bits(hand)]
        else:
            d_hand = self._take_hand if self._taken else self._hands[self._defender].bit_count()
            if len(self._att) < self._cap and self._nunb < d_hand:
                options = [ATTACKS[c] for c in _bits(hand & self._ranks)]
            else:
                options = []
            options.append(PASS)
        if self._exchange_ok and hand >> self._six & 1 and self._sleft:
            options.append(EXCHANGE)
        return options  # type: ignore[return-value]

    def _defend_options(self) -> list[Action]:
        d = self._defender
        hand = self._hands[d]
        beaters = self._beaters
        options: list[Action] = []
        for a, c in zip(self._att, self._cov):
            if c < 0:
                base = a * 64
                for b in _bits(hand & beaters[a]):
                    options.append(DEFENDS[base + b])  # type: ignore[arg-type]
        options.append(TAKE)
        if self._transfer and self._nunb == len(self._att) and self._one_rank >= 0:
            cards = hand & RANK_MASK_OF_INDEX[self._one_rank]
            if cards and self._transfer_allowed():
                options.extend(TRANSFERS[c] for c in _bits(cards))  # type: ignore[misc]
        if self._exchange_ok and hand >> self._six & 1 and self._sleft:
            options.append(EXCHANGE)
        return options

    def _transfer_allowed(self) -> bool:
        """The hand and table conditions of a transfer (RULES.md section 4), given a matching card."""
        count = len(self._att) + 1
        limit = self._first_limit if self._bout == 1 and self._first_limit < self._bout_limit else self._bout_limit
        if count > 6 or count > limit:
            return False
        target = self._next_active(self._defender)
        return target != self._defender and self._hands[target].bit_count() >= count

    def _attack(self, seat: int, c: int) -> None:
        bit = 1 << c
        self._hands[seat] ^= bit
        self._known[seat] &= ~bit
        self._att.append(c)
        self._cov.append(-1)
        self._unbeaten |= bit
        self._nunb += 1
        self._ranks |= RANK_MASK_OF_INDEX[c]
        rank = c % SUIT_BITS
        if len(self._att) == 1:
            self._one_rank = rank
        elif rank != self._one_rank:
            self._one_rank = -1
        if c == self._six:
            self._exchange_ok = False
        if self._multi or self._taken:
            self._poll = 0
        else:
            self._phase = DEFENDING

    def _defend(self, a: int, b: int) -> None:
        bit = 1 << b
        d = self._defender
        self._hands[d] ^= bit
        self._known[d] &= ~bit
        self._cov[self._att.index(a)] = b
        self._unbeaten ^= 1 << a
        self._nunb -= 1
        self._ranks |= RANK_MASK_OF_INDEX[b]
        if b == self._six:
            self._exchange_ok = False
        if not self._nunb:
            self._phase = ATTACKING
            self._poll = 0

    def _take(self) -> None:
        self._taken = True
        self._take_hand = self._hands[self._defender].bit_count()
        self._phase = ATTACKING
        self._poll = 0

    def _transfer_to_next(self, c: int) -> None:
        old = self._defender
        bit = 1 << c
        target = self._next_active(old)
        self._hands[old] ^= bit
        self._known[old] &= ~bit
        self._att.append(c)
        self._cov.append(-1)
        self._unbeaten |= bit
        self._nunb += 1
        if c == self._six:
            self._exchange_ok = False
        self._attacker = old
        self._set_defender(target)
        self._poll = 0
        self._phase = ATTACKING if self._multi else DEFENDING

    def _exchange(self, seat: int) -> None:
        six = self._six
        turn_up = self._turn_up
        self._hands[seat] ^= (1 << six) | (1 << turn_up)
        self._known[seat] = (self._known[seat] & ~(1 << six)) | (1 << turn_up)
        self._stock = (*self._stock[:-1], six)
        self._turn_up = six
        self._exchange_ok = False

    def _draw_order(self) -> list[int]:
        """Main attacker, then clockwise skipping the defender, the defender last (RULES.md section 5)."""
        a = self._attacker
        d = self._defender
        n = self._n
        order = [(a + i) % n for i in range(n)]
        order.remove(d)
        order.append(d)
        return order

    def _end_bout(self) -> bool:
        """Clear the table, draw, record who went out, and end the game or start the next bout.

        Returns whether the game is over.
        """
        d = self._defender
        table = 0
        for c in self._att:
            table |= 1 << c
        for c in self._cov:
            if c >= 0:
                table |= 1 << c
        taken = self._taken
        if taken:
            self._hands[d] |= table
            self._known[d] |= table
        else:
            self._discard |= table
        self._att = []
        self._cov = []
        self._unbeaten = 0
        self._nunb = 0
        self._ranks = 0
        order = self._draw_order()
        hands = self._hands
        if self._sleft:
            size = self._hand_size
            stock = self._stock
            for seat in order:
                if not self._sleft:
                    break
                have = hands[seat].bit_count()
                if have >= size or (self._early and not have):
                    continue
                count = min(size - have, self._sleft)
                sp = self._sp
                for c in stock[sp:sp + count]:
                    hands[seat] |= 1 << c
                self._sp = sp + count
                self._sleft -= count
                drew_turn_up = not self._sleft
                if drew_turn_up:
                    self._trump_drawn_by = seat
                    self._known[seat] |= 1 << stock[-1]
                    self._exchange_ok = False
                self._history.append((DREW, seat, count, drew_turn_up))
        went_out = False
        if self._early or not self._sleft:
            for seat in order:
                if not hands[seat] and not self._out[seat]:
                    self._out[seat] = True
                    self._out_order.append(seat)
                    went_out = True
        if self._stock_empty_at_start:
            self._streak = self._streak + 1 if taken and not went_out else 0
        stock_keeps = self._sleft > 0 and not self._early
        active = [s for s in range(self._n) if stock_keeps or hands[s]]
        limit = self.rules.pickup_draw_limit
        if len(active) <= 1:
            self._outcome = Outcome(active[0] if active else None, Reason.NORMAL, tuple(self._out_order))
        elif limit is not None and self._streak >= limit:
            self._outcome = Outcome(None, Reason.PICKUP_LIMIT, tuple(self._out_order))
        elif self._bout >= self.rules.max_bouts:
            self._outcome = Outcome(None, Reason.MAX_BOUTS, tuple(self._out_order))
        else:
            self._bout += 1
            nxt = d if not taken and (stock_keeps or hands[d]) else self._next_active(d)
            self._start_bout(nxt)
            return False
        self._finish()
        return True

    def _finish(self) -> None:
        self._phase = OVER
        self._to_act = None
        self._legal = _EMPTY_LEGAL

    # ------------------------------------------------------------------ explaining

    def why_illegal(self, action: Action, seat: int | None = None) -> str:
        """Why ``action`` by ``seat`` (default: the seat to act) is not allowed now; ``""`` if it is."""
        if self._outcome is not None:
            return "the game is over"
        to_act = self._to_act
        if seat is None:
            seat = to_act
        if seat != to_act:
            return f"seat {seat} is not to act (seat {to_act} is)"
        if action in self._legal._actions:
            return ""
        kind = action.kind
        hand = self._hands[seat]
        generic = f"not a legal action for seat {seat} now"
        if kind is ActionKind.EXCHANGE:
            return self._why_no_exchange(seat)
        if self._phase == ATTACKING:
            if kind is ActionKind.PASS:
                return "the main attacker must lead a card; passing is not allowed before the lead"
            if kind is not ActionKind.ATTACK:
                return generic
            card = action.card
            assert card is not None
            if not hand & card.mask:
                return f"seat {seat} does not hold {card}"
            if self._att and not self._ranks & card.mask:
                return f"no {RANK_LETTERS[card.rank]} is on the table: a throw-in must match a rank on the table"
            return self._why_limit()
        if kind is ActionKind.DEFEND:
            card, target = action.card, action.target
            assert card is not None and target is not None
            if not self._unbeaten & target.mask:
                return f"{target} is not an unbeaten attack card on the table"
            if not hand & card.mask:
                return f"seat {seat} does not hold {card}"
            return f"{card} does not beat {target} (trump is {Suit(self._trump).name.lower()})"
        if kind is ActionKind.TRANSFER:
            return self._why_no_transfer(seat, action)
        return generic

    def _why_limit(self) -> str:
        count = len(self._att)
        if self._bout == 1 and count >= self._first_limit:
            return f"L1: bout 1 already has {count} attack cards (first-bout limit {self._first_limit})"
        if count >= self._bout_limit:
            return f"L1: the bout already has {count} attack cards (limit {self._bout_limit})"
        if count >= self._def_start:
            return f"L2: the bout already has {count} attack cards, the defender started it with {self._def_start}"
        d_hand = self._take_hand if self._taken else self._hands[self._defender].bit_count()
        return f"L3: {self._nunb + 1} unbeaten cards, defender holds {d_hand}"

    def _why_no_transfer(self, seat: int, action: Action) -> str:
        card = action.card
        assert card is not None
        if not self._transfer:
            return "transfers are not allowed under these rules (option transfer is off)"
        if not self._hands[seat] & card.mask:
            return f"seat {seat} does not hold {card}"
        if self._nunb != len(self._att):
            return "a transfer is only allowed before any attack card of the bout is beaten"
        if self._one_rank != card.rank:
            return f"{card} does not match the rank of every attack card on the table"
        count = len(self._att) + 1
        target = self._next_active(self._defender)
        held = self._hands[target].bit_count()
        if held < count:
            return f"the next player (seat {target}) holds {held} cards, a transfer needs at least {count}"
        return f"the table would hold {count} attack cards, more than the bout allows"

    def _why_no_exchange(self, seat: int) -> str:
        if not self.rules.trump_exchange:
            return "the trump exchange is not allowed under these rules (option trump_exchange is off)"
        six = CARDS[self._six]
        if self._turn_up == self._six:
            return f"the turned-up card is already {six}"
        if not self._sleft:
            return "the turned-up card has been drawn"
        if not self._exchange_ok:
            return f"{six} has been on the table, it can no longer be exchanged"
        return f"seat {seat} does not hold {six}"

    def __repr__(self) -> str:
        state = f"over: {self._outcome}" if self._outcome else f"bout {self._bout}, seat {self._to_act} to act"
        return f"<Game {self.rules.preset_name} p{self._n} {state}>"


def _cards(mask: int) -> list[Card]:
    return [CARDS[i] for i in _bits(mask)]  # type: ignore[misc]


__all__ = ["Game", "Rank"]
