"""docs/rules.md section 7, partnerships (option `teams`), with the examples of seed 004 played card by card.

Seats are numbered clockwise. Seed 004 seats four players West, North, East, South (0-3: West's left is
North) with West+East against North+South; six players North, East, South-East, South, West, North-West
(0-5) in two teams of three, North+South-East+West against East+South+North-West. Every deal below uses
the whole 24-card deck, so the stock is empty from the start and players go out as soon as their hands
empty; the dealer is seat 3, so West (4 players) or West (6 players, seat 4) leads the first bout.
"""

from __future__ import annotations

import random

import pytest

from bots_sdk.engine import Action, Game, InvalidRulesError, Reason, Rules
from tests.engine.deals import deal, hand, play

WHOLE_DECK = {"deck": 24, "first_attacker": "dealer_left", "first_bout_limit": None}

# West, North, East, South. Trump is clubs (AC, the dealer's last card). North holds five trumps.
FOUR = [
    ["9S", "9H", "TH", "QS", "AH", "9D"],
    ["9C", "TC", "JC", "QC", "KC", "AS"],
    ["TS", "JS", "JD", "QD", "KD", "AD"],
    ["KS", "JH", "QH", "KH", "TD", "AC"],
]


def four(teams: bool) -> Game:
    rules = Rules.preset("pagat-pairs" if teams else "pagat", players=4).replace(**WHOLE_DECK)
    return deal(rules, FOUR, None, dealer=3)


def west_attacks_north_who_beats_off_and_runs_out(game: Game) -> None:
    """'West attacks North; North beats off the attack, running out of cards in the process.'"""
    play(game, (0, "attack 9S"), (1, "defend 9S 9C"), (0, "attack 9H"), (1, "defend 9H TC"), (0, "pass"),
         (2, "attack TS"), (1, "defend TS JC"), (0, "attack TH"), (1, "defend TH QC"), (0, "pass"),
         (2, "attack JS"), (1, "defend JS KC"), (0, "attack QS"), (1, "defend QS AS"))
    assert game.out_order == (1,)


def roles(game: Game) -> tuple[int, int, int, int]:
    """(main attacker, the position they play, defender, the position they play)."""
    return game.attacker, game.attacker_position, game.defender, game.defender_position


def test_seed_004_individual_example_four_players() -> None:
    """'As North now has no cards, the turn passes to East, who attacks South. Suppose this attack is
    successful. After South picks up the cards it will be West's turn to attack East.'"""
    game = four(teams=False)
    west_attacks_north_who_beats_off_and_runs_out(game)
    assert roles(game) == (2, 2, 3, 3)
    play(game, (2, "attack JD"), (3, "take"))
    assert roles(game) == (0, 0, 2, 2)


def test_seed_004_partnership_example_four_players() -> None:
    """'Since North succeeded it is now North's team's turn to attack, and as North has no cards South takes
    North's turn and successfully attacks East. South attacks West next; West beats off the attack. West must
    next attack South who is taking North's place. South picks up the attack card and now East attacks
    South.'"""
    game = four(teams=True)
    west_attacks_north_who_beats_off_and_runs_out(game)
    assert roles(game) == (3, 1, 2, 2)  # South leads from North's place against East
    play(game, (3, "attack KS"))  # East cannot beat it: the take is forced
    assert game.to_act == 3 and game.eligible_attackers() == [3]  # West is East's partner: no throw-in
    play(game, (3, "pass"))
    assert "KS" in hand(game, 2)
    assert roles(game) == (3, 3, 0, 0)  # South attacks West
    play(game, (3, "attack QH"), (0, "defend QH AH"), (3, "pass"))
    assert roles(game) == (0, 0, 3, 1)  # West attacks South, who takes North's place
    assert game.to_act == 3  # West's last card, 9D, was led for them (a forced move)
    play(game, (3, "take"))
    assert game.out_order == (1, 0)
    assert roles(game) == (2, 2, 3, 3)  # East attacks South: South plays twice as often, for North too


# North, East, South-East, South, West, North-West. Trump is hearts (AH, the dealer's last card).
SIX = [
    ["TS", "AS", "TD", "AD"],
    ["JS", "JD", "JC", "QC"],
    ["QS", "QD", "KC", "TC"],
    ["KS", "KD", "AC", "AH"],
    ["9S", "9H", "9D", "9C"],
    ["TH", "JH", "QH", "KH"],
]


def test_seed_004_partnership_example_six_players() -> None:
    """'N attacks E and E picks up. SE attacks S and S beats off this attack. It is South's turn to attack,
    and as West has no cards, South attacks the next opponent in rotation, who is North. North beats off
    this attack, and North must next attack North-West.'"""
    rules = Rules.preset("pagat-trios", players=6).replace(hand_size=4, **WHOLE_DECK)
    game = deal(rules, SIX, None, dealer=3)
    assert roles(game) == (4, 4, 5, 5)  # West leads against North-West, their left, and plays out four nines
    play(game, (4, "attack 9S"), (5, "take"), (4, "attack 9H"), (4, "attack 9D"), (4, "attack 9C"))
    assert game.out_order == (4,)
    assert roles(game) == (0, 0, 1, 1)
    play(game, (0, "attack TS"), (1, "take"), (0, "pass"), (2, "pass"))  # N attacks E and E picks up
    assert roles(game) == (2, 2, 3, 3)
    play(game, (2, "attack QS"), (3, "defend QS KS"), (2, "pass"))  # SE attacks S, S beats off
    assert roles(game) == (3, 3, 0, 4)  # South attacks North, who plays West's place
    play(game, (3, "attack KD"), (0, "defend KD AD"), (3, "pass"), (5, "pass"))
    assert roles(game) == (0, 4, 5, 5)  # North beats off and attacks North-West


def test_a_partner_never_throws_in_on_a_partner() -> None:
    game = four(teams=True)
    play(game, (0, "attack 9S"), (1, "take"))
    # South holds no nine anyway; East (West's partner) may, South (North's partner) never would be asked.
    assert 3 not in game.eligible_attackers()
    assert game.eligible_attackers()[0] == 0


def test_the_team_holding_the_last_cards_loses_and_nobody_holding_cards_is_a_draw() -> None:
    """'The team holding the last cards loses; if nobody holds cards, draw.' Random team games, both endings."""
    rules = Rules.preset("pagat-pairs", players=4)
    seen: set[str] = set()
    for seed in range(3000):
        if seen == {"draw", "lost"}:
            break
        game = Game.new(rules, seed)
        rng = random.Random(seed)
        while not game.is_over():
            game.push(rng.choice(game.legal_actions()))
        outcome = game.outcome
        assert outcome is not None
        holding = {s for s in range(4) if game.hand_size(s)}
        if outcome.reason is Reason.NORMAL and outcome.draw:
            assert holding == set() and outcome.losers == ()
            seen.add("draw")
        elif outcome.reason is Reason.NORMAL:
            assert outcome.losers is not None and holding <= set(outcome.losers)
            assert outcome.durak == min(holding)
            seen.add("lost")
    assert seen == {"draw", "lost"}


def test_a_forfeit_loses_for_the_whole_team() -> None:
    game = Game.new(Rules.preset("pagat-trios", players=6), seed=1)
    outcome = game.forfeit(3, Reason.TIMEOUT, "no answer")
    assert (outcome.durak, outcome.losers) == (3, (1, 3, 5))
    assert outcome.to_dict()["losers"] == [1, 3, 5]


def test_observation_names_the_partners() -> None:
    game = Game.new(Rules.preset("pagat-pairs", players=6), seed=2)
    assert game.observation(1).partners == (4,)
    assert game.observation(1).is_partner(4) and not game.observation(1).is_partner(2)
    assert Game.new(Rules.preset("pagat", players=4), seed=2).observation(1).partners == ()


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ([[0, 2]], "teams: .* is not null or a list of at least two teams"),
        ([[0, 2], [1, 2, 3]], "seat 2 is in two teams"),
        ([[0, 2], [1]], "seat 3 is in no team"),
        ([[0, 2], [1, 7]], "teams: 7 is not a seat of a 4-player game"),
    ],
)
def test_bad_team_lists_name_the_problem(teams: list[list[int]], message: str) -> None:
    data = {**Rules.preset("pagat-pairs", players=4).to_dict(), "preset": "custom", "teams": teams}
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_dict(data)


def test_team_lists_in_any_order_are_the_same_rules() -> None:
    data = {**Rules.preset("pagat-pairs", players=4).to_dict(), "teams": [[3, 1], [2, 0]]}
    assert Rules.from_dict(data) == Rules.preset("pagat-pairs", players=4)


def test_a_refused_transfer_names_the_opponent_it_would_go_to_not_the_defenders_partner() -> None:
    """Section 7 with option `transfer`: the attack passes to the next position of the other team. Here
    (pagat-pairs, random play from seed 2) seat 1 is out, so the next seat holding cards after the
    defender 0 is its partner 2, while a transfer would go to seat 3, which holds too few cards."""
    game = Game.new(Rules.preset("pagat-pairs", 4).replace(transfer=True), 2)
    rng = random.Random(2)
    for _ in range(109):
        game.push(rng.choice(game.legal_actions().sorted()))
    assert (game.to_act, game.defender, game.partners(0)) == (0, 0, (2,))
    assert game.is_out(1) and game.hand_size(3) == 1
    transfer = Action.transfer(next(c for c in game.hand(0) if c.rank == game.table()[0][0].rank))
    assert transfer not in game.legal_actions()
    assert game.why_illegal(transfer) == "the next player (seat 3) holds 1 cards, a transfer needs at least 2"
