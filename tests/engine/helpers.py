"""Shared helpers of the engine property, observation and record tests.

``CheckedGame`` is a ``Game`` that checks every transition against a small,
independent model of docs/rules.md written from the spec (roles, polling order,
legal actions, limits L1-L3, end of a bout, drawing, going out, the end of the
game). It watches the engine through the public ``Watcher`` calls (every step and
every end of a bout), so it sees forced moves as well as decisions. Forced passes
of attackers are not announced (they only go into the history), so they are
checked from ``events()``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from bots_sdk.engine import Action, ActionKind, Card, Event, Game, GameRecord, Outcome, Reason, Rules, Watcher
from bots_sdk.engine.cards import deck_mask
from bots_sdk.engine.replay import replay

PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "classic": (2, 3, 4, 5, 6), "transfer": (2, 3, 4, 5, 6), "kawu": (2,), "table": (2, 3, 4, 5, 6),
    "house": (2, 3, 4, 5), "pagat": (2, 3, 4, 5, 6), "pagat-pairs": (4, 6), "pagat-trios": (6,),
}
"""docs/rules.md section 8, the ``players`` row, and the team layouts of section 7."""

CONFIGS: list[tuple[str, int]] = [(preset, players) for preset, counts in PLAYER_COUNTS.items() for players in counts]
"""Every preset with every table size it allows."""


def team_of(rules: Rules, seat: int) -> tuple[int, ...]:
    """The seats of ``seat``'s team (just ``seat`` in individual play)."""
    return next((team for team in rules.teams if seat in team), (seat,)) if rules.teams else (seat,)


def mask_of(cards: Iterator[Card] | list[Card] | set[Card] | tuple[Card, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def stock_list(game: Game) -> list[int]:
    """The card indices still in the stock, top first (the turned-up card last)."""
    return [card.index for card in game.stock()]


def table_cards(game: Game) -> list[Card]:
    return [card for pair in game.table() for card in pair if card is not None]


def check_conservation(game: Game) -> None:
    """Hands + table + discard + stock hold the whole deck, each card exactly once."""
    stock = stock_list(game)
    assert len(stock) == game.stock_size, f"stock list {len(stock)} cards, stock_size {game.stock_size}"
    assert len(set(stock)) == len(stock), f"the stock holds a card twice: {stock}"
    tabled = table_cards(game)
    assert len(set(tabled)) == len(tabled), f"the table holds a card twice: {tabled}"
    parts: list[tuple[str, int, int]] = [
        (f"hand {s}", game.hand_mask(s), game.hand_size(s)) for s in range(game.players)
    ]
    parts.append(("table", mask_of(tabled), len(tabled)))
    parts.append(("discard", game.discard_mask(), game.discard_mask().bit_count()))
    parts.append(("stock", sum(1 << c for c in stock), len(stock)))
    seen = 0
    count = 0
    for name, mask, size in parts:
        assert mask.bit_count() == size, f"{name}: mask and size disagree"
        assert not seen & mask, f"{name} shares cards with another place"
        seen |= mask
        count += size
    assert seen == deck_mask(game.rules.deck), "cards are missing from hands + table + discard + stock"
    assert count == game.rules.deck


def check_outcome(game: Game) -> None:
    """The end of a game as data is consistent (docs/rules.md section 6, docs/protocol.md section 2)."""
    outcome = game.outcome
    assert outcome is not None
    assert game.to_act is None
    assert len(game.legal_actions()) == 0
    assert (outcome.durak is None) == outcome.draw
    assert outcome.durak not in outcome.out_order
    assert len(set(outcome.out_order)) == len(outcome.out_order)
    assert outcome.out_order == game.out_order
    assert game.bout <= game.rules.max_bouts
    for seat in outcome.out_order:
        assert game.hand_size(seat) == 0, f"seat {seat} is out but holds cards"
        assert game.is_out(seat)
    if game.rules.teams is None:
        assert outcome.losers is None
    else:
        assert outcome.losers == (() if outcome.durak is None else team_of(game.rules, outcome.durak))
    if outcome.reason is Reason.NORMAL:
        holding = [s for s in range(game.players) if game.active(s)]
        assert len({team_of(game.rules, s) for s in holding}) <= 1, f"several teams hold cards: {holding}"
        assert outcome.durak == (holding[0] if holding else None)
        if game.stock_size == 0 or game.rules.early_out:
            assert set(outcome.out_order) | set(holding) == set(range(game.players))
    elif outcome.reason in (Reason.PICKUP_LIMIT, Reason.MAX_BOUTS):
        assert outcome.durak is None
    else:
        assert outcome.durak == outcome.offender


def beats(card: Card, other: Card, trump: int) -> bool:
    """docs/rules.md section 1, written out again."""
    if card.suit == other.suit:
        return card.rank > other.rank
    return int(card.suit) == trump and int(other.suit) != trump


class _Model(Watcher):
    """Passes the engine's steps on to the ``CheckedGame`` they happen in."""

    def before_step(self, game: Game, seat: int, action: Action, forced: bool) -> None:
        assert isinstance(game, CheckedGame)
        game.chk_ready()
        game.chk_step_before(seat, action, forced)

    def after_step(self, game: Game) -> None:
        assert isinstance(game, CheckedGame)
        game.chk_step_after()

    def before_bout_end(self, game: Game) -> None:
        assert isinstance(game, CheckedGame)
        game.chk_ready()
        game.chk_bout_end_before()

    def after_bout_end(self, game: Game, over: bool) -> None:
        assert isinstance(game, CheckedGame)
        game.chk_bout_end_after(over)


class CheckedGame(Game):
    """A ``Game`` whose every transition is checked against an independent model of docs/rules.md."""

    @classmethod
    def new(
        cls, rules: Rules, seed: int | str | random.Random | None = None, watcher: Watcher | None = None
    ) -> CheckedGame:
        assert watcher is None, "a CheckedGame is watched by its model"
        game = super().new(rules, seed, _Model())
        assert isinstance(game, CheckedGame)
        game.chk_ready()
        return game

    def chk_ready(self) -> None:
        """Start the model at the deal, at the engine's first step (a forced one may come before ``new`` returns)."""
        if "chk_bout" in self.__dict__:
            return
        rules = self.rules
        n = rules.players
        dealer = self.dealer
        self.chk_seen = 0
        self.chk_bout = 0
        self.chk_phase = "attack"
        self.chk_poll = 0
        self.chk_attacker = -1
        self.chk_defender = -1
        self.chk_apos = -1
        self.chk_dpos = -1
        self.chk_def_start = 0
        self.chk_taken = False
        self.chk_take_hand = 0
        self.chk_six_tabled = False
        self.chk_streak = 0
        self.chk_empty_at_start = False
        self.chk_public: list[int] = [0] * n
        self.chk_steps = 0
        self.chk_forced = 0
        self.chk_max_attacks = 0
        self.chk_out: list[int] = []
        """Seats out, in the order the model puts them out."""
        self.chk_outs_at_start = 0
        if rules.deal_size >= rules.deck:
            self.chk_public[dealer] |= self.deck[rules.deal_size - 1].mask
        expected = (dealer + 1) % n
        if rules.first_attacker == "lowest_trump":
            trumps = [(c.rank, s) for s in range(n) for c in self.hand(s) if c.suit == self.trump]
            if trumps:
                expected = min(trumps)[1]
        assert self.attacker_position == expected, f"first attacker {self.attacker_position}, expected {expected}"
        self.chk_new_bout(expected)

    # ------------------------------------------------------------------ the model's view of "now"

    def chk_active(self, seat: int) -> bool:
        return self.hand_size(seat) > 0 or (self.stock_size > 0 and not self.rules.early_out)

    # Partnerships (docs/rules.md section 7): turns belong to positions; a position whose player is out is
    # played by the next partner holding cards; roles skip a position only when its whole team is out.

    def chk_plays(self, position: int) -> bool:
        return any(self.chk_active(s) for s in team_of(self.rules, position))

    def chk_actor(self, position: int) -> int:
        n = self.players
        partners = sorted(team_of(self.rules, position), key=lambda s: (s - position) % n)
        return next((s for s in partners if self.chk_active(s)), position)

    def chk_opponent(self, position: int, step: int = 1) -> int:
        """The next position (``step`` -1: the previous one) of another team still playing."""
        own = team_of(self.rules, position)
        for i in range(1, self.players):
            other = (position + step * i) % self.players
            if other not in own and self.chk_plays(other):
                return other
        return position

    def chk_order(self) -> list[int]:
        """The eligible attackers in priority order (docs/rules.md sections 4 and 7)."""
        a, d, n = self.chk_attacker, self.chk_defender, self.players
        dpos = self.chk_dpos
        own = team_of(self.rules, d)
        if self.rules.throw_in == "all":
            ordered = sorted((s for s in range(n) if s not in own and self.chk_active(s)),
                             key=lambda s: (s - dpos - 1) % n)
        else:
            # The places either side of the defender's, the left one first, each played by its stand-in if out.
            sides = (self.chk_actor(self.chk_opponent(dpos)), self.chk_actor(self.chk_opponent(dpos, -1)))
            ordered = list(dict.fromkeys(s for s in sides if s not in own))
        if a in ordered:
            ordered.remove(a)
            ordered.insert(0, a)
        return ordered

    def chk_l1(self) -> int:
        limits = [1 << 30]
        if self.rules.bout_limit is not None:
            limits.append(self.rules.bout_limit)
        if self.chk_bout == 1 and self.rules.first_bout_limit is not None:
            limits.append(self.rules.first_bout_limit)
        return min(limits)

    def chk_defender_hand(self) -> int:
        return self.chk_take_hand if self.chk_taken else self.hand_size(self.chk_defender)

    def chk_can_add(self) -> bool:
        table = self.table()
        unbeaten = sum(1 for _, c in table if c is None)
        return (
            len(table) < self.chk_l1()
            and len(table) < self.chk_def_start
            and unbeaten < self.chk_defender_hand()
        )

    def chk_exchange_ok(self, seat: int) -> bool:
        rules = self.rules
        if not rules.trump_exchange or rules.deck == 24 or self.stock_size == 0:
            return False
        six = Card(6, self.trump)
        return self.trump_card != six and not self.chk_six_tabled and bool(self.hand_mask(seat) & six.mask)

    def chk_legal(self, seat: int) -> set[str]:
        """What ``seat`` may do now per docs/rules.md, as action texts."""
        table = self.table()
        hand = self.hand(seat)
        trump = int(self.trump)
        out: set[str] = set()
        if self.chk_phase == "defend":
            for a, c in table:
                if c is None:
                    out |= {f"defend {a} {h}" for h in hand if beats(h, a, trump)}
            if self.rules.transfer and table and all(c is None for _, c in table):
                ranks = {a.rank for a, _ in table}
                count = len(table) + 1
                target = self.chk_actor(self.chk_opponent(self.chk_dpos))
                if (
                    len(ranks) == 1
                    and target != self.chk_defender
                    and self.hand_size(target) >= count
                    and count <= 6
                    and count <= self.chk_l1()
                ):
                    out |= {f"transfer {h}" for h in hand if h.rank in ranks}
            out.add("take")
        elif not table:
            out |= {f"attack {h}" for h in hand}
        else:
            if self.chk_can_add():
                ranks = {card.rank for card in table_cards(self)}
                out |= {f"attack {h}" for h in hand if h.rank in ranks}
            out.add("pass")
        if self.chk_exchange_ok(seat):
            out.add("exchange")
        return out

    # ------------------------------------------------------------------ checking steps

    def chk_settle(self) -> None:
        """Close the attackers' phase once every eligible attacker has passed in a row."""
        if self.chk_phase == "attack" and self.table() and self.chk_poll >= len(self.chk_order()):
            unbeaten = any(c is None for _, c in self.table())
            self.chk_phase = "defend" if unbeaten and not self.chk_taken else "end"

    def chk_before(self, seat: int, action: Action, forced: bool) -> None:
        self.chk_settle()
        phase = self.chk_phase
        where = f"bout {self.chk_bout}, step {self.chk_steps}: seat {seat} {action} (forced={forced})"
        assert phase != "end", f"{where}: every eligible attacker passed, the bout should have ended"
        if phase == "attack":
            if not self.table():
                assert seat == self.chk_attacker, f"{where}: the lead belongs to seat {self.chk_attacker}"
            else:
                order = self.chk_order()
                assert seat == order[self.chk_poll], f"{where}: polling order {order} at {self.chk_poll}"
        else:
            assert seat == self.chk_defender, f"{where}: the defender {self.chk_defender} should answer"
        legal = self.chk_legal(seat)
        if forced:
            assert legal == {str(action)}, f"{where}: forced, but the rules allow {sorted(legal)}"
            self.chk_forced += 1
        else:
            assert seat == self.to_act, where
            assert len(legal) >= 2, f"{where}: a decision with a single option {legal}"
            assert str(action) in legal, f"{where}: not allowed, the rules allow {sorted(legal)}"
        self.chk_steps += 1

    def chk_after_attack_card(self, where: str) -> None:
        """L1-L3 after any attack card was added (lead, throw-in, transfer)."""
        table = self.table()
        count = len(table)
        unbeaten = sum(1 for _, c in table if c is None)
        self.chk_max_attacks = max(self.chk_max_attacks, count)
        rules = self.rules
        if rules.bout_limit is not None:
            assert count <= rules.bout_limit, f"{where}: L1 broken, {count} attack cards"
        if self.chk_bout == 1 and rules.first_bout_limit is not None:
            assert count <= rules.first_bout_limit, f"{where}: L1 (bout 1) broken, {count} attack cards"
        assert count <= self.chk_def_start, f"{where}: L2 broken, {count} > {self.chk_def_start}"
        assert unbeaten <= self.chk_defender_hand(), f"{where}: L3 broken, {unbeaten} unbeaten"

    def chk_pending(self) -> None:
        """Check the forced passes the engine wrote straight into the history."""
        for event in self.events(self.chk_seen):
            action = event.action
            assert action is Action.parse("pass") and event.forced, f"unexpected entry {event}"
            self.chk_before(event.seat, action, True)
            self.chk_poll += 1
            self.chk_seen += 1

    def chk_step_before(self, seat: int, action: Action, forced: bool) -> None:
        self.chk_pending()
        self.chk_before(seat, action, forced)
        six = Card(6, self.trump) if self.rules.deck != 24 else None
        if action.card is not None and action.card == six:
            self.chk_six_tabled = True
        target_position = self.chk_opponent(self.chk_dpos)
        # What the step's check needs from before it: the transfer's target, the taker's hand, the turn-up.
        target = self.chk_actor(target_position)
        self.chk_pending_step = (seat, action, target_position, target, self.hand_size(seat), self.trump_card)

    def chk_step_after(self) -> None:
        seat, action, target_position, target, take_hand, turn_up = self.chk_pending_step
        where = f"bout {self.chk_bout}, seat {seat} {action}"
        kind = action.kind
        self.chk_seen = self.event_count
        if self.rules.early_out and self.hand_size(seat) == 0 and seat not in self.chk_out:
            self.chk_out.append(seat)  # out the moment the hand empties, in the middle of the bout
        assert self.out_order == tuple(self.chk_out), f"{where}: out_order {self.out_order}, expected {self.chk_out}"
        multi = self.rules.multi_card_attacks
        if kind is ActionKind.ATTACK:
            self.chk_after_attack_card(where)
            if multi or self.chk_taken:
                self.chk_poll = 0
            else:
                self.chk_phase = "defend"
        elif kind is ActionKind.DEFEND:
            if all(c is not None for _, c in self.table()):
                self.chk_phase = "attack"
                self.chk_poll = 0
        elif kind is ActionKind.PASS:
            self.chk_poll += 1
        elif kind is ActionKind.TAKE:
            self.chk_taken = True
            self.chk_take_hand = take_hand
            self.chk_phase = "attack"
            self.chk_poll = 0
        elif kind is ActionKind.TRANSFER:
            self.chk_attacker = seat
            self.chk_defender = target
            self.chk_apos, self.chk_dpos = self.chk_dpos, target_position
            self.chk_def_start = self.hand_size(target)
            self.chk_phase = "attack" if multi else "defend"
            self.chk_poll = 0
            self.chk_after_attack_card(where)
        else:
            self.chk_public[seat] |= turn_up.mask
        self.chk_roles()

    def chk_roles(self) -> None:
        assert self.attacker == self.chk_attacker, f"main attacker {self.attacker}, expected {self.chk_attacker}"
        assert self.defender == self.chk_defender, f"defender {self.defender}, expected {self.chk_defender}"
        assert (self.attacker_position, self.defender_position) == (self.chk_apos, self.chk_dpos)
        assert self.bout == self.chk_bout
        assert self.take_declared == self.chk_taken

    def chk_new_bout(self, position: int) -> None:
        self.chk_bout += 1
        self.chk_apos = position
        self.chk_attacker = self.chk_actor(position)
        self.chk_dpos = self.chk_opponent(position)
        self.chk_defender = self.chk_actor(self.chk_dpos)
        assert self.chk_defender not in team_of(self.rules, self.chk_attacker)
        self.chk_def_start = self.hand_size(self.chk_defender)
        self.chk_taken = False
        self.chk_take_hand = 0
        self.chk_phase = "attack"
        self.chk_poll = 0
        self.chk_empty_at_start = self.stock_size == 0
        self.chk_outs_at_start = len(self.chk_out)
        self.chk_roles()

    def chk_bout_end_before(self) -> None:
        self.chk_pending()
        self.chk_settle()
        where = f"end of bout {self.chk_bout}"
        assert self.chk_phase == "end", f"{where}: the bout ends in phase {self.chk_phase}"
        table = self.table()
        unbeaten = sum(1 for _, c in table if c is None)
        assert self.chk_taken or unbeaten == 0, f"{where}: {unbeaten} unbeaten cards and no take"
        assert table, f"{where}: a bout without a card"
        n = self.players
        a, d, taken = self.chk_attacker, self.chk_defender, self.chk_taken
        rules = self.rules
        tabled = mask_of(table_cards(self))
        hands = [self.hand_mask(s) for s in range(n)]
        discard = self.discard_mask()
        stock = stock_list(self)
        turn_up = self.trump_card
        if taken:
            hands[d] |= tabled
            self.chk_public[d] |= tabled
        else:
            discard |= tabled
        order = [a] + [(a + i) % n for i in range(1, n) if (a + i) % n != d] + [d]
        draws: list[Event] = []
        for seat in order:
            if not stock:
                break
            have = hands[seat].bit_count()
            if have >= rules.hand_size or (rules.early_out and have == 0):
                continue
            count = min(rules.hand_size - have, len(stock))
            for c in stock[:count]:
                hands[seat] |= 1 << c
            stock = stock[count:]
            draws.append(Event("draw", seat, count=count, turn_up=not stock))
            if not stock:
                self.chk_public[seat] |= turn_up.mask
        self.chk_bout_end = (where, order, hands, stock, discard, draws)

    def chk_bout_end_after(self, result: bool) -> None:
        where, order, hands, stock, discard, draws = self.chk_bout_end
        n = self.players
        rules = self.rules
        taken = self.chk_taken
        assert [self.hand_mask(s) for s in range(n)] == hands, f"{where}: hands after drawing"
        assert stock_list(self) == stock, f"{where}: stock after drawing"
        assert self.discard_mask() == discard, f"{where}: discard pile"
        assert self.events(self.chk_seen) == draws, f"{where}: draw entries"
        self.chk_seen = self.event_count
        if rules.early_out:
            assert all(hands[s] or s in self.chk_out for s in range(n)), f"{where}: an empty hand is not out"
        elif not stock:
            self.chk_out += [s for s in order if not hands[s] and s not in self.chk_out]  # in drawing order
        assert self.out_order == tuple(self.chk_out), f"{where}: out_order {self.out_order}, expected {self.chk_out}"
        if self.chk_empty_at_start:
            went_out = len(self.chk_out) > self.chk_outs_at_start
            self.chk_streak = self.chk_streak + 1 if taken and not went_out else 0
        assert self.pickups_in_a_row == self.chk_streak
        active = [s for s in range(n) if self.chk_active(s)]
        teams_left = {team_of(rules, s) for s in active}
        draw_losers = None if rules.teams is None else ()
        expected: Outcome | None = None
        if len(teams_left) <= 1:
            losers = team_of(rules, active[0]) if active and rules.teams else draw_losers
            expected = Outcome(active[0] if active else None, Reason.NORMAL, self.out_order, losers=losers)
        elif rules.pickup_draw_limit is not None and self.chk_streak >= rules.pickup_draw_limit:
            expected = Outcome(None, Reason.PICKUP_LIMIT, self.out_order, losers=draw_losers)
        elif self.chk_bout >= rules.max_bouts:
            expected = Outcome(None, Reason.MAX_BOUTS, self.out_order, losers=draw_losers)
        assert self.outcome == expected, f"{where}: outcome {self.outcome}, expected {expected}"
        assert result == (expected is not None)
        if expected is None:
            dpos = self.chk_dpos
            position = dpos if not taken and self.chk_plays(dpos) else next(
                p for p in ((dpos + i) % n for i in range(1, n + 1)) if self.chk_plays(p))
            assert self.attacker_position == position, f"{where}: lead from {self.attacker_position}, not {position}"
            self.chk_new_bout(position)
        else:
            self.chk_phase = "over"

    # ------------------------------------------------------------------ checking a resting position

    def check(self) -> None:
        """Check the position the engine rests at: a real decision, or the end."""
        self.chk_ready()
        self.chk_pending()
        check_conservation(self)
        for s in range(self.players):
            assert self.known_mask(s) == self.hand_mask(s) & self.chk_public[s], f"known cards of seat {s}"
        if self.is_over():
            check_outcome(self)
            return
        self.chk_settle()
        self.chk_roles()
        assert self.chk_phase in ("attack", "defend")
        seat = self.to_act
        assert seat is not None
        if self.chk_phase == "defend":
            assert seat == self.chk_defender
        elif self.table():
            assert seat == self.chk_order()[self.chk_poll]
        else:
            assert seat == self.chk_attacker
        legal = self.legal_actions()
        assert len(legal) >= 2, f"seat {seat} asked with {legal}"
        assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
        assert set(legal.texts()) == self.chk_legal(seat), f"legal {legal.texts()} vs {sorted(self.chk_legal(seat))}"
        assert self.eligible_attackers() == self.chk_order()
        assert self.attack_limit == min(self.chk_l1(), self.chk_def_start)


def play_random(game: Game, rng: random.Random, steps: int | None = None) -> int:
    """Play random legal actions (checked with ``apply``); return how many were played."""
    played = 0
    limit = game.rules.max_bouts * 400 if steps is None else steps
    while not game.is_over() and played < limit:
        game.apply(rng.choice(game.legal_actions()))
        played += 1
        if isinstance(game, CheckedGame):
            game.check()
    return played


def random_game(preset: str, players: int, seed: int, checked: bool = False) -> Game:
    """A finished game of random legal moves, deal and choices from ``seed``."""
    rules = Rules.preset(preset, players)
    game = (CheckedGame if checked else Game).new(rules, seed)
    play_random(game, random.Random(seed))
    assert game.is_over()
    return game


def advance_random(game: Game, rng: random.Random, steps: int) -> None:
    """Play up to ``steps`` random legal actions (fewer if the game ends)."""
    for _ in range(steps):
        if game.is_over():
            return
        game.push(rng.choice(game.legal_actions()))


def trace_text(record: GameRecord) -> str:
    """What ``durak replay FILE --trace`` prints for ``record`` (docs/protocol.md section 3), built from the library."""
    result = replay(record)
    lines = [json.dumps(step.to_dict()) for step in result.steps]
    lines.append(json.dumps(result.final_line()))
    return "".join(line + "\n" for line in lines)
