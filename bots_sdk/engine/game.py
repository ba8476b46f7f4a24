"""The game state and the turn logic of docs/rules.md sections 2-7.

``Game`` keeps the true state of one game; ``observation(seat)`` is the
separate view of one player (OpenSpiel's split). The engine asks exactly one
seat at a time for a decision and applies every forced move itself, so after
any ``push``/``apply`` the game rests at the next real decision or at its end.

>>> game = Game.from_deck(Rules.preset("classic", players=2), [
...     "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "6H", "7H", "8H",
...     "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "9H", "TH", "JH",
...     "QH", "KH", "AH", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"])
>>> str(game.trump_card), game.to_act, [str(c) for c in game.hand(0)]
('6D', 0, ['6S', '8S', 'TS', 'QS', 'AS', '7H'])
>>> game.apply("attack 6S")
>>> game.legal_actions().texts()
['defend 6S 7S', 'defend 6S 9S', 'defend 6S JS', 'defend 6S KS', 'take']
>>> game.apply("attack 8S", seat=0)
Traceback (most recent call last):
...
bots_sdk.engine.errors.IllegalActionError: seat 0 is not to act (seat 1 is)

The state is kept in integer bitmasks and small lists, and the hot paths are
written out by hand (no helper calls per card): random play through this API
is the figure search bots live on. Rules decided where the sources are silent (docs/rules.md section 11):

- A transfer card counts as an attack card for L1 (``bout_limit`` and
  ``first_bout_limit``) like every other card added to the table.
- Drawing after a bout goes clockwise from the main attacker of the moment,
  that is the last player who transferred, if anybody did.

Partnerships (option ``teams``) keep the turns with the *positions* around the
table, as seed 004's examples play them: a position whose player is out is
played by the next partner (clockwise) who still holds cards, and a position is
skipped only once its whole team is out. The defender is the next position of
another team; who may throw in are the defender's opponents who hold cards,
clockwise from the defender; the turn after a take goes to the next position
after the defender's, whatever its team. Without teams every position is its
own team, and these rules are the individual ones.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import reduce
from operator import xor
from typing import TYPE_CHECKING, Final

from bots_sdk.engine.actions import (
    ATTACKS,
    DEFENDS,
    EXCHANGE,
    KIND_ATTACK,
    KIND_DEFEND,
    KIND_PASS,
    KIND_TAKE,
    KIND_TRANSFER,
    PASS,
    TAKE,
    TRANSFERS,
    Action,
    ActionKind,
    defend_action,
)
from bots_sdk.engine.cards import (
    BEATERS,
    CARDS,
    RANK_LETTERS,
    RANK_MASK_OF_INDEX,
    Card,
    CardSet,
    Suit,
    cards_to_mask,
    deck_cards,
    mask_to_cards,
    suit_mask,
)
from bots_sdk.engine.errors import IllegalActionError, InvalidActionError, InvalidDealError
from bots_sdk.engine.history import ACTED, DREW, Event, HistoryEntry, to_event
from bots_sdk.engine.legal import LegalActions
from bots_sdk.engine.observation import Observation, observe
from bots_sdk.engine.outcome import Outcome, Reason
from bots_sdk.engine.rules import Rules
from bots_sdk.native import mypyc_attr

if TYPE_CHECKING:
    from bots_sdk.engine.watch import Watcher

ATTACKING: Final = 0
DEFENDING: Final = 1
OVER: Final = 2

_NO_LIMIT: Final = 1 << 30
_EMPTY_LEGAL: Final = LegalActions()
_DECK_INDICES: Final = {size: [c.index for c in deck_cards(size)] for size in (36, 52, 24)}
_BIT: Final = [1 << i for i in range(64)]
"""``_BIT[i] == 1 << i``, for bitmasks built by ``map`` at C speed."""
_SWAPS: Final = {size: [(i, (i + 1).bit_length(), i + 1) for i in range(size - 1, 0, -1)] for size in _DECK_INDICES}
"""Per deck size, the steps of ``random.shuffle``: position, bits to draw, bound."""


def _shuffle(order: list[int], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle`` written out: the same permutation for the same generator state.

    Without its two method calls per card it takes half the time, a few percent of a short
    random game (and a seed keeps its deal, which records and golden games rely on)."""
    for i, k, bound in _SWAPS[len(order)]:
        j = getrandbits(k)
        while j >= bound:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]

_DRAW_ORDERS: Final[dict[int, list[tuple[int, ...]]]] = {}
"""Per table size, ``[attacker * n + defender]``: the drawing order of docs/rules.md section 5."""


def _draw_orders(n: int) -> list[tuple[int, ...]]:
    orders = _DRAW_ORDERS.get(n)
    if orders is None:
        orders = []
        for a in range(n):
            for d in range(n):
                seats = [(a + i) % n for i in range(n) if (a + i) % n != d]
                orders.append((*seats, d) if d != a else tuple(seats))
        _DRAW_ORDERS[n] = orders
    return orders


_PAIR_ORDERS: Final[tuple[tuple[int, ...], ...]] = ((1,), (0,))
"""Two players, per defender: who may throw in (the other seat). Typed with ``...``: compiled, a tuple of a fixed
shape is kept unboxed and built anew as an object at every read."""
_THROW_ORDERS: Final[dict[int, list[tuple[int, ...]]]] = {}
"""Per table size, ``[attacker * n + defender]``: who may throw in while every seat is active (the main
attacker, then clockwise from the defender), the common case, looked up instead of built at every poll."""


def _throw_orders(n: int) -> list[tuple[int, ...]]:
    orders = _THROW_ORDERS.get(n)
    if orders is None:
        orders = [
            (a, *((d + i) % n for i in range(1, n) if (d + i) % n != a)) if a != d else ()
            for a in range(n) for d in range(n)
        ]
        _THROW_ORDERS[n] = orders
    return orders


def _defend_actions(a: int, beaters: int) -> list[Action]:
    """The defences of attack card ``a`` by each card of ``beaters``, lowest first."""
    out = []
    base = a << 6
    while beaters:
        low = beaters & -beaters
        slot = base + low.bit_length() - 1
        out.append(DEFENDS[slot] or defend_action(slot))
        beaters ^= low
    return out


def _attack_actions(mask: int) -> list[Action]:
    """The attacks with each card of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ATTACKS[low.bit_length() - 1])
        mask ^= low
    return out


_THROW_INS: Final[dict[int, LegalActions]] = {}
"""The cards that may be thrown in -> their attacks, then ``pass``.

The same few sets recur in every game (some 10,000 in 40,000 random games of two players), so
their legal actions are built once and shared (they are immutable); the first 32,768 met are
kept, a few megabytes, however long a process plays."""


def _throw_ins(cards: int) -> LegalActions:
    legal = LegalActions([*_attack_actions(cards), PASS])
    if len(_THROW_INS) < 1 << 15:
        _THROW_INS[cards] = legal
    return legal


_SUIT_ATTACKS: Final[list[tuple[Action, ...] | None]] = [None] * (4 << 13)
"""Per suit and its cards in a hand, at ``suit << 13 | ranks`` (``ranks``: the suit's block of 16 bits shifted
down by 2, as ranks run from 2 to 14): their attacks, made on first use. A list, not a dict: the compiled
engine reads a list at a small index without boxing or hashing. 2,048 slots are ever used with the
36-card deck, all 32,768 with the 52."""


def _attacks_in(mask: int) -> tuple[Action, ...]:
    """The attack actions for every card of ``mask``, lowest first: a look-up per suit, not a loop per card."""
    suits = _SUIT_ATTACKS
    spades = suits[mask >> 2 & 0x1FFF]
    hearts = suits[0x2000 | mask >> 18 & 0x1FFF]
    diamonds = suits[0x4000 | mask >> 34 & 0x1FFF]
    clubs = suits[0x6000 | mask >> 50]
    if spades is None or hearts is None or diamonds is None or clubs is None:
        for suit in range(4):
            suits[suit << 13 | mask >> (suit * 16 + 2) & 0x1FFF] = tuple(_attack_actions(mask & suit_mask(suit)))
        return _attacks_in(mask)
    return spades + hearts + diamonds + clubs


GAME_SLOTS: Final = (
    "_apos", "_att", "_attacker", "_beaters", "_bout", "_bout_limit", "_cov", "_deck", "_def_start", "_defender",
    "_discard", "_dpos", "_draw_orders", "_drawn", "_early", "_exchange_ok", "_first_limit", "_hand_size",
    "_hands", "_history", "_known", "_legal", "_limit", "_max_bouts", "_members", "_multi", "_n", "_neighbours",
    "_nunb", "_out", "_out_order", "_outcome", "_outs_before", "_phase", "_poll", "_ranks", "_six", "_sleft",
    "_sp", "_stand_ins", "_stock", "_streak", "_table", "_take_hand", "_taken", "_team_of", "_throw_orders",
    "_to_act", "_transfer", "_trump", "_trump_drawn_by", "_trump_mask", "_turn_up", "_watcher", "dealer", "rules",
)
"""``Game``'s slots, public for tools that key positions by them (the solver): a compiled class has no
``__slots__`` to read back."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, it may still be subclassed (the tests' CheckedGame)
class Game:
    """One game of Durak: deal, bouts, drawing and the end, under one ``Rules``.

    Construct with ``Game.new(rules, seed)`` or ``Game.from_deck(rules, deck, dealer)``
    (either may take a ``Watcher``, told of every step), or with
    ``Game.from_observation(observation, hands, stock)`` for a sample of what a seat
    cannot see. ``apply`` checks an action and says why it is illegal; ``push`` is the
    unchecked fast path for search, for actions taken from ``legal_actions()``.

    The state lives in slots with short names, read by the hot loop of ``push``. Cards are
    indices ``suit * 16 + rank`` (``Card.index``); a card set is an int with bit ``index``
    set per card (``CardSet``). A *position* is a place at the table; with teams a partner
    may play another's position (``_actor``), without teams seat and position are one.

    Constant through a game (``_set_rules``):

    - ``rules``, ``dealer``; ``_n`` the number of seats; ``_hand_size`` the size hands are refilled to.
    - ``_early``, ``_multi``, ``_transfer``, ``_neighbours``: the options ``early_out``,
      ``multi_card_attacks``, ``transfer`` and ``throw_in == "neighbours"``.
    - ``_bout_limit``, ``_first_limit``: L1 of later bouts and of bout 1 (``_NO_LIMIT`` for none);
      ``_max_bouts``.
    - ``_draw_orders``, ``_throw_orders``: per ``attacker * n + defender``, the drawing order and who may
      throw in while every seat plays (shared tables, built once per table size).
    - ``_team_of`` (per seat its team, ``None`` without teams), ``_members`` (the teams' seats),
      ``_stand_ins`` (per position, its team's seats clockwise from it).
    - ``_watcher``: the ``Watcher`` told of every step, or ``None``.
    - ``_deck``: the deal order (card indices), for ``deck``.

    The cards:

    - ``_hands``: per seat its card set; ``_known``: per seat the cards of it every seat has seen
      go in (picked up, the drawn turn-up; ``known_mask`` keeps those still held).
    - ``_stock``: card indices top first, the turned-up card last; ``_drawn`` its running XOR
      (``_set_stock``); ``_sp`` how many have been drawn; ``_sleft`` how many are left.
    - ``_trump`` the trump suit, ``_turn_up`` the turned-up card (after an exchange, the six),
      ``_trump_mask`` the trump suit's cards, ``_beaters`` per card the set of cards beating it,
      ``_six`` the trump six, ``_trump_drawn_by`` who drew the turn-up.
    - ``_exchange_ok``: a trump exchange is still possible (``_exchange_possible`` and the six has
      never been on the table).
    - ``_discard``: the discard pile.

    The bout:

    - ``_bout`` its number from 1; ``_limit`` its L1; ``_def_start`` the defender's hand when
      the bout (or the last transfer) started, L2.
    - ``_attacker``, ``_defender``: the main attacker and the defender; ``_apos``, ``_dpos``: the
      positions they play.
    - ``_att``: the attack cards in order; ``_cov``: per attack card the card that beat it, or -1;
      ``_table``: every card on the table; ``_nunb``: how many attack cards are unbeaten;
      ``_ranks``: every card of a rank on the table (what a throw-in may match).
    - ``_taken``: the defender has declared a take; ``_take_hand``: their hand size then (L3).
    - ``_phase``: ``ATTACKING``, ``DEFENDING`` or ``OVER``; ``_poll``: in the attackers' phase, the
      index in the throw-in order of the next seat to ask.

    The game:

    - ``_to_act``: the seat whose decision the game waits for; ``_legal``: its legal actions.
    - ``_out``: per seat, out (safe); ``_out_order``: who went out, in order; ``_outs_before``: how
      many were out when the bout started (for the pick-up streak).
    - ``_streak``: takes in a row towards ``pickup_draw_limit``; ``_outcome``: the end, once over.
    - ``_history``: the public history, ``bots_sdk.engine.history`` entries.
    """

    # Slots, not a ``__dict__``: every step reads and writes a few dozen of them, and a slot is
    # the fastest attribute Python has (a tenth off random play). ``_setup`` (or ``from_observation``)
    # sets them all and ``clone`` copies them all.
    __slots__ = GAME_SLOTS
    rules: Rules
    dealer: int

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, rules: Rules, seed: int | str | random.Random | None = None, watcher: Watcher | None = None) -> Game:
        """A game dealt from a deck shuffled by ``random.Random(seed)`` (reproducible per seed).

        ``seed`` may also be a ``random.Random`` to draw the shuffle from. A ``watcher`` is told
        of every step from the deal on (``bots_sdk.engine.watch``).
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        order = _DECK_INDICES[rules.deck][:]
        if type(rng) is random.Random:
            _shuffle(order, rng.getrandbits)
        else:
            rng.shuffle(order)
        game = cls()
        game._setup(rules, order, rules.players - 1, watcher)
        return game

    @classmethod
    def from_deck(
        cls, rules: Rules, deck: Sequence[Card | str], dealer: int | None = None, watcher: Watcher | None = None
    ) -> Game:
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
        game = cls()
        game._setup(rules, [c.index for c in cards], dealer, watcher)
        return game

    @classmethod
    def from_observation(cls, observation: Observation, hands: Sequence[CardSet], stock: Sequence[Card]) -> Game:
        """The game at the moment ``observation`` shows, with the hidden cards as given: determinization.

        ``hands`` is every seat's whole hand as a card set, the observer's own and the cards
        known to be in each hand included; ``stock`` the stock, top first and, while it holds
        cards, the turned-up card last. Everything public (table, discard, roles, limits, who is
        out, the history) comes from the observation, so the game continues exactly from there.
        ``determinize`` draws the hidden cards at random and calls this.

        Raises ``ValueError`` if the sizes of ``hands`` or ``stock`` differ from the observed ones,
        and ``InvalidDealError`` if with these cards the seat to act would have a single option,
        which the engine would have applied by itself: the observed decision could not have been
        asked then, so the sample contradicts the observation.
        """
        obs = observation
        rules = obs.rules
        sizes = [hand.bit_count() for hand in hands]
        if sizes != list(obs.hand_sizes):
            raise ValueError(f"hands: sizes {sizes}, the observation shows {list(obs.hand_sizes)}")
        if len(stock) != obs.stock_size or (stock and stock[-1] is not obs.trump_card):
            raise ValueError(
                f"stock: {len(stock)} cards, the observation shows {obs.stock_size} with {obs.trump_card} last"
            )
        game = cls()
        game._set_rules(rules, obs.dealer, None)
        game._deck = _DECK_INDICES[rules.deck]  # the deal is not known: the deck in index order stands for it
        game._hands = list(hands)
        game._known = [cards_to_mask(cards) for cards in obs.known_cards]
        game._set_stock([card.index for card in stock])
        game._sp = 0
        game._sleft = len(stock)
        game._set_trump(obs.trump_card.index)
        game._trump_drawn_by = obs.trump_drawn_by
        game._discard = cards_to_mask(obs.discard)
        game._att = [pair.attack.index for pair in obs.table]
        game._cov = [pair.cover.index if pair.cover else -1 for pair in obs.table]
        table = ranks = 0
        for i in (*game._att, *game._cov):
            if i >= 0:
                table |= 1 << i
                ranks |= RANK_MASK_OF_INDEX[i]
        game._table = table
        game._ranks = ranks
        game._nunb = game._cov.count(-1)
        game._bout = obs.bout
        if obs.bout > 1:
            game._limit = game._bout_limit  # ``_set_rules`` set bout 1's
        game._attacker = obs.attacker
        game._defender = obs.defender
        game._apos = obs.attacker_position
        game._dpos = obs.defender_position
        game._def_start = obs.attack_limit  # min(L1, L2) as observed: all that the engine needs of L2
        game._taken = obs.take_declared
        game._take_hand = obs.hand_sizes[obs.defender]  # the defender's hand has not changed since the take
        game._out = list(obs.out)
        game._out_order = list(obs.out_order)
        game._streak = obs.pickups_in_a_row
        history = list(obs._history)
        game._history = history
        six = game._six
        game._exchange_ok = game._exchange_possible() and not any(
            entry[0] == ACTED and entry[2]._a == six for entry in history  # type: ignore[attr-defined]
        )
        # Who went out during this bout counts for the pick-up streak: under ``early_out``, the seats out
        # now that played one of the cards on the table (the history's last card plays, one per card).
        played = set()
        cards = table.bit_count()
        for entry in reversed(history):
            if not cards:
                break
            if entry[0] == ACTED and entry[2]._a >= 0:  # type: ignore[attr-defined]
                played.add(entry[1])
                cards -= 1
        game._outs_before = len(game._out_order) - len(played.intersection(game._out_order))
        game._to_act = None
        game._legal = _EMPTY_LEGAL
        game._outcome = obs.outcome
        if obs.outcome is not None:
            game._finish()
            return game
        to_act = obs.to_act
        if to_act == obs.defender:
            game._phase = DEFENDING
            game._poll = 0
        else:
            game._phase = ATTACKING
            order = game._order()
            game._poll = order.index(to_act) if to_act in order else len(order)
        game.push(None)
        # The property, not ``_to_act``: mypy keeps that narrowed to the None set above, and compiled code trusts it.
        if game.to_act != to_act or len(history) != len(obs._history):
            raise InvalidDealError(
                f"hands: with these cards seat {to_act} would have had a single option, not the observed decision"
            )
        return game

    def _set_rules(self, rules: Rules, dealer: int, watcher: Watcher | None) -> None:
        """The slots that stay constant through a game: the rules' options in the form ``push`` reads."""
        n = rules.players
        self.rules = rules
        self.dealer = dealer
        self._n = n
        self._hand_size = rules.hand_size
        self._early = rules.early_out
        self._multi = rules.multi_card_attacks
        self._transfer = rules.transfer
        self._neighbours = rules.throw_in == "neighbours"
        self._bout_limit = rules.bout_limit if rules.bout_limit is not None else _NO_LIMIT
        self._first_limit = rules.first_bout_limit if rules.first_bout_limit is not None else _NO_LIMIT
        # L1 of the current bout: the first bout's now, ``_end_bout`` sets the later ones'.
        self._limit = min(self._first_limit, self._bout_limit)
        self._max_bouts = rules.max_bouts
        self._watcher = watcher
        self._draw_orders = _draw_orders(n)
        self._throw_orders = _throw_orders(n)
        teams = rules.teams
        self._team_of: list[int] | None = None
        self._members: tuple[tuple[int, ...], ...] = ()
        self._stand_ins: list[tuple[int, ...]] = []
        if teams is not None:
            team_of = [0] * n
            for t, team in enumerate(teams):
                for seat in team:
                    team_of[seat] = t
            self._team_of = team_of
            self._members = teams
            # Per position: its team's seats clockwise from it, the order in which partners stand in.
            self._stand_ins = [
                tuple((p + i) % n for i in range(n) if team_of[(p + i) % n] == team_of[p]) for p in range(n)
            ]

    def _set_trump(self, turn_up: int) -> None:
        """The trump suit's slots, from the turned-up card."""
        trump = turn_up >> 4
        self._trump = trump
        self._turn_up = turn_up
        self._trump_mask = suit_mask(trump)
        self._beaters = BEATERS[trump]
        self._six = (trump << 4) + 6

    def _exchange_possible(self) -> bool:
        """Whether a trump exchange is possible at all: the option is on, the deck has a six, the turned-up
        card is not the six and is still in the stock. (It is also lost for good once the six has been on
        the table, which ``_exchange_ok`` adds.)"""
        rules = self.rules
        return rules.trump_exchange and rules.deck != 24 and self._turn_up != self._six and self._sleft > 0

    def _setup(self, rules: Rules, idx: list[int], dealer: int, watcher: Watcher | None) -> None:
        """Deal ``idx`` (card indices, ``idx[0]`` to the dealer's left) and run to the first decision."""
        n = rules.players
        self._set_rules(rules, dealer, watcher)
        self._deck = idx
        deal = rules.deal_size
        # Dealt one at a time clockwise from the dealer's left: seat s gets every n-th card from its turn.
        hands = [reduce(xor, map(_BIT.__getitem__, idx[(s - dealer - 1) % n:deal:n]), 0) for s in range(n)]
        known = [0] * n
        if deal < len(idx):
            turn_up = idx[deal]
            self._set_stock([*idx[deal + 1:], turn_up])
        else:
            turn_up = idx[deal - 1]
            self._set_stock([])
            known[dealer] |= 1 << turn_up
        self._sp = 0
        self._sleft = len(self._stock)
        self._set_trump(turn_up)
        self._trump_drawn_by: int | None = None if self._sleft else dealer
        self._exchange_ok = self._exchange_possible()
        self._hands = hands
        self._known = known
        self._discard = 0
        self._att: list[int] = []
        self._cov: list[int] = []
        self._table = 0
        self._nunb = 0
        self._ranks = 0
        self._bout = 1
        self._taken = False
        self._take_hand = 0
        self._to_act: int | None = None
        self._legal = _EMPTY_LEGAL
        self._out = [False] * n
        self._out_order: list[int] = []
        self._streak = 0
        self._outcome: Outcome | None = None
        self._history: list[HistoryEntry] = []
        self._start_bout(self._first_attacker())
        self.push(None)

    def _set_stock(self, stock: list[int]) -> None:
        """The stock, top first, and its running XOR: ``_drawn[j] ^ _drawn[i]`` is the cards ``i`` to ``j - 1``,
        so a draw takes them in one operation instead of a loop per card. (XOR, not OR: after a trump
        exchange the six is in the list twice, drawn once and now at the bottom.)"""
        self._stock = stock
        drawn = [0]
        cards = 0
        for c in stock:
            cards ^= 1 << c
            drawn.append(cards)
        self._drawn = drawn

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
        """An independent copy, cheap enough to call at every node of a search.

        Lists changed in place (hands, known cards, table, history) are copied;
        the rarely changed ones (stock, who is out) are replaced, never mutated,
        so copies may share them. A clone is a plain ``Game`` and has no watcher.
        """
        # Every slot written out (tests/engine/test_seams.py checks none is missing): compiled, these are
        # plain stores, and in Python too a loop over the slots would make ``clone`` several times slower.
        game = Game()
        game._apos = self._apos
        game._att = self._att[:]
        game._attacker = self._attacker
        game._beaters = self._beaters
        game._bout = self._bout
        game._bout_limit = self._bout_limit
        game._cov = self._cov[:]
        game._deck = self._deck
        game._def_start = self._def_start
        game._defender = self._defender
        game._discard = self._discard
        game._dpos = self._dpos
        game._draw_orders = self._draw_orders
        game._drawn = self._drawn
        game._early = self._early
        game._exchange_ok = self._exchange_ok
        game._first_limit = self._first_limit
        game._hand_size = self._hand_size
        game._hands = self._hands[:]
        game._history = self._history[:]
        game._known = self._known[:]
        game._legal = self._legal
        game._limit = self._limit
        game._max_bouts = self._max_bouts
        game._members = self._members
        game._multi = self._multi
        game._n = self._n
        game._neighbours = self._neighbours
        game._nunb = self._nunb
        game._out = self._out
        game._out_order = self._out_order
        game._outcome = self._outcome
        game._outs_before = self._outs_before
        game._phase = self._phase
        game._poll = self._poll
        game._ranks = self._ranks
        game._six = self._six
        game._sleft = self._sleft
        game._sp = self._sp
        game._stand_ins = self._stand_ins
        game._stock = self._stock
        game._streak = self._streak
        game._table = self._table
        game._take_hand = self._take_hand
        game._taken = self._taken
        game._team_of = self._team_of
        game._throw_orders = self._throw_orders
        game._to_act = self._to_act
        game._transfer = self._transfer
        game._trump = self._trump
        game._trump_drawn_by = self._trump_drawn_by
        game._trump_mask = self._trump_mask
        game._turn_up = self._turn_up
        game._watcher = None
        game.dealer = self.dealer
        game.rules = self.rules
        return game

    def __copy__(self) -> Game:
        """``copy.copy`` gives an independent game too, not one sharing the hands and history."""
        return self.clone()

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self._n

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deal order: ``deck[0]`` went to the dealer's left."""
        return tuple(CARDS[i] for i in self._deck)

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
        return CARDS[self._turn_up]

    @property
    def trump_drawn_by(self) -> int | None:
        """Who drew the turned-up card (with a whole-deck deal, the dealer, who keeps it)."""
        return self._trump_drawn_by

    @property
    def bout(self) -> int:
        """The bout number, from 1; a transfer does not start a new bout."""
        return self._bout

    @property
    def attacker(self) -> int:
        """The main attacker of the current bout."""
        return self._attacker

    @property
    def defender(self) -> int:
        return self._defender

    @property
    def attacker_position(self) -> int:
        """The position the main attacker plays (differs from ``attacker`` only when standing in with teams)."""
        return self._apos

    @property
    def defender_position(self) -> int:
        return self._dpos

    def partners(self, seat: int) -> tuple[int, ...]:
        """``seat``'s partners under option ``teams`` (empty in individual play)."""
        if self._team_of is None:
            return ()
        return tuple(s for s in self._members[self._team_of[seat]] if s != seat)

    @property
    def take_declared(self) -> bool:
        return self._taken

    @property
    def attack_limit(self) -> int:
        """The most attack cards this bout may hold (L1 and L2 together)."""
        return min(self._limit, self._def_start)

    @property
    def stock_size(self) -> int:
        return self._sleft

    def stock(self) -> list[Card]:
        """The true stock, top first, the turned-up card last (hidden from players: the third argument of
        ``from_observation``)."""
        return [CARDS[i] for i in self._stock[self._sp:]]

    @property
    def pickups_in_a_row(self) -> int:
        """Takes in a row, with an empty stock and nobody going out, towards ``pickup_draw_limit``."""
        return self._streak

    @property
    def out_order(self) -> tuple[int, ...]:
        return tuple(self._out_order)

    def hand(self, seat: int) -> list[Card]:
        """The true hand of ``seat`` (not a player's view: use ``observation`` for that)."""
        return mask_to_cards(self._hands[seat])

    def hand_mask(self, seat: int) -> CardSet:
        return self._hands[seat]

    def hand_size(self, seat: int) -> int:
        return self._hands[seat].bit_count()

    def known_mask(self, seat: int) -> CardSet:
        """Cards of ``seat``'s hand every player knows: picked up from the table, or the drawn turn-up."""
        return self._known[seat] & self._hands[seat]

    def is_out(self, seat: int) -> bool:
        """Whether ``seat`` has gone out: at the end of the bout in which they ran out of cards with the stock
        empty, or under ``early_out`` the moment they played their last card."""
        return self._out[seat]

    def discard_mask(self) -> CardSet:
        return self._discard

    def table(self) -> list[tuple[Card, Card | None]]:
        """Attack cards in the order played, each with the card that beat it, if any."""
        return [(CARDS[a], CARDS[c] if c >= 0 else None) for a, c in zip(self._att, self._cov)]

    def events(self, start: int = 0) -> list[Event]:
        """The public history from its ``start``-th event on: every action (forced ones too) and draw."""
        return [to_event(entry) for entry in self._history[start:]]

    @property
    def event_count(self) -> int:
        """How many events the history holds: ``events(game.event_count)`` later gives what happened since."""
        return len(self._history)

    def decisions(self) -> list[tuple[int, Action]]:
        """The decisions players made, in order (forced moves left out): a record's ``actions``."""
        return [(e[1], e[2]) for e in self._history if e[0] == ACTED and not e[3]]  # type: ignore[misc]

    def steps(self) -> list[tuple[int, Action, bool]]:
        """Every action applied, forced ones included: ``(seat, action, forced)``."""
        return [(e[1], e[2], e[3]) for e in self._history if e[0] == ACTED]  # type: ignore[misc]

    def eligible_attackers(self) -> list[int]:
        """Who may add attack cards now, in priority order (docs/rules.md section 4)."""
        return list(self._order()) if self._outcome is None else []

    def active(self, seat: int) -> bool:
        """Whether ``seat`` still plays: holds cards, or may still draw (docs/rules.md section 1)."""
        return self._hands[seat] != 0 or (self._sleft > 0 and not self._early)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now (docs/rules.md section 9): its own hand and public state only."""
        return observe(self, seat)

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
        if (
            self._outcome is not None
            or not tuple.__contains__(self._legal, action)
            or (seat is not None and seat != self._to_act)
        ):
            raise IllegalActionError(self.why_illegal(action, self._to_act if seat is None else seat))
        self.push(action)

    def forfeit(self, seat: int, reason: Reason | str, detail: str = "") -> Outcome:
        """End the game with ``seat`` as the durak for a fault (timeout, crash, illegal, protocol)."""
        reason = Reason(reason)
        if not reason.is_forfeit:
            raise ValueError(f"reason: {reason.value!r} is not a forfeit reason")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise ValueError(f"seat: {seat!r} is not a seat of this game")
        if self._outcome is not None:
            raise IllegalActionError("the game is over")
        self._outcome = self._ending(seat, reason, seat, detail)
        self._finish()
        return self._outcome

    # ------------------------------------------------------------------ the turn logic

    def _start_bout(self, position: int) -> None:
        """Start a bout led from ``position`` (a seat, or with teams the partner standing in for it)."""
        self._apos = position
        if self._team_of is None:
            self._attacker = position
            if self._sleft and not self._early:  # everybody plays: the next seat defends
                dpos = position + 1 if position + 1 < self._n else 0
            else:
                dpos = self._next_active(position)
            defender = dpos
        else:
            self._attacker = self._actor(position)
            dpos = self._next_opponent(position)
            defender = self._actor(dpos)
        self._dpos = dpos
        self._defender = defender
        self._def_start = self._hands[defender].bit_count()  # for L2 (docs/rules.md section 4)
        self._taken = False
        self._phase = ATTACKING
        self._poll = 0
        self._outs_before = len(self._out_order)

    def _actor(self, position: int) -> int:
        """Who plays ``position``: its own seat, or with teams the next partner holding cards."""
        if self._team_of is None or (self._sleft and not self._early):
            return position
        hands = self._hands
        for seat in self._stand_ins[position]:
            if hands[seat]:
                return seat
        return position

    def _team_plays(self, team: int) -> bool:
        if self._sleft and not self._early:
            return True
        hands = self._hands
        return any(hands[s] for s in self._members[team])

    def _next_opponent(self, position: int, step: int = 1) -> int:
        """The position that defends against ``position``: the next one clockwise of a team still playing.

        ``step`` -1 looks counter-clockwise instead (the defender's other neighbour, under ``neighbours``).
        """
        team_of = self._team_of
        if team_of is None:
            return self._next_active(position) if step == 1 else self._prev_active(position)
        n = self._n
        team = team_of[position]
        for i in range(1, n):
            other = (position + step * i) % n
            if team_of[other] != team and self._team_plays(team_of[other]):
                return other
        return position

    def _next_turn(self, position: int) -> int:
        """The position after ``position`` whose team still plays: who attacks after a take."""
        team_of = self._team_of
        if team_of is None:
            return self._next_active(position)
        n = self._n
        for i in range(1, n + 1):
            other = (position + i) % n
            if self._team_plays(team_of[other]):
                return other
        return position

    def _next_active(self, seat: int) -> int:
        """The next active seat clockwise after ``seat`` (``seat`` itself if no other is active)."""
        n = self._n
        if self._sleft and not self._early:
            return seat + 1 if seat + 1 < n else 0
        hands = self._hands
        for i in range(1, n):
            other = (seat + i) % n
            if hands[other]:
                return other
        return seat

    def _prev_active(self, seat: int) -> int:
        n = self._n
        keeps = self._sleft > 0 and not self._early
        hands = self._hands
        for i in range(1, n):
            other = (seat - i) % n
            if keeps or hands[other]:
                return other
        return seat

    def _order(self) -> tuple[int, ...]:
        """The eligible attackers in priority order, from the active players of this moment.

        A tuple, as the shared orders are: compiled, ``push`` indexes it without a generic call."""
        if self._team_of is not None:
            return tuple(self._team_order())
        d = self._defender
        hands = self._hands
        keeps = self._sleft > 0 and not self._early
        n = self._n
        if n == 2:
            return _PAIR_ORDERS[d] if keeps or hands[1 - d] else ()
        a = self._attacker
        if keeps and not self._neighbours:
            return self._throw_orders[a * n + d]
        if self._neighbours:
            left = self._next_active(d)
            right = self._prev_active(d)
            order = [a] if a != d and a in (left, right) else []
            for s in (left, right):
                if s != d and s not in order:
                    order.append(s)
            return tuple(order)
        order = [a] if a != d and (keeps or hands[a]) else []
        for i in range(1, n):
            s = (d + i) % n
            if s != a and (keeps or hands[s]):
                order.append(s)
        return tuple(order)

    def _team_order(self) -> list[int]:
        """With teams: the defender's opponents who play, the main attacker first, then clockwise.

        Under ``neighbours`` only the players of the opposing positions either side of the defender's.
        """
        a = self._attacker
        team_of = self._team_of
        assert team_of is not None
        dpos = self._dpos
        own = team_of[self._defender]
        if self._neighbours:
            order = [self._actor(self._next_opponent(dpos)), self._actor(self._next_opponent(dpos, -1))]
            if a in order:
                order.remove(a)
                order.insert(0, a)
            return [s for i, s in enumerate(order) if s not in order[:i] and team_of[s] != own]
        keeps = self._sleft > 0 and not self._early
        hands = self._hands
        n = self._n
        order = [a] if keeps or hands[a] else []
        for i in range(1, n):
            s = (dpos + i) % n
            if s != a and team_of[s] != own and (keeps or hands[s]):
                order.append(s)
        return order

    def push(self, action: Action | None) -> None:
        """Apply a legal action without checking it, then any forced moves; the fast path for search.

        The caller guarantees that ``action`` is in ``legal_actions()``; anything else
        corrupts the state. (``None`` applies nothing and only runs the forced moves:
        how a game starts.)

        One loop applies the action, finds the next decision and applies the forced
        moves on the way, with the state in locals rather than a call per step: random
        play through here is the figure search bots live on.
        """
        to_act = self._to_act
        seat = -1 if to_act is None else to_act  # None only at the start, with no action
        history = self._history
        hands = self._hands
        forced = False
        watcher = self._watcher
        while True:
            if action is not None:
                if watcher is not None:
                    watcher.before_step(self, seat, action, forced)
                history.append((ACTED, seat, action, forced))
                kind = action._k
                if kind == KIND_ATTACK:
                    c = action._a
                    bit = action._bit
                    left = hands[seat] ^ bit
                    hands[seat] = left
                    if not left and self._early:
                        self._goes_out(seat)
                    att = self._att
                    att.append(c)
                    self._cov.append(-1)
                    self._table |= bit
                    self._nunb += 1
                    self._ranks |= action._ranks
                    if c == self._six:
                        self._exchange_ok = False
                    if self._multi or self._taken:
                        self._poll = 0
                    else:
                        self._phase = DEFENDING
                elif kind == KIND_DEFEND:
                    b = action._a
                    bit = action._bit
                    left = hands[seat] ^ bit
                    hands[seat] = left
                    if not left and self._early:
                        self._goes_out(seat)
                    cov = self._cov
                    if cov[-1] < 0 and self._att[-1] == action._b:
                        cov[-1] = b
                    else:
                        cov[self._att.index(action._b)] = b
                    self._table |= bit
                    self._nunb -= 1
                    self._ranks |= action._ranks
                    if b == self._six:
                        self._exchange_ok = False
                    if not self._nunb:
                        self._phase = ATTACKING
                        self._poll = 0
                elif kind == KIND_TAKE:
                    self._taken = True
                    self._take_hand = hands[seat].bit_count()
                    self._phase = ATTACKING
                    self._poll = 0
                elif kind == KIND_PASS:
                    self._poll += 1
                elif kind == KIND_TRANSFER:
                    self._transfer_from(seat, action._a)
                else:
                    self._exchange(seat)
                action = None
                if watcher is not None:
                    watcher.after_step(self)
            phase = self._phase
            if phase == DEFENDING:
                d = self._defender
                hand = hands[d]
                beaters = self._beaters
                cov = self._cov
                if self._nunb == 1 and cov[-1] < 0:
                    # One card to beat, most defences of a game: the loop of ``_defend_actions`` written out.
                    a = self._att[-1]
                    m = hand & beaters[a]
                    base = a << 6
                    options = []
                    while m:
                        low = m & -m
                        slot = base + low.bit_length() - 1
                        options.append(DEFENDS[slot] or defend_action(slot))
                        m ^= low
                else:
                    options = []
                    for a, c in zip(self._att, cov):
                        if c < 0:
                            options += _defend_actions(a, hand & beaters[a])
                if self._transfer and self._nunb == len(self._att):
                    # Nothing beaten yet: ``ranks`` holds the attack cards' ranks, and a transfer needs one.
                    ranks = self._ranks
                    m = hand & ranks if not ranks & (ranks - 1) & 0xFFFF else 0
                    if m and self._transfer_allowed():
                        while m:
                            low = m & -m
                            options.append(TRANSFERS[low.bit_length() - 1])
                            m ^= low
                if self._exchange_ok and hand >> self._six & 1:
                    options.append(EXCHANGE)
                if options:
                    options.append(TAKE)
                    self._to_act = d
                    self._legal = LegalActions(options)
                    return
                seat, action, forced = d, TAKE, True
                continue
            if phase == OVER:
                return
            if not self._att:
                # The lead: the main attacker must play a card.
                seat = self._attacker
                hand = hands[seat]
                leads = _attacks_in(hand)
                if self._exchange_ok and hand >> self._six & 1:
                    leads += (EXCHANGE,)
                if len(leads) > 1:
                    self._to_act = seat
                    self._legal = LegalActions(leads)
                    return
                action, forced = leads[0], True
                continue
            if self._n == 2:
                d = self._defender
                order = _PAIR_ORDERS[d] if hands[1 - d] or (self._sleft and not self._early) else ()
            else:
                order = self._order()
            poll = self._poll
            count = len(order)
            if poll < count:
                cards = len(self._att)
                ranks = self._ranks if (
                    cards < self._limit and cards < self._def_start
                    and self._nunb < (self._take_hand if self._taken else hands[self._defender].bit_count())
                ) else 0
                exchange_ok = self._exchange_ok
                while poll < count:
                    seat = order[poll]
                    hand = hands[seat]
                    m = hand & ranks
                    exchange = exchange_ok and hand >> self._six & 1
                    if m or exchange:
                        self._poll = poll
                        self._to_act = seat
                        if exchange:
                            self._legal = LegalActions([*_attack_actions(m), EXCHANGE, PASS])
                        else:
                            self._legal = _THROW_INS.get(m) or _throw_ins(m)
                        return
                    history.append((ACTED, seat, PASS, True))
                    poll += 1
            if self._nunb and not self._taken:
                self._phase = DEFENDING
            elif watcher is None:
                if self._end_bout():
                    return
            else:
                watcher.before_bout_end(self)
                over = self._end_bout()
                watcher.after_bout_end(self, over)
                if over:
                    return

    def _transfer_allowed(self) -> bool:
        """The hand and table conditions of a transfer (docs/rules.md section 4), given a matching card."""
        count = len(self._att) + 1
        if count > 6 or count > self._limit:
            return False
        target = self._transfer_target()[1]
        return target != self._defender and self._hands[target].bit_count() >= count

    def _transfer_target(self) -> tuple[int, int]:
        """Where a transfer now would send the attack: the next position of another team still playing
        after the defender's, and the seat that plays it (``_actor``)."""
        dpos = self._next_opponent(self._dpos)
        return dpos, self._actor(dpos)

    def _transfer_from(self, old: int, c: int) -> None:
        dpos, target = self._transfer_target()
        bit = 1 << c
        self._hands[old] ^= bit
        if not self._hands[old] and self._early:
            self._goes_out(old)
        self._att.append(c)
        self._cov.append(-1)
        self._table |= bit
        self._nunb += 1
        if c == self._six:
            self._exchange_ok = False
        self._attacker = old
        self._apos = self._dpos
        self._dpos = dpos
        self._defender = target
        self._def_start = self._hands[target].bit_count()  # L2 starts again for the new defender
        self._poll = 0
        self._phase = ATTACKING if self._multi else DEFENDING

    def _goes_out(self, seat: int) -> None:
        """Under ``early_out``, ``seat`` has just played its last card: it is out at once, not at the end of the bout.

        The lists are replaced, not changed in place: clones share them."""
        self._out = [*self._out[:seat], True, *self._out[seat + 1:]]
        self._out_order = [*self._out_order, seat]

    def _exchange(self, seat: int) -> None:
        six = self._six
        turn_up = self._turn_up
        self._hands[seat] ^= (1 << six) | (1 << turn_up)
        self._known[seat] |= 1 << turn_up
        self._set_stock([*self._stock[:-1], six])
        self._turn_up = six
        self._exchange_ok = False

    def _end_bout(self) -> bool:
        """Clear the table, draw, record who went out, and end the game or start the next bout.

        Returns whether the game is over.
        """
        d = self._defender
        n = self._n
        hands = self._hands
        table = self._table
        taken = self._taken
        if taken:
            # ``x[i] = x[i] | y``, not ``x[i] |= y``: compiled, the augmented form on a list item is a generic call.
            hands[d] = hands[d] | table
            known = self._known
            known[d] = known[d] | table
        else:
            self._discard |= table
        self._att = []
        self._cov = []
        self._table = 0
        self._nunb = 0
        self._ranks = 0
        order = self._draw_orders[self._attacker * n + d]
        sleft = stock_at_start = self._sleft  # nothing is drawn during a bout: its size at the bout's start
        if sleft:
            size = self._hand_size
            drawn = self._drawn
            sp = self._sp
            early = self._early
            history = self._history
            for seat in order:
                hand = hands[seat]
                count = size - hand.bit_count()
                if count <= 0 or (early and not hand):
                    continue
                if count > sleft:
                    count = sleft
                hands[seat] = hand | (drawn[sp + count] ^ drawn[sp])
                sp += count
                sleft -= count
                if not sleft:
                    self._trump_drawn_by = seat
                    self._known[seat] |= 1 << self._stock[-1]
                    self._exchange_ok = False
                    history.append((DREW, seat, count, True))
                    break
                history.append((DREW, seat, count, False))
            self._sp = sp
            self._sleft = sleft
            if sleft and not early:
                # Cards left to draw: nobody is out and every seat is active.
                if self._bout >= self._max_bouts:
                    self._outcome = self._ending(None, Reason.MAX_BOUTS)
                    self._finish()
                    return True
                self._bout += 1
                self._limit = self._bout_limit
                dpos = self._dpos
                self._start_bout(dpos if not taken else dpos + 1 if dpos + 1 < n else 0)
                return False
        if not self._early and not self._sleft:
            # Out after drawing, in drawing order (under ``early_out``, ``_goes_out`` has already listed them).
            for seat in order:
                if not hands[seat] and not self._out[seat]:
                    self._out = [*self._out[:seat], True, *self._out[seat + 1:]]
                    self._out_order = [*self._out_order, seat]
        if not stock_at_start:
            went_out = len(self._out_order) > self._outs_before
            self._streak = self._streak + 1 if taken and not went_out else 0
        keeps = self._sleft > 0 and not self._early
        team_of = self._team_of
        if team_of is None:
            active = n if keeps else n - hands.count(0)
        else:
            active = sum(map(self._team_plays, range(len(self._members))))
        limit = self.rules.pickup_draw_limit
        if active <= 1:
            durak = None if active == 0 else next(s for s in range(n) if hands[s])
            self._outcome = self._ending(durak, Reason.NORMAL)
        elif limit is not None and self._streak >= limit:
            self._outcome = self._ending(None, Reason.PICKUP_LIMIT)
        elif self._bout >= self._max_bouts:
            self._outcome = self._ending(None, Reason.MAX_BOUTS)
        else:
            self._bout += 1
            self._limit = self._bout_limit
            dpos = self._dpos
            if team_of is None:
                beaten_off_leads = keeps or hands[dpos]
            else:
                beaten_off_leads = self._team_plays(team_of[dpos])
            self._start_bout(dpos if not taken and beaten_off_leads else self._next_turn(dpos))
            return False
        self._finish()
        return True

    def _ending(self, durak: int | None, reason: Reason, offender: int | None = None, detail: str = "") -> Outcome:
        """The outcome, with the losing team's seats (the durak's team) in a team game."""
        losers = None
        if self._team_of is not None:
            losers = () if durak is None else self._members[self._team_of[durak]]
        return Outcome(durak, reason, tuple(self._out_order), offender, detail, losers)

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
        assert seat is not None
        if tuple.__contains__(self._legal, action):
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
            if not any(a == target.index and c < 0 for a, c in zip(self._att, self._cov)):
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
        if self._ranks & 0xFFFF != 1 << card.rank:
            return f"{card} does not match the rank of every attack card on the table"
        count = len(self._att) + 1
        target = self._transfer_target()[1]
        if target == self._defender:
            return "nobody else is left to defend: a transfer needs another player to pass the attack to"
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


