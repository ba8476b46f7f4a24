"""Finishing places and the standings' tie-breaks: pure functions over game results, no Django.

Entrants are any hashable keys (the services pass entry pks). A game is the
list of its seats, each ``(entrant, out_position, durak)``; under a team
preset one entrant holds several seats.

**Finishing places.** In Durak only the durak loses, which cannot separate
the others at a table of three or more; the order in which players went out
does. A game's places: the seats that went out, in the order they went out
(out first is best; seats that went out in the same bout share, as
``arena.tournaments.places`` finds by replaying the record), then the seats
still holding cards when the game stopped (a draw by a limit, or a forfeit by
another seat), sharing the places between, then the durak, last. Shared places
are averaged (two seats sharing 2nd and 3rd both have 2.5). Where only the
record's listed order is known, a normal draw's last two out share (a draw
ends with at least two players emptying their hands in the same bout). A team's place is that of its first seat out (the
durak's team is last). **Finishing points**: ``sides - place`` per game (at a
table of three: 2 for first out, 1 for second, 0 for the durak), so they add
up to the same total at every table.

**Tie-breaks** (Swiss and round robin), in this order after points:

1. *Buchholz*: the sum of the final points of every opponent met, one term per
   opponent per table.
2. *Median Buchholz*: Buchholz without its highest and its lowest term.
3. *Sonneborn-Berger*: for each game and each opponent at it, the pairwise
   result (1 when the opponent is the durak, 0 when this entrant is, ½
   otherwise) times the opponent's final points.
4. *Direct encounter*: when every two of the entrants still tied met, the
   pairwise results of the games among them; otherwise it does not apply (0).
5. *Finishing points* (above).
6. Then the seed, the last resort.

**Byes count as FIDE counts them** (FIDE tie-break regulations, 2023,
article 16): a bye already scores, in everyone's points, what an average seat
scores (as a drawn game would); for the entrant's own opponent-based
tie-breaks each bye is a game against *virtual opponents* (one per other seat
of a table) holding the entrant's own final points: they add that many terms
to Buchholz, median Buchholz cuts them first at the low end, and in
Sonneborn-Berger they count as drawn. A bye has no finishing points.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

E = TypeVar("E", bound=Hashable)

Seat = tuple[E, int | None, bool]
"""One seat of a game: (entrant, out position from 1 or None, whether it is the durak)."""


def finishing_places(seats: Sequence[Seat[E]], draw: bool = False) -> dict[E, float]:
    """Each entrant's place in one game (1 is best; shared places averaged), as the module docstring says.

    >>> finishing_places([("a", 2, False), ("b", 1, False), ("c", None, True)])
    {'b': 1.0, 'a': 2.0, 'c': 3.0}
    >>> finishing_places([("a", None, False), ("b", 1, False), ("c", None, False)], draw=True)
    {'b': 1.0, 'a': 2.5, 'c': 2.5}
    >>> finishing_places([("a", 1, False), ("b", 2, False), ("c", 3, False)], draw=True)
    {'a': 1.0, 'b': 2.5, 'c': 2.5}
    """
    # Per entrant: (group, order within the group); group 0 went out, 1 still held cards, 2 is the durak.
    keys: dict[E, tuple[int, int]] = {}
    for entrant, out, durak in seats:
        key = (2, 0) if durak else (0, out) if out is not None else (1, 0)
        keys[entrant] = min(keys.get(entrant, key), key) if not durak else (2, 0)
    if draw and all(group == 0 for group, _ in keys.values()) and len(keys) >= 2:
        last = sorted(keys.values())[-2:]
        for entrant, key in keys.items():
            if key in last:
                keys[entrant] = (0, last[0][1])
    ordered = sorted(keys.items(), key=lambda item: item[1])
    places: dict[E, float] = {}
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1][1] == ordered[start][1]:
            end += 1
        for entrant, _ in ordered[start:end + 1]:
            places[entrant] = (start + end) / 2 + 1
        start = end + 1
    return places


def pair_score(mine_durak: bool, theirs_durak: bool) -> float:
    """One entrant's result against one opponent in one game: 1 if the opponent is the durak, 0 if it is, else ½."""
    return 0.0 if mine_durak else 1.0 if theirs_durak else 0.5


@dataclass
class Tally(Generic[E]):
    """Everything the tie-breaks need of one entrant; ``opponents`` holds one entry per opponent per table."""

    points: float = 0.0
    byes: int = 0
    finishing: float = 0.0
    opponents: list[E] = field(default_factory=list)
    results: list[tuple[E, float]] = field(default_factory=list)
    """(opponent, pairwise result) per game per opponent: Sonneborn-Berger and direct encounter read them."""


@dataclass(frozen=True)
class TieBreaks:
    buchholz: float
    median_buchholz: float
    sonneborn_berger: float
    direct: float
    finishing: float


def _buchholz(entrant: E, tallies: Mapping[E, Tally[E]], sides: int) -> tuple[float, float]:
    mine = tallies[entrant]
    real = sorted(tallies[o].points for o in mine.opponents)
    virtual = [mine.points] * (mine.byes * (sides - 1))
    total = sum(real) + sum(virtual)
    terms = len(real) + len(virtual)
    if terms < 3:
        return total, total
    low = virtual[0] if virtual else real[0]
    high = max(real + virtual)
    return total, total - low - high


def tiebreaks(tallies: Mapping[E, Tally[E]], sides: int, games_per_bye: int) -> dict[E, TieBreaks]:
    """Every entrant's tie-breaks, direct encounter included (computed within the groups still tied after
    points, Buchholz, median Buchholz and Sonneborn-Berger).

    >>> t = {"a": Tally(points=2, opponents=["b"], results=[("b", 1.0), ("b", 1.0)]),
    ...      "b": Tally(points=0, opponents=["a"], results=[("a", 0.0), ("a", 0.0)])}
    >>> tiebreaks(t, 2, 2)["a"]
    TieBreaks(buchholz=0, median_buchholz=0, sonneborn_berger=0.0, direct=0.0, finishing=0.0)
    """
    partial: dict[E, tuple[float, float, float]] = {}
    for entrant, tally in tallies.items():
        buchholz, median = _buchholz(entrant, tallies, sides)
        sb = sum(score * tallies[o].points for o, score in tally.results)
        sb += 0.5 * tally.points * tally.byes * (sides - 1) * games_per_bye
        partial[entrant] = (buchholz, median, sb)
    groups: dict[tuple[float, ...], list[E]] = {}
    for entrant, tally in tallies.items():
        groups.setdefault((tally.points, *partial[entrant]), []).append(entrant)
    direct: dict[E, float] = dict.fromkeys(tallies, 0.0)
    for members in groups.values():
        if len(members) < 2:
            continue
        inside = set(members)
        met = {(e, o) for e in members for o in tallies[e].opponents if o in inside}
        if any((a, b) not in met for a in members for b in members if a != b):
            continue  # not every two of them met: direct encounter does not apply
        for entrant in members:
            direct[entrant] = sum(score for o, score in tallies[entrant].results if o in inside)
    return {
        entrant: TieBreaks(*partial[entrant], direct=direct[entrant], finishing=tally.finishing)
        for entrant, tally in tallies.items()
    }


def standing_key(points: float, breaks: TieBreaks, seed: int) -> tuple[float, ...]:
    """The sort key of a Swiss or round-robin standings line (ascending sorts best first)."""
    return (-points, -breaks.buchholz, -breaks.median_buchholz, -breaks.sonneborn_berger, -breaks.direct,
            -breaks.finishing, seed)
