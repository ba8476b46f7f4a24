"""docs/rules.md section 4, `transfer` (Perevodnoy / Weiterschieben)."""

from __future__ import annotations

import pytest

from bots_sdk.engine import Game, IllegalActionError, Rules
from tests.engine.deals import deal, hand, legal, play, steps, table

# Three players, trump diamonds (AD). Seat 0 holds 6D (lowest trump) and leads; seat 1 defends and holds
# 7H to transfer with; seat 2 holds 7C and 7D to transfer on.
THREE = [
    ["6D", "7S", "9H", "TC", "JC", "KS"],
    ["7H", "8S", "TS", "KH", "8C", "QS"],
    ["7C", "7D", "9S", "6H", "QC", "9C"],
]


def three(preset: str = "transfer") -> Game:
    return deal(Rules.preset(preset, players=3), THREE, "AD")


def test_defender_may_transfer_with_a_card_of_the_attack_rank() -> None:
    """Section 4: `transfer card` is allowed while nothing is beaten, "the card has the same rank as every
    attack card on the table"; "the transferring player becomes the main attacker, the next active player
    becomes the defender"."""
    game = three()
    play(game, (0, "attack 7S"))
    assert legal(game) == ["defend 7S 8S", "defend 7S QS", "defend 7S TS", "take", "transfer 7H"]
    play(game, (1, "transfer 7H"))
    assert (game.attacker, game.defender) == (1, 2)
    assert table(game) == [("7S", None), ("7H", None)]


def test_transfer_does_not_start_a_new_bout() -> None:
    """Section 4: "a transfer does not start a new bout" (bout 1 keeps the first-bout limit)."""
    game = three()
    play(game, (0, "attack 7S"), (1, "transfer 7H"))
    assert game.bout == 1
    assert game.attack_limit == 5


def test_without_multi_card_attacks_the_new_defender_answers_at_once() -> None:
    """Section 4: "with `multi_card_attacks = false` the new defender answers at once"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "transfer 7H"))
    assert game.to_act == 2
    assert legal(game) == [
        "defend 7H 7D", "defend 7S 7D", "defend 7S 9S", "take", "transfer 7C", "transfer 7D",
    ]


def test_new_defender_may_transfer_again() -> None:
    """Section 4: "The new defender may transfer again"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "transfer 7H"), (2, "transfer 7C"))
    assert (game.attacker, game.defender, game.to_act) == (2, 0, 0)
    assert table(game) == [("7S", None), ("7H", None), ("7C", None)]
    assert not any(action.startswith("transfer") for action in legal(game))


def test_transfer_card_must_match_the_attack_rank() -> None:
    """Section 4: the transfer card "has the same rank as every attack card on the table"."""
    game = three()
    play(game, (0, "attack 7S"))
    with pytest.raises(IllegalActionError, match="does not match the rank"):
        game.apply("transfer 8S")


def test_no_transfer_once_an_attack_card_has_been_beaten() -> None:
    """Section 4: a transfer is "allowed while no attack card of this bout has been beaten yet"."""
    game = three()
    play(game, (0, "attack 7S"), (1, "defend 7S 8S"), (2, "attack 7C"))
    assert game.to_act == 1
    assert "7H" in hand(game, 1)
    assert "transfer 7H" not in legal(game)
    with pytest.raises(IllegalActionError, match="before any attack card of the bout is beaten"):
        game.apply("transfer 7H")


def test_transfer_needs_the_next_player_to_hold_one_card_more_than_the_table() -> None:
    """Section 4: "the next active player after the defender holds at least (attack cards on the table + 1)
    cards": with one card on the table, 2 cards are enough."""
    rules = Rules.preset("transfer", players=3).replace(hand_size=2)
    game = deal(rules, [["7S", "KS"], ["7H", "6C"], ["7C", "8S"]], "AD")
    play(game, (0, "attack 7S"))
    assert legal(game) == ["take", "transfer 7H"]
    play(game, (1, "transfer 7H"))
    # Two cards on the table, seat 0 holds one (KS): seat 2 may not transfer 7C.
    assert legal(game) == ["defend 7S 8S", "take"]
    with pytest.raises(IllegalActionError, match=r"seat 0\) holds 1 cards, a transfer needs at least 3"):
        game.apply("transfer 7C")


def test_no_transfer_when_the_next_player_holds_too_few_cards() -> None:
    """Section 4: with one card on the table and a next player holding one card there is no transfer; the
    defender's only option is then `take` (a forced move)."""
    rules = Rules.preset("transfer", players=3).replace(hand_size=1)
    game = deal(rules, [["7S"], ["7H"], ["8C"]], "AD")
    assert steps(game)[:2] == [(0, "attack 7S", True), (1, "take", True)]


def test_in_two_player_games_the_attack_goes_straight_back() -> None:
    """Section 4: "In 2-player games the attack goes straight back"."""
    hands = [["6D", "7S", "7D", "9H", "TC", "JC"], ["7H", "7C", "8S", "KH", "8C", "QS"]]
    game = deal(Rules.preset("transfer", players=2), hands, "AD")
    play(game, (0, "attack 7S"), (1, "transfer 7H"))
    assert (game.attacker, game.defender, game.to_act) == (1, 0, 0)
    assert "transfer 7D" in legal(game)
    play(game, (0, "transfer 7D"))
    assert (game.attacker, game.defender, game.to_act) == (0, 1, 1)
    # Seat 0 now holds 4 cards = 3 on the table + 1: seat 1 may send it back once more.
    assert "transfer 7C" in legal(game)


def test_with_multi_card_attacks_an_attackers_phase_runs_before_the_new_defender_answers() -> None:
    """Section 4: "with `multi_card_attacks = true` an attackers' phase runs first (the transferring player,
    now the main attacker, may add more cards of the rank and others may join ...), then the new defender
    answers"."""
    hands = [
        ["6D", "7S", "9H", "TC", "JC", "KS"],
        ["7H", "7C", "8S", "KH", "8C", "QS"],
        ["7D", "9S", "6H", "QC", "9C", "TS"],
    ]
    rules = Rules.preset("transfer", players=3).replace(multi_card_attacks=True)
    game = deal(rules, hands, "AD")
    play(game, (0, "attack 7S"), (2, "pass"), (1, "transfer 7H"))
    assert (game.attacker, game.defender) == (1, 2)
    assert game.eligible_attackers() == [1, 0]
    assert game.to_act == 1
    assert legal(game) == ["attack 7C", "pass"]
    play(game, (1, "attack 7C"))
    assert game.to_act == 2
    assert table(game) == [("7S", None), ("7H", None), ("7C", None)]
    assert "transfer 7D" in legal(game)


def test_transfer_makes_the_new_defenders_hand_the_L2_limit() -> None:
    """Section 4: after a transfer "the next active player becomes the defender (L2 uses their hand size at
    this moment)"."""
    rules = Rules.preset("transfer", players=3).replace(hand_size=4)
    game = deal(rules, [["6D", "7S", "9H", "TC"], ["7H", "8S", "KH", "QS"], ["7C", "9S", "6H", "QC"]], "AD")
    assert game.attack_limit == 4
    play(game, (0, "attack 7S"), (1, "transfer 7H"))
    assert game.attack_limit == 4
    play(game, (2, "transfer 7C"))
    # Seat 0 led one card and defends with three: three attack cards at most.
    assert game.defender == 0
    assert game.attack_limit == 3


def test_eligible_attackers_are_computed_anew_after_a_transfer() -> None:
    """Section 4: after a transfer "eligibility is computed anew" (main attacker first, then clockwise from the
    new defender's left)."""
    hands = [
        ["6D", "7S", "9H", "TC", "JC", "KS"],
        ["7H", "8S", "TS", "KH", "8C", "QS"],
        ["9S", "6H", "QC", "9C", "6S", "6C"],
        ["7C", "8H", "JH", "AH", "JS", "AS"],
    ]
    game = deal(Rules.preset("transfer", players=4), hands, "AD")
    assert game.eligible_attackers() == [0, 2, 3]
    play(game, (0, "attack 7S"), (1, "transfer 7H"))
    assert (game.attacker, game.defender) == (1, 2)
    assert game.eligible_attackers() == [1, 3, 0]


def test_transfer_is_not_offered_without_the_option() -> None:
    """Section 4: `transfer card` exists "only with option `transfer`"."""
    game = three("classic")
    play(game, (0, "attack 7S"))
    assert legal(game) == ["defend 7S 8S", "defend 7S QS", "defend 7S TS", "take"]
    with pytest.raises(IllegalActionError, match="option transfer is off"):
        game.apply("transfer 7H")


def test_after_a_transfer_the_transferring_player_is_the_main_attacker_who_draws_first() -> None:
    """Sections 4-5: "the transferring player becomes the main attacker"; drawing starts with the main attacker,
    then clockwise skipping the defender."""
    game = three()
    play(game, (0, "attack 7S"), (1, "transfer 7H"), (2, "take"))
    draws = [(e.seat, e.count) for e in game.observation(0).history if e.kind == "draw"]
    assert draws == [(1, 1), (0, 1)]
    assert {"7S", "7H"} <= hand(game, 2)
    assert (game.bout, game.attacker, game.defender) == (2, 0, 1)
