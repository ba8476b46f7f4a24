"""Finishing places and the chess tie-breaks, on hand-worked examples and replayed records (no database)."""

from __future__ import annotations

import random

from arena.tournaments.places import out_groups, out_positions
from arena.tournaments.tiebreaks import Tally, TieBreaks, finishing_places, standing_key, tiebreaks
from bots_sdk.engine import Game, GameRecord, Rules


def test_places_follow_the_order_out_and_the_durak_is_last() -> None:
    assert finishing_places([("a", 3, False), ("b", 1, False), ("c", 2, False), ("d", None, True)]) == {
        "b": 1.0, "c": 2.0, "a": 3.0, "d": 4.0}


def test_seats_still_holding_cards_when_a_forfeit_ends_the_game_share_the_places_between() -> None:
    # d timed out (the durak); a had gone out; b and c still held cards: they share 2nd and 3rd.
    assert finishing_places([("a", 1, False), ("b", None, False), ("c", None, False), ("d", None, True)]) == {
        "a": 1.0, "b": 2.5, "c": 2.5, "d": 4.0}


def test_a_draw_shares_and_a_team_takes_its_first_seat_out() -> None:
    assert finishing_places([("a", None, False), ("b", None, False)], draw=True) == {"a": 1.5, "b": 1.5}
    # Teams: x holds seats 0 and 2, y seats 1 and 3; y's seat 1 went out first, x lost.
    assert finishing_places([("x", 2, True), ("y", 1, False), ("x", None, True), ("y", None, False)]) == {
        "y": 1.0, "x": 2.0}


def _three_rounds() -> dict[str, Tally[str]]:
    """Three entrants at tables of two, one deal (two games) a table, each sitting one round out (a bye scores
    an average seat, 1 point): a beat b 2-0, a and c split 1-1, c beat b 2-0."""
    return {
        "a": Tally(points=4, byes=1, opponents=["b", "c"], results=[("b", 1), ("b", 1), ("c", 1), ("c", 0)]),
        "b": Tally(points=1, byes=1, opponents=["a", "c"], results=[("a", 0), ("a", 0), ("c", 0), ("c", 0)]),
        "c": Tally(points=4, byes=1, opponents=["a", "b"], results=[("a", 0), ("a", 1), ("b", 1), ("b", 1)]),
    }


def test_buchholz_counts_a_bye_as_a_virtual_opponent_with_the_entrants_own_points() -> None:
    breaks = tiebreaks(_three_rounds(), sides=2, games_per_bye=2)
    # a: b's 1 + c's 4 + the bye's virtual opponent holding a's own 4.
    assert breaks["a"].buchholz == 9
    # Median Buchholz cuts the highest term and, at the low end, the bye's virtual opponent first (FIDE).
    assert breaks["a"].median_buchholz == 1
    assert breaks["b"].buchholz == 4 + 4 + 1 and breaks["b"].median_buchholz == 4


def test_sonneborn_berger_weighs_each_result_by_the_opponents_points_and_a_bye_as_a_draw() -> None:
    breaks = tiebreaks(_three_rounds(), sides=2, games_per_bye=2)
    # a: 1·1 + 1·1 (beat b twice) + 1·4 + 0·4 (split with c), plus the bye: two drawn games against a virtual 4.
    assert breaks["a"].sonneborn_berger == 6 + 4
    assert breaks["b"].sonneborn_berger == 0 + 0.5 * 1 * 2


def test_direct_encounter_settles_a_tie_the_earlier_breaks_leave_when_the_tied_met() -> None:
    # a beat b twice; a lost twice to c and b beat d twice: a and b tie on points, Buchholz and SB.
    tallies = {
        "a": Tally(points=3, opponents=["b", "c"], results=[("b", 1), ("b", 1), ("c", 0), ("c", 0)]),
        "b": Tally(points=3, opponents=["a", "d"], results=[("a", 0), ("a", 0), ("d", 1), ("d", 1)]),
        "c": Tally(points=3, opponents=["a"], results=[("a", 1), ("a", 1)]),
        "d": Tally(points=3, opponents=["b"], results=[("b", 0), ("b", 0)]),
    }
    breaks = tiebreaks(tallies, sides=2, games_per_bye=2)
    first = [(b.buchholz, b.median_buchholz, b.sonneborn_berger) for b in (breaks["a"], breaks["b"])]
    assert first == [(6, 6, 6), (6, 6, 6)]
    assert breaks["a"].direct == 2 and breaks["b"].direct == 0
    # c and d are tied with nobody after SB; and a group whose members did not all meet gets no direct encounter.
    assert breaks["c"].direct == breaks["d"].direct == 0
    apart = {"a": Tally(points=3, opponents=["c"], results=[("c", 1)]),
             "b": Tally(points=3, opponents=["c"], results=[("c", 1)]),
             "c": Tally(points=0, opponents=["a", "b"], results=[("a", 0), ("b", 0)])}
    assert tiebreaks(apart, sides=2, games_per_bye=2)["a"].direct == 0


def test_the_order_is_points_buchholz_median_sb_direct_finishing_then_seed() -> None:
    def key(points: float, *parts: float, seed: int = 9) -> tuple[float, ...]:
        return standing_key(points, TieBreaks(*parts), seed)

    assert key(5, 0, 0, 0, 0, 0) < key(4, 99, 99, 99, 99, 99)
    assert key(4, 10, 0, 0, 0, 0) < key(4, 9, 99, 99, 99, 99)
    assert key(4, 9, 5, 0, 0, 0) < key(4, 9, 4, 99, 99, 99)
    assert key(4, 9, 4, 7, 0, 0) < key(4, 9, 4, 6, 99, 99)
    assert key(4, 9, 4, 6, 2, 0) < key(4, 9, 4, 6, 1, 99)
    assert key(4, 9, 4, 6, 1, 8) < key(4, 9, 4, 6, 1, 7, seed=1)
    assert key(4, 9, 4, 6, 1, 7, seed=1) < key(4, 9, 4, 6, 1, 7, seed=2)


def test_seats_that_go_out_in_the_same_bout_share_their_place() -> None:
    """Random four-player games replayed from their records: where two seats emptied their hands in one bout, the
    record lists one before the other, but the replay groups them and the places are shared."""
    rules = Rules.preset("classic", 4)
    for seed in range(300):
        game = Game.new(rules, seed)
        rng = random.Random(seed)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        record = GameRecord.from_game(game).to_dict()
        groups = out_groups(record)
        assert groups is not None and [s for g in groups for s in g] == record["result"]["out_order"]
        together = next((g for g in groups if len(g) > 1), None)
        if together is None or record["result"]["durak"] is None:
            continue
        positions = out_positions(record)
        assert positions is not None
        places = finishing_places([(seat, positions.get(seat), seat == record["result"]["durak"])
                                   for seat in range(4)])
        assert len({places[seat] for seat in together}) == 1
        assert out_groups({**record, "result": {**record["result"], "out_order": []}}) is None  # not its own
        return
    raise AssertionError("no game of 300 had two seats out in one bout")
