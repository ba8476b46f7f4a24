"""docs/rules.md section 6 (going out, the end of the game) and the `early_out` variant of section 7."""

from __future__ import annotations

import random

from bots_sdk.engine import Game, Reason, Rules, Watcher
from tests.engine.deals import (
    WHOLE_24_BOUT_1,
    WHOLE_24_BOUT_2,
    deal,
    hand,
    legal,
    play,
    sixteen_game,
    steps,
    take_a_club,
    whole_24_game,
)

# Six players, 24-card deck, 4 cards each: the whole deck is dealt, the stock is empty, trump is hearts
# (9H, the dealer's last card, is also the lowest trump). Seat 5 attacks with its four nines, seat 0
# defends with its four tens.
SIX_BY_FOUR = [
    ["TS", "TC", "TD", "TH"],
    ["JS", "QS", "KS", "AS"],
    ["JH", "QH", "KH", "AH"],
    ["JD", "QD", "KD", "AD"],
    ["JC", "QC", "KC", "AC"],
    ["9S", "9C", "9D", "9H"],
]


def six_by_four(**changes: object) -> Game:
    rules = Rules.preset("classic", players=6).replace(deck=24, hand_size=4, **changes)
    return deal(rules, SIX_BY_FOUR, None)


def play_six_by_four_until_the_last_nine(game: Game) -> None:
    play(game, (5, "attack 9S"), (0, "defend 9S TS"), (5, "attack 9C"), (0, "defend 9C TC"), (5, "attack 9D"),
         (0, "defend 9D TD"), (5, "attack 9H"))


# ---------------------------------------------------------------- going out


def test_an_empty_hand_is_refilled_while_the_stock_holds_cards_and_nobody_is_out() -> None:
    """Section 6: "While the stock holds cards, an empty hand is refilled and nobody is out"."""
    rules = Rules.preset("classic", players=2).replace(hand_size=1)
    game = deal(rules, [["7S"], ["8S"]], "AD", ["KH", "QH"])
    play(game, (1, "defend 7S 8S"))
    # Both hands emptied; both drew again (seat 0 KH, seat 1 QH), and seat 1 led QH as a forced move.
    assert game.outcome is None
    assert game.out_order == ()
    assert not game.is_out(0) and not game.is_out(1)
    assert (game.bout, game.attacker, game.to_act) == (2, 1, 0)
    assert legal(game) == ["defend QH KH", "take"]
    assert game.stock_size == 36 - 2 - 2


def test_a_player_whose_hand_empties_with_the_stock_empty_goes_out() -> None:
    """Section 6: "After drawing, when the stock is empty, every player with an empty hand is out and safe"."""
    game = six_by_four()
    assert game.stock_size == 0
    play_six_by_four_until_the_last_nine(game)
    play(game, (0, "defend 9H TH"))
    assert game.is_out(5) and game.is_out(0)
    assert not any(game.is_out(seat) for seat in (1, 2, 3, 4))
    assert game.outcome is None


def test_a_player_who_plays_the_last_card_stops_being_active_at_once_and_is_out_at_the_end_of_the_bout() -> None:
    """Section 1: a player who plays their last card while the stock is empty "stops being active at once
    (they are no longer polled ...), and is recorded as out when the bout ends"."""
    game = six_by_four()
    assert game.eligible_attackers() == [5, 1, 2, 3, 4]
    play_six_by_four_until_the_last_nine(game)
    assert game.hand(5) == []
    assert game.to_act == 0
    assert game.eligible_attackers() == [1, 2, 3, 4]
    assert not game.is_out(5)
    play(game, (0, "defend 9H TH"))
    assert game.is_out(5)
    # After the last defence only seats 1-4 are polled (forced passes: the defender holds no card).
    assert steps(game)[-4:] == [(1, "pass", True), (2, "pass", True), (3, "pass", True), (4, "pass", True)]


def test_out_order_lists_players_going_out_in_one_bout_in_drawing_order() -> None:
    """Section 6: "Players who go out after the same bout are listed in `out_order` in drawing order (main
    attacker, then clockwise, the defender last)": main attacker 5 before defender 0."""
    game = six_by_four()
    play_six_by_four_until_the_last_nine(game)
    play(game, (0, "defend 9H TH"))
    assert game.out_order == (5, 0)


def test_beaten_off_by_a_defender_who_is_out_the_next_active_player_attacks() -> None:
    """Section 4: Beaten off: "The defender attacks next; if the defender is out, the next active player after
    the defender"."""
    game = six_by_four()
    play_six_by_four_until_the_last_nine(game)
    play(game, (0, "defend 9H TH"))
    assert (game.bout, game.attacker, game.defender) == (2, 1, 2)
    assert game.to_act == 1


# ---------------------------------------------------------------- the end of the game


def test_the_last_player_holding_cards_is_the_durak() -> None:
    """Section 6: "The game ends when at most one active player is left. That player is the durak"."""
    game = whole_24_game("TC", "9C")
    play(game, *WHOLE_24_BOUT_1, *WHOLE_24_BOUT_2)
    # Bout 3 runs on forced moves: seat 0 leads TC, seat 1 cannot beat it with 9C and takes.
    assert steps(game)[-2:] == [(0, "attack TC", True), (1, "take", True)]
    assert game.outcome is not None
    assert game.outcome.durak == 1
    assert not game.outcome.draw
    assert game.outcome.reason is Reason.NORMAL
    assert game.outcome.out_order == (0,)
    assert hand(game, 1) == {"9C", "TC"}
    assert game.to_act is None
    assert legal(game) == []


def test_nobody_left_is_a_draw() -> None:
    """Section 6: "If nobody is left (the last players ran out in the same bout), the game is a draw"."""
    game = whole_24_game("9C", "TC")
    play(game, *WHOLE_24_BOUT_1, *WHOLE_24_BOUT_2)
    assert legal(game) == ["defend 9C TC", "take"]
    play(game, (1, "defend 9C TC"))
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.durak is None
    assert game.outcome.reason is Reason.NORMAL
    assert game.outcome.out_order == (0, 1)


def test_the_game_ends_only_at_the_end_of_a_bout() -> None:
    """Section 6: "The game ends only at the end of a bout, never in the middle of one"."""
    game = whole_24_game("9C", "TC")
    play(game, *WHOLE_24_BOUT_1, *WHOLE_24_BOUT_2)
    # Seat 0 has led its last card: only seat 1 holds cards, yet the bout goes on.
    assert game.hand(0) == []
    assert game.outcome is None
    assert game.to_act == 1
    play(game, (1, "take"))
    assert game.outcome is not None
    assert game.outcome.durak == 1


# ---------------------------------------------------------------- pickup_draw_limit


def test_pickup_draw_limit_draws_after_that_many_takes_with_an_empty_stock() -> None:
    """Section 6: "if that many bouts in a row end with a take and nobody goes out, the game is a draw (reason
    `pickup_limit`)"."""
    game = whole_24_game("9C", "TC", pickup_draw_limit=2)
    play(game, (0, "attack 9S"), (1, "take"), (0, "pass"))
    assert game.outcome is None
    assert game.pickups_in_a_row == 1
    play(game, (0, "attack 9H"), (1, "take"), (0, "pass"))
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.durak is None
    assert game.outcome.reason is Reason.PICKUP_LIMIT


def test_a_beaten_off_bout_resets_the_pickup_count() -> None:
    """Section 6: "A beaten-off bout, or a bout after which anybody goes out, resets the count"."""
    game = whole_24_game("9C", "TC", pickup_draw_limit=2)
    play(game, (0, "attack 9S"), (1, "take"), (0, "pass"))
    assert game.pickups_in_a_row == 1
    play(game, (0, "attack 9H"), (1, "defend 9H JH"), (0, "pass"))
    assert game.pickups_in_a_row == 0
    assert (game.bout, game.attacker) == (3, 1)
    play(game, (1, "attack QS"), (0, "take"), (1, "pass"))
    assert game.outcome is None
    assert game.pickups_in_a_row == 1


def test_a_take_after_which_somebody_goes_out_resets_the_pickup_count() -> None:
    """Section 6: "a bout after which anybody goes out, resets the count" (here a taken bout)."""
    game = six_by_four(pickup_draw_limit=1)
    play(game, (5, "attack 9S"), (0, "take"), (5, "attack 9C"), (5, "attack 9D"), (5, "attack 9H"))
    assert game.out_order == (5,)
    assert game.outcome is None
    assert game.pickups_in_a_row == 0
    assert len(game.hand(0)) == 8
    assert (game.attacker, game.defender) == (1, 2)


def test_bouts_starting_with_cards_in_the_stock_do_not_count_towards_the_pickup_limit() -> None:
    """Section 6: "counting only bouts that start with the stock already empty"."""
    game = sixteen_game(pickup_draw_limit=1)
    for rank in "6789":
        take_a_club(game, rank)
    # Four taken bouts, each started with cards in the stock (the fourth drew the turned-up KD).
    assert game.stock_size == 0
    assert game.outcome is None
    assert game.pickups_in_a_row == 0
    take_a_club(game, "T")
    assert game.outcome is not None
    assert game.outcome.reason is Reason.PICKUP_LIMIT


def test_pickup_draw_limit_null_never_draws() -> None:
    """Section 6: `pickup_draw_limit` `null` = none."""
    game = whole_24_game("9C", "TC", pickup_draw_limit=None)
    play(game, (0, "attack 9S"), (1, "take"), (0, "pass"), (0, "attack 9H"), (1, "take"), (0, "pass"))
    assert game.outcome is None
    assert game.pickups_in_a_row == 2


# ---------------------------------------------------------------- max_bouts and precedence


def test_max_bouts_draws_once_that_bout_is_completed() -> None:
    """Section 6: "The engine also adjudicates a draw once bout `max_bouts` ... has been completed" (reason
    `max_bouts`), at the end of the bout, not before."""
    game = whole_24_game("9C", "TC", max_bouts=1)
    play(game, *WHOLE_24_BOUT_1[:-1])
    assert game.outcome is None
    play(game, WHOLE_24_BOUT_1[-1])
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.reason is Reason.MAX_BOUTS


def test_max_bouts_allows_bouts_before_the_limit() -> None:
    """Section 6: the draw comes once bout `max_bouts` has been completed, not earlier."""
    game = whole_24_game("9C", "TC", max_bouts=2)
    play(game, *WHOLE_24_BOUT_1)
    assert game.outcome is None
    assert game.bout == 2
    play(game, *WHOLE_24_BOUT_2)
    assert game.outcome is not None
    assert game.outcome.reason is Reason.MAX_BOUTS


def test_pickup_limit_takes_precedence_over_max_bouts() -> None:
    """Section 6: "When several endings apply after one bout: a normal ending first, then `pickup_limit`, then
    `max_bouts`"."""
    game = whole_24_game("9C", "TC", max_bouts=1, pickup_draw_limit=1)
    play(game, (0, "attack 9S"), (1, "take"), (0, "pass"))
    assert game.outcome is not None
    assert game.outcome.reason is Reason.PICKUP_LIMIT


def test_normal_ending_takes_precedence_over_max_bouts() -> None:
    """Section 6: "a normal ending first, then `pickup_limit`, then `max_bouts`" (bout 3 both ends the game
    and is bout `max_bouts`)."""
    game = whole_24_game("TC", "9C", max_bouts=3)
    play(game, *WHOLE_24_BOUT_1, *WHOLE_24_BOUT_2)
    assert game.outcome is not None
    assert game.outcome.reason is Reason.NORMAL
    assert game.outcome.durak == 1


# ---------------------------------------------------------------- early_out (section 7)


def test_early_out_a_player_is_out_at_once_even_while_the_stock_holds_cards() -> None:
    """Section 7, early out: "a player whose hand empties is out at once, even while the stock still holds
    cards ... The game can then end ... while the stock still holds cards"."""
    rules = Rules.preset("classic", players=2).replace(hand_size=1, early_out=True)
    game = deal(rules, [["7S"], ["8S"]], "AD")
    play(game, (1, "take"))
    assert game.outcome is not None
    assert game.outcome.durak == 1
    assert game.outcome.out_order == (0,)
    assert game.stock_size == 34


def test_early_out_game_can_be_drawn_while_the_stock_holds_cards() -> None:
    """Section 7, early out: "The game can then end, or be drawn, while the stock still holds cards"."""
    rules = Rules.preset("classic", players=2).replace(hand_size=1, early_out=True)
    game = deal(rules, [["7S"], ["8S"]], "AD")
    play(game, (1, "defend 7S 8S"))
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.reason is Reason.NORMAL
    assert game.outcome.out_order == (0, 1)
    assert game.stock_size == 34


def test_early_out_only_players_holding_cards_refill() -> None:
    """Section 7, early out: "only players who still hold cards refill after a bout (the drawing order still
    starts at the main attacker, skipping those who are out)"."""
    rules = Rules.preset("classic", players=4).replace(hand_size=2, early_out=True, first_attacker="dealer_left")
    game = deal(rules, [["7S", "KS"], ["8S", "9C"], ["7C", "QH"], ["JC", "JH"]], "AD")
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (2, "attack 7C"), (1, "defend 7C 9C"))
    draws = [(e.seat, e.count) for e in game.observation(0).history if e.kind == "draw"]
    assert draws == [(0, 1), (2, 1)]
    assert game.hand(1) == []
    assert game.out_order == (1,)
    assert game.stock_size == 36 - 8 - 2
    # The defender is out, so the next active player after it attacks.
    assert (game.attacker, game.defender) == (2, 3)


def test_without_early_out_the_same_empty_hand_is_refilled() -> None:
    """Section 6 (contrast to early out): with the stock holding cards, the emptied hand draws again."""
    rules = Rules.preset("classic", players=4).replace(hand_size=2, first_attacker="dealer_left")
    game = deal(rules, [["7S", "KS"], ["8S", "9C"], ["7C", "QH"], ["JC", "JH"]], "AD")
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (2, "attack 7C"), (1, "defend 7C 9C"))
    draws = [(e.seat, e.count) for e in game.observation(0).history if e.kind == "draw"]
    assert draws == [(0, 1), (2, 1), (1, 2)]
    assert game.out_order == ()
    assert (game.attacker, game.defender) == (1, 2)


class _Emptied(Watcher):
    """Notes each seat the moment its hand empties, and the bout it happened in."""

    def __init__(self) -> None:
        self.order: list[tuple[int, int]] = []

    def after_step(self, game: Game) -> None:
        for seat in range(game.players):
            if not game.hand_size(seat) and seat not in (s for s, _ in self.order):
                self.order.append((seat, game.bout))


def test_early_out_out_order_is_the_order_in_which_hands_emptied() -> None:
    """Section 6: under `early_out` "a player is out the moment their hand empties, so `out_order` is the order
    in which hands emptied". In this random house game (4 players, multi-card attacks) seats 3 and 1 run out
    in the same bout, 1 first though 3 draws first (seat 3 is the main attacker); drawing order would list 3."""
    watcher = _Emptied()
    game = Game.new(Rules.preset("house", 4), 15, watcher)
    rng = random.Random(15)
    while not game.is_over():
        game.push(rng.choice(game.legal_actions().sorted()))
    assert game.outcome is not None
    assert [seat for seat, _ in watcher.order] == [1, 3, 0]
    assert watcher.order[0][1] == watcher.order[1][1], "seats 1 and 3 should go out in the same bout"
    assert game.outcome.out_order == (1, 3, 0)


def test_early_out_a_player_is_out_before_the_bout_ends() -> None:
    """Section 6: under `early_out` a player is out the moment their hand empties, in the middle of the bout."""
    rules = Rules.preset("classic", players=3).replace(hand_size=2, early_out=True, first_attacker="dealer_left")
    game = deal(rules, [["7S", "8C"], ["8S", "9C"], ["KH", "QH"]], "AD")
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (0, "attack 8C"))
    assert game.outcome is None and game.to_act == 1
    assert game.is_out(0) and game.out_order == (0,)
    assert game.observation(2).out == (True, False, False)


def test_a_forfeit_under_early_out_keeps_those_already_out() -> None:
    """Section 6: "a game that ends by a forfeit keeps in its `out_order` everyone who was already out"."""
    rules = Rules.preset("classic", players=3).replace(hand_size=2, early_out=True, first_attacker="dealer_left")
    game = deal(rules, [["7S", "8C"], ["8S", "9C"], ["KH", "QH"]], "AD")
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (0, "attack 8C"))
    assert game.to_act == 1 and game.take_declared is False  # mid-bout: seat 1 may still beat 8C
    outcome = game.forfeit(1, "timeout", "no answer within 1.0 s")
    assert (outcome.durak, outcome.out_order) == (1, (0,))

