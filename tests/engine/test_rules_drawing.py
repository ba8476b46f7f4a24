"""docs/rules.md section 5: drawing after a bout."""

from __future__ import annotations

from bots_sdk.engine import Game, Rules
from tests.engine.deals import deal, hand, play

# Four players, trump diamonds (AD). Seat 2 holds 6D and attacks, seat 3 defends; seats 0 and 1 throw in.
FOUR = [
    ["9H", "7S", "8S", "6C", "6S", "6H"],
    ["9C", "7H", "8H", "7D", "8D", "KS"],
    ["6D", "9S", "7C", "8C", "KC", "AC"],
    ["TS", "JS", "QS", "JH", "QH", "TC"],
]
FOUR_STOCK = ["AS", "AH", "9D", "TD", "JD", "QD"]
FOUR_BOUT = [(2, "attack 9S"), (3, "defend 9S TS"), (0, "attack 9H"), (3, "defend 9H JH"), (1, "attack 9C"),
             (3, "defend 9C TC")]

# Three players with 11 cards each: the stock holds AH, AC and the turned-up KD (trump diamonds).
# Seat 0 attacks (dealer_left), seat 1 defends, seat 2 throws in.
ELEVEN = [
    ["6S", "6H", "9S", "TS", "JS", "QS", "KS", "AS", "9H", "TH", "JH"],
    ["7S", "7H", "8C", "6D", "6C", "8S", "8H", "7D", "8D", "QH", "KH"],
    ["7C", "9D", "TD", "JD", "QD", "AD", "9C", "TC", "JC", "QC", "KC"],
]
ELEVEN_BOUT = [(0, "attack 6S"), (1, "defend 6S 7S"), (0, "attack 6H"), (1, "defend 6H 7H"), (2, "attack 7C"),
               (1, "defend 7C 8C")]


def draws(game: Game) -> list[tuple[int, int]]:
    """The public draw events so far as ``(seat, count)``."""
    return [(event.seat, event.count) for event in game.observation(0).history if event.kind == "draw"]


def test_draw_order_is_main_attacker_then_clockwise_skipping_the_defender_who_draws_last() -> None:
    """Section 5: "the main attacker first, then the other players clockwise from the main attacker (skipping
    the defender), the defender last"."""
    game = deal(Rules.preset("classic", players=4), FOUR, "AD", FOUR_STOCK)
    assert (game.attacker, game.defender) == (2, 3)
    play(game, *FOUR_BOUT)
    assert game.bout == 2
    assert draws(game) == [(2, 1), (0, 1), (1, 1), (3, 3)]
    assert "AS" in hand(game, 2)
    assert "AH" in hand(game, 0)
    assert "9D" in hand(game, 1)
    assert {"TD", "JD", "QD"} <= hand(game, 3)
    assert all(len(game.hand(seat)) == 6 for seat in range(4))


def test_players_draw_from_the_top_of_the_stock_up_to_hand_size() -> None:
    """Section 5: "players draw from the top of the stock up to `hand_size`" (a full hand draws nothing)."""
    game = deal(Rules.preset("classic", players=4), FOUR, "AD", FOUR_STOCK)
    play(game, (2, "attack 9S"), (3, "defend 9S TS"), (0, "pass"), (1, "pass"))
    assert draws(game) == [(2, 1), (3, 1)]
    assert "AS" in hand(game, 2)
    assert "AH" in hand(game, 3)
    assert game.stock_size == 36 - 24 - 2


def test_when_the_stock_runs_out_later_players_draw_fewer_or_nothing() -> None:
    """Section 5: "When the stock runs out, later players draw fewer or nothing"."""
    rules = Rules.preset("classic", players=3).replace(hand_size=11, first_attacker="dealer_left")
    game = deal(rules, ELEVEN, "KD", ["AH", "AC"])
    assert game.stock_size == 3
    play(game, *ELEVEN_BOUT)
    assert game.bout == 2
    # Seat 0 needs 2 and gets AH, AC; seat 2 needs 1 and gets the turned-up KD; seat 1 needs 3 and gets none.
    assert draws(game) == [(0, 2), (2, 1)]
    assert {"AH", "AC"} <= hand(game, 0)
    assert "KD" in hand(game, 2)
    assert len(game.hand(1)) == 8
    assert game.stock_size == 0


def test_the_turned_up_trump_is_the_last_card_drawn_and_everyone_sees_who_drew_it() -> None:
    """Section 5: "The turned-up trump is the last card drawn"; section 9: the observation shows who drew it."""
    rules = Rules.preset("classic", players=3).replace(hand_size=11, first_attacker="dealer_left")
    game = deal(rules, ELEVEN, "KD", ["AH", "AC"])
    assert game.trump_drawn_by is None
    play(game, *ELEVEN_BOUT)
    assert game.trump_drawn_by == 2
    assert game.observation(1).trump_drawn_by == 2
    assert str(game.observation(1).trump_card) == "KD"
    turn_up_draws = [(e.seat, e.turn_up) for e in game.observation(0).history if e.kind == "draw"]
    assert turn_up_draws == [(0, False), (2, True)]
    # Everyone knows seat 2 holds the trump card now.
    assert [str(c) for c in game.observation(0).known_cards[2]] == ["KD"]


def test_hands_are_refilled_up_to_a_hand_size_of_seven() -> None:
    """Section 7: "Hand size 7 and other deal sizes (option `hand_size` ...; refilling goes up to it)"."""
    hands = [["6D", "7S", "9H", "TC", "JC", "KS", "QC"], ["8S", "TS", "7H", "KH", "8C", "QS", "AH"]]
    game = deal(Rules.preset("house", players=2), hands, "AD", ["6S", "6H"])
    assert game.stock_size == 36 - 14
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"))
    assert draws(game) == [(0, 1), (1, 1)]
    assert "6S" in hand(game, 0)
    assert "6H" in hand(game, 1)
    assert len(game.hand(0)) == len(game.hand(1)) == 7
