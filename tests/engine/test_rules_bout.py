"""docs/rules.md section 4: a bout (the lead, throw-ins, limits L1-L3, polling, forced moves, the end)."""

from __future__ import annotations

import pytest

from bots_sdk.engine import Game, IllegalActionError, Rules
from tests.engine.deals import (
    WHOLE_24_BOUT_1,
    WHOLE_24_BOUT_2,
    deal,
    decisions,
    hand,
    legal,
    play,
    steps,
    table,
    whole_24_game,
)

# Three players, trump diamonds (AD turned up). Seat 0 holds the lowest trump, 6D: it attacks, seat 1
# defends, seat 2 may throw in.
THREE = [
    ["6D", "7S", "9H", "TC", "JC", "KS"],
    ["8S", "TS", "7H", "KH", "8C", "7D"],
    ["6S", "9S", "6H", "8H", "7C", "QC"],
]

# Four players, trump diamonds (AD). Seat 2 holds 6D: it attacks, seat 3 defends; the priority order of
# the eligible attackers is 2, then clockwise from the defender's left: 0, 1.
FOUR = [
    ["TD", "7S", "7H", "8S", "8H", "6C"],
    ["9H", "6S", "6H", "7C", "8D", "JC"],
    ["6D", "9S", "9C", "TC", "KC", "AC"],
    ["TS", "JH", "QH", "KH", "AH", "8C"],
]

# Two players, trump clubs (AC). Seat 0 holds 6C, the lowest trump, and attacks with sixes and sevens;
# seat 1 beats each card. Used for the L1 limits.
SIXES = [
    ["6S", "6H", "6D", "6C", "7S", "7H"],
    ["8S", "8H", "7D", "7C", "9S", "9H"],
]
SIXES_FIVE_CARDS = [
    (0, "attack 6D"), (1, "defend 6D 7D"), (0, "attack 6S"), (1, "defend 6S 8S"), (0, "attack 6H"),
    (1, "defend 6H 8H"), (0, "attack 7S"), (1, "defend 7S 9S"), (0, "attack 7H"), (1, "defend 7H 9H"),
]


def three() -> Game:
    return deal(Rules.preset("classic", players=3), THREE, "AD")


# ---------------------------------------------------------------- the lead


def test_lead_must_be_a_card_and_passing_before_the_lead_is_illegal() -> None:
    """Section 4: "the main attacker must play one card (any card; passing is not allowed before the lead)"."""
    game = three()
    assert game.to_act == 0
    assert legal(game) == ["attack 6D", "attack 7S", "attack 9H", "attack JC", "attack KS", "attack TC"]
    with pytest.raises(IllegalActionError, match="passing is not allowed before the lead"):
        game.apply("pass")


def test_lead_may_be_any_card_even_a_trump() -> None:
    """Section 4: the lead is "any card"."""
    game = three()
    play(game, (0, "attack 6D"))
    assert table(game) == [("6D", None)]
    assert game.to_act == 1


def test_only_the_main_attacker_leads() -> None:
    """Section 4: the main attacker plays the lead; nobody else is asked before it."""
    game = three()
    with pytest.raises(IllegalActionError, match="seat 2 is not to act"):
        game.apply("attack 6S", seat=2)


# ---------------------------------------------------------------- throw-ins


def test_throw_in_must_match_a_rank_on_the_table() -> None:
    """Section 4: "Every later attack card (a throw-in) must have a rank already on the table in this bout"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"))
    # Ranks on the table: 7 and 8. Seat 0 (6D 9H TC JC KS) holds neither and passes as a forced move.
    assert game.to_act == 2
    assert legal(game) == ["attack 7C", "attack 8H", "pass"]
    with pytest.raises(IllegalActionError, match="throw-in must match a rank on the table"):
        game.apply("attack 9S")
    with pytest.raises(IllegalActionError, match="throw-in must match a rank on the table"):
        game.apply("attack 6H")


def test_throw_in_may_match_the_rank_of_a_defence_card() -> None:
    """Section 4: the rank may be "on an attack card or a defence card"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (2, "attack 8H"))
    assert table(game) == [("7S", "8S"), ("8H", None)]
    assert game.to_act == 1


def test_attacker_without_a_matching_card_passes_as_a_forced_move() -> None:
    """Section 4: "A player who has no legal attack card passes as a forced move"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"))
    assert steps(game) == [(0, "attack 7S", False), (1, "defend 7S 8S", False), (0, "pass", True)]
    assert decisions(game) == [(0, "attack 7S"), (1, "defend 7S 8S")]


# ---------------------------------------------------------------- limits


def test_L1_first_bout_limit_of_classic_stops_the_sixth_card_in_bout_1() -> None:
    """Section 4, L1: "in bout 1 <= `first_bout_limit` (5 in `classic`)"."""
    game = deal(Rules.preset("classic", players=2), SIXES, "AC")
    play(game, *SIXES_FIVE_CARDS)
    # Seat 0 still holds 6C (a six is on the table), but the sixth card is not allowed: forced pass.
    assert steps(game)[-1] == (0, "pass", True)
    assert "6C" in hand(game, 0)
    assert game.bout == 2


def test_L1_first_bout_limit_of_six_allows_the_sixth_card_in_bout_1() -> None:
    """Section 4, L1 with `first_bout_limit` 6 (`kawu`): the same sixth card may be added."""
    game = deal(Rules.preset("kawu", players=2), SIXES, "AC")
    play(game, *SIXES_FIVE_CARDS)
    assert game.to_act == 0
    assert legal(game) == ["attack 6C", "pass"]
    play(game, (0, "attack 6C"), (1, "defend 6C 7C"))
    assert game.bout == 2


def test_L1_first_bout_limit_applies_only_in_bout_1() -> None:
    """Section 4, L1: after bout 1 only `bout_limit` (6) counts, so `classic` allows a sixth card in bout 2."""
    game = whole_24_game("9C", "TC")
    play(game, *WHOLE_24_BOUT_1)
    assert game.bout == 2
    assert game.attack_limit == 6
    play(game, *WHOLE_24_BOUT_2[:10])
    assert legal(game) == ["attack JC", "pass"]
    play(game, *WHOLE_24_BOUT_2[10:])
    assert steps(game)[-2:] == [(1, "pass", True), (0, "attack 9C", True)]
    assert (game.bout, game.attacker) == (3, 0)


def test_L1_bout_limit_stops_attack_cards_beyond_it() -> None:
    """Section 4, L1: "attack cards in this bout <= `bout_limit`"."""
    rules = Rules.preset("classic", players=2).replace(bout_limit=3, first_bout_limit=None)
    game = deal(rules, SIXES, "AC")
    play(game, *SIXES_FIVE_CARDS[:6])
    assert steps(game)[-1] == (0, "pass", True)
    assert game.bout == 2
    assert {"6C", "7S", "7H"} <= hand(game, 0)  # none of them could be added


def test_L1_null_limits_mean_no_fixed_limit() -> None:
    """Section 4, L1: "either option may be `null`, meaning no fixed limit" (L2 still applies: 6 cards)."""
    rules = Rules.preset("classic", players=2).replace(bout_limit=None, first_bout_limit=None)
    game = deal(rules, SIXES, "AC")
    play(game, *SIXES_FIVE_CARDS)
    assert legal(game) == ["attack 6C", "pass"]
    assert game.attack_limit == 6


def test_L2_attack_cards_are_limited_by_the_defenders_hand_at_the_start() -> None:
    """Section 4, L2: "attack cards in this bout <= the defender's hand size when they became defender"."""
    rules = Rules.preset("classic", players=3).replace(hand_size=2)
    game = deal(rules, [["6D", "7S"], ["8S", "9C"], ["7H", "7C"]], "AD")
    assert game.attack_limit == 2
    assert game.observation(2).attack_limit == 2
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (2, "attack 7H"))
    # Seat 1 cannot beat 7H with 9C (trump is diamonds): forced take. Seat 2's 7C would be a third card.
    assert steps(game)[-3:] == [(1, "take", True), (0, "pass", True), (2, "pass", True)]
    assert hand(game, 1) >= {"9C", "7S", "8S", "7H"}
    assert "7C" in hand(game, 2)


def test_L3_unbeaten_cards_are_limited_by_the_defenders_current_hand() -> None:
    """Section 4, L3: "unbeaten attack cards on the table <= the defender's current hand size"."""
    rules = Rules.preset("classic", players=3).replace(hand_size=2, multi_card_attacks=True)
    game = deal(rules, [["6D", "7S"], ["8S", "9C"], ["7H", "7C"]], "AD")
    play(game, (0, "attack 7S"))
    assert game.to_act == 2
    assert legal(game) == ["attack 7C", "attack 7H", "pass"]
    play(game, (2, "attack 7H"))
    # Two unbeaten cards, the defender holds two: seat 2's 7C may not join.
    assert game.to_act == 1
    assert table(game) == [("7S", None), ("7H", None)]
    assert steps(game)[-2:] == [(0, "pass", True), (2, "pass", True)]


def test_L3_after_a_take_uses_the_hand_at_the_time_of_the_take() -> None:
    """Section 4, L3: "after a take, the hand as it was when the take was declared"."""
    rules = Rules.preset("classic", players=3).replace(hand_size=3)
    game = deal(rules, [["6D", "7S", "QH"], ["8S", "9C", "JH"], ["7H", "7C", "8C"]], "AD")
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (2, "attack 7H"), (1, "take"))
    # The defender held 2 cards (9C JH) at the take; one card is unbeaten, so one more may be added.
    assert game.to_act == 2
    assert legal(game) == ["attack 7C", "attack 8C", "pass"]
    play(game, (2, "attack 7C"))
    # Now 2 unbeaten = the hand at the take: seat 2's 8C may not be added.
    assert steps(game)[-2:] == [(0, "pass", True), (2, "pass", True)]
    assert hand(game, 1) >= {"9C", "JH", "7S", "8S", "7H", "7C"}
    assert "8C" in hand(game, 2)


# ---------------------------------------------------------------- who may throw in, and in which order


def test_throw_in_all_lets_every_active_player_but_the_defender_add_cards() -> None:
    """Section 4: `throw_in` `all` = "every active player except the defender"."""
    game = deal(Rules.preset("classic", players=4), FOUR, "AD")
    assert (game.attacker, game.defender) == (2, 3)
    assert game.eligible_attackers() == [2, 0, 1]


def test_priority_order_is_main_attacker_then_clockwise_from_the_defenders_left() -> None:
    """Section 4: "the main attacker first, then the others clockwise, starting from the defender's left"."""
    game = deal(Rules.preset("classic", players=4), FOUR, "AD")
    play(game, (2, "attack 9S"), (3, "defend 9S TS"))
    assert game.to_act == 2
    assert legal(game) == ["attack 9C", "attack TC", "pass"]
    play(game, (2, "pass"))
    assert game.to_act == 0
    assert legal(game) == ["attack TD", "pass"]
    play(game, (0, "pass"))
    assert game.to_act == 1
    assert legal(game) == ["attack 9H", "pass"]


def test_polling_starts_again_at_the_head_after_a_card_is_added() -> None:
    """Section 4: "After any card is added, polling starts again at the head of the priority order"."""
    game = deal(Rules.preset("classic", players=4), FOUR, "AD")
    play(game, (2, "attack 9S"), (3, "defend 9S TS"), (2, "pass"), (0, "pass"), (1, "attack 9H"),
         (3, "defend 9H JH"))
    assert game.to_act == 2
    play(game, (2, "pass"), (0, "pass"))
    assert game.to_act == 1
    assert legal(game) == ["attack JC", "pass"]


def test_throw_in_neighbours_polls_only_the_defenders_two_neighbours() -> None:
    """Section 4: `neighbours` = "only the defender's two active neighbours" (`table` with 5 players)."""
    hands = [
        ["6D", "7S", "8S", "7H", "9S", "JC"],
        ["TS", "QS", "KS", "QH", "KH", "AH"],
        ["9H", "6S", "6H", "6C", "7C", "8C"],
        ["9C", "TC", "QC", "KC", "AC", "JS"],
        ["9D", "TD", "JD", "QD", "KD", "TH"],
    ]
    game = deal(Rules.preset("table", players=5), hands, "AD")
    assert game.rules.throw_in == "neighbours"
    assert game.eligible_attackers() == [0, 2]
    play(game, (0, "attack 9S"), (1, "defend 9S TS"), (2, "pass"))
    # Seats 3 and 4 hold nines and tens but are not the defender's neighbours: never asked.
    assert {seat for seat, _, _ in steps(game)} == {0, 1, 2}
    assert (game.bout, game.attacker) == (2, 1)
    # The same deal with throw_in all: seat 3 is asked after seat 2.
    other = deal(Rules.preset("classic", players=5), hands, "AD")
    play(other, (0, "attack 9S"), (1, "defend 9S TS"), (2, "pass"))
    assert other.to_act == 3
    assert legal(other) == ["attack 9C", "attack TC", "pass"]


# ---------------------------------------------------------------- multi_card_attacks


def test_without_multi_card_attacks_the_defender_answers_each_card_at_once() -> None:
    """Section 4: `multi_card_attacks = false`: "the attackers' phase ends as soon as one card has been added"."""
    hands = [["6D", "7S", "7H", "TC", "JC", "KS"], ["8S", "TS", "KH", "8C", "7D", "QS"],
             ["6S", "9S", "6H", "7C", "QC", "9C"]]
    game = deal(Rules.preset("classic", players=3), hands, "AD")
    play(game, (0, "attack 7S"))
    assert game.to_act == 1
    assert table(game) == [("7S", None)]


def test_with_multi_card_attacks_all_attackers_add_cards_before_the_defender_answers() -> None:
    """Section 4: `multi_card_attacks = true`: the phase "goes on until every eligible attacker has passed in a
    row; so a lead may be several cards of one rank, and others may join before the defender answers"."""
    hands = [["6D", "7S", "7H", "TC", "JC", "KS"], ["8S", "TS", "KH", "8C", "7D", "QS"],
             ["6S", "9S", "6H", "7C", "QC", "9C"]]
    rules = Rules.preset("classic", players=3).replace(multi_card_attacks=True)
    game = deal(rules, hands, "AD")
    play(game, (0, "attack 7S"))
    assert game.to_act == 0
    assert legal(game) == ["attack 7H", "pass"]
    play(game, (0, "attack 7H"))
    # Seat 0 has no seven left (forced pass); seat 2 may join with 7C.
    assert game.to_act == 2
    assert legal(game) == ["attack 7C", "pass"]
    play(game, (2, "attack 7C"))
    assert game.to_act == 1
    assert table(game) == [("7S", None), ("7H", None), ("7C", None)]
    assert steps(game)[-2:] == [(0, "pass", True), (2, "pass", True)]


def test_defender_chooses_which_card_covers_which_attack_card() -> None:
    """Section 4: `defend attack_card card`: "the defender chooses which card covers which"."""
    hands = [["6D", "7S", "7H", "TC", "JC", "KS"], ["8S", "TS", "KH", "8C", "7D", "QS"],
             ["6S", "9S", "6H", "7C", "QC", "9C"]]
    rules = Rules.preset("classic", players=3).replace(multi_card_attacks=True)
    game = deal(rules, hands, "AD")
    play(game, (0, "attack 7S"), (0, "attack 7H"), (2, "attack 7C"))
    assert legal(game) == [
        "defend 7C 7D", "defend 7C 8C", "defend 7H 7D", "defend 7H KH", "defend 7S 7D", "defend 7S 8S",
        "defend 7S QS", "defend 7S TS", "take",
    ]
    play(game, (1, "defend 7H 7D"))
    assert game.to_act == 1
    assert table(game) == [("7S", None), ("7H", "7D"), ("7C", None)]
    assert "defend 7H KH" not in legal(game)


# ---------------------------------------------------------------- forced moves


def test_defender_whose_only_option_is_take_takes_as_a_forced_move() -> None:
    """Section 4: the engine never asks "a defender whose only option is `take`"; forced moves appear in the
    steps but not in the decisions."""
    game = deal(Rules.preset("classic", players=2),
                [["6D", "AS", "9H", "7C", "8C", "TC"], ["6S", "7S", "8S", "6H", "7H", "8H"]], "KD")
    play(game, (0, "attack AS"))
    assert steps(game) == [(0, "attack AS", False), (1, "take", True), (0, "pass", True)]
    assert decisions(game) == [(0, "attack AS")]
    assert "AS" in hand(game, 1)
    assert (game.bout, game.to_act) == (2, 0)


def test_main_attacker_with_a_single_card_leads_as_a_forced_move() -> None:
    """Section 4: the engine never asks "a main attacker holding a single card for the lead"."""
    rules = Rules.preset("classic", players=2).replace(hand_size=1)
    game = deal(rules, [["7S"], ["8S"]], "AD")
    assert steps(game) == [(0, "attack 7S", True)]
    assert decisions(game) == []
    assert game.to_act == 1
    assert legal(game) == ["defend 7S 8S", "take"]


# ---------------------------------------------------------------- take, and the end of a bout


def test_take_lets_attackers_add_cards_and_the_defender_picks_up_everything() -> None:
    """Section 4: after `take` "the defender makes no decision in this bout; the attackers' phase runs
    (attackers may still add cards within L1-L3)"; Taken: "The defender picks up every card on the table"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (2, "attack 8H"), (1, "take"))
    assert game.take_declared
    assert game.to_act == 2
    assert legal(game) == ["attack 7C", "pass"]
    play(game, (2, "attack 7C"))
    assert decisions(game)[-2:] == [(1, "take"), (2, "attack 7C")]
    assert hand(game, 1) == {"TS", "7H", "KH", "8C", "7D", "7S", "8S", "8H", "7C"}
    assert table(game) == []
    assert game.bout == 2


def test_taken_bout_next_player_after_the_defender_attacks() -> None:
    """Section 4: Taken: "The next active player after the defender attacks next (the defender loses the turn)"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "take"), (2, "pass"))
    assert (game.bout, game.attacker, game.defender) == (2, 2, 0)
    assert game.to_act == 2


def test_beaten_off_bout_the_defender_attacks_next_and_the_table_is_discarded() -> None:
    """Section 4: Beaten off: "The table goes to the discard pile ... The defender attacks next"."""
    game = deal(Rules.preset("classic", players=4), FOUR, "AD")
    play(game, (2, "attack 9S"), (3, "defend 9S TS"), (2, "pass"), (0, "pass"), (1, "attack 9H"),
         (3, "defend 9H JH"), (2, "pass"), (0, "pass"), (1, "pass"))
    assert (game.bout, game.attacker, game.defender) == (2, 3, 0)
    assert {str(c) for c in game.observation(0).discard} == {"9S", "TS", "9H", "JH"}
    assert table(game) == []


def test_bout_ends_beaten_off_when_the_defender_has_no_cards_left() -> None:
    """Section 4: beaten off when "no card can be added: ... the defender has no cards left"."""
    rules = Rules.preset("classic", players=3).replace(hand_size=1)
    game = deal(rules, [["7S"], ["8S"], ["7H"]], "AD")
    play(game, (1, "defend 7S 8S"))
    # Seat 2 holds a seven, but the defender holds no card: nothing more may be added.
    assert steps(game)[:4] == [(0, "attack 7S", True), (1, "defend 7S 8S", False), (0, "pass", True),
                               (2, "pass", True)]
    # Beaten off: seat 1, the defender, leads bout 2 (with its single drawn card, a forced move).
    assert steps(game)[4][0] == 1
    assert steps(game)[4][1].startswith("attack")
