"""Byes are spread: nobody gets a second bye while another entrant still in has had none (knockout and Swiss)."""

from __future__ import annotations

import random

from arena.tournaments.formats import knockout_round, swiss_byes


def test_knockout_byes_go_to_those_with_the_fewest_so_far_whoever_wins() -> None:
    rng = random.Random(22)
    for k in range(2, 5):
        for n in range(k + 1, 26):
            alive, had = list(range(n)), dict.fromkeys(range(n), 0)
            while len(alive) > k:
                plan = knockout_round(alive, k, had)
                for entrant in plan.byes:
                    assert had[entrant] <= min(had[e] for e in alive if e not in plan.byes), (n, k, had)
                    had[entrant] += 1
                winners = [e for table, go in zip(plan.tables, plan.advance) for e in rng.sample(table, go)]
                alive = sorted([*plan.byes, *winners])


def test_a_swiss_bye_goes_to_the_lowest_ranked_among_those_with_the_fewest() -> None:
    had = {0: 1, 1: 0, 2: 1, 3: 1, 4: 1}
    assert swiss_byes([0, 1, 2, 3, 4], 2, had) == [1]
