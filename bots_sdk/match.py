"""A local match: many games between bots, seats rotated, with a summary of rates.

Seats rotate every game (game ``g`` puts bot ``i`` in seat ``(i + g) % n``), so
no bot keeps the advantage or burden of a seat; per-seat rates then show the
seat effect itself (for example the first attacker's disadvantage).
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from bots_sdk.bot import Bot
from bots_sdk.engine import Rules
from bots_sdk.local import PlayedGame, play_game
from bots_sdk.stats import format_rate


@dataclasses.dataclass
class MatchSummary:
    """Counts over a match; rates are derived when printed."""

    rules: Rules
    names: list[str]
    """The bots' names, in the order they were given (duplicates get ``#2``, ``#3``)."""
    games: int = 0
    durak_by_bot: Counter[str] = dataclasses.field(default_factory=Counter)
    durak_by_seat: Counter[int] = dataclasses.field(default_factory=Counter)
    forfeits_by_bot: Counter[str] = dataclasses.field(default_factory=Counter)
    draws: Counter[str] = dataclasses.field(default_factory=Counter)
    """Draws by reason."""
    bouts: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def add(self, played: PlayedGame, seat_names: Sequence[str]) -> None:
        outcome = played.game.outcome
        assert outcome is not None
        self.games += 1
        self.bouts += played.game.bout
        self.decisions += len(played.ms)
        if outcome.durak is None:
            self.draws[outcome.reason.value] += 1
        else:
            self.durak_by_bot[seat_names[outcome.durak]] += 1
            self.durak_by_seat[outcome.durak] += 1
        if outcome.offender is not None:
            self.forfeits_by_bot[seat_names[outcome.offender]] += 1

    def table(self) -> str:
        """The summary as aligned text: durak rate per bot and per seat, draws, speed."""
        n = self.rules.players
        games = self.games
        lines = [
            f"{games} games of {self.rules.preset_name} with {n} players;"
            f" fair share of durak {100 / n:.1f} %",
            "",
            f"{'bot':<16} {'games':>6} {'durak':>6}  durak rate (95 % interval)  {'forfeits':>8}",
        ]
        for name in self.names:
            lines.append(
                f"{name:<16} {games:>6} {self.durak_by_bot[name]:>6}  "
                f"{format_rate(self.durak_by_bot[name], games):<26}  {self.forfeits_by_bot[name]:>8}"
            )
        lines += ["", f"{'seat':<16} {'games':>6} {'durak':>6}  durak rate (95 % interval)"]
        for seat in range(n):
            lines.append(
                f"{seat:<16} {games:>6} {self.durak_by_seat[seat]:>6}  {format_rate(self.durak_by_seat[seat], games)}"
            )
        draws = sum(self.draws.values())
        reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(self.draws.items()))
        lines += [
            "",
            f"draws: {draws} ({format_rate(draws, games)})" + (f": {reasons}" if reasons else ""),
            f"mean bouts per game: {self.bouts / games:.1f}" if games else "mean bouts per game: -",
            f"decisions: {self.decisions} in {self.seconds:.1f} s"
            f" ({self.decisions / self.seconds:,.0f} decisions/s, {games / self.seconds:,.1f} games/s)"
            if self.seconds > 0 else "",
        ]
        return "\n".join(lines).rstrip() + "\n"


def unique_names(names: Sequence[str]) -> list[str]:
    """``["gentle", "gentle"]`` -> ``["gentle", "gentle#2"]``, so each bot is counted apart."""
    seen: Counter[str] = Counter()
    out = []
    for name in names:
        seen[name] += 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def play_match(
    rules: Rules,
    bots: Sequence[Bot],
    games: int,
    seed: str = "0",
    records: Path | None = None,
    on_game: Callable[[int, PlayedGame], None] | None = None,
) -> MatchSummary:
    """Play ``games`` games with seats rotated; write each record into ``records`` if given."""
    n = rules.players
    if len(bots) != n:
        raise ValueError(f"bots: {len(bots)} bots for a {n}-player game")
    names = unique_names([bot.name for bot in bots])
    summary = MatchSummary(rules, names)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for g in range(games):
        order = [(seat - g) % n for seat in range(n)]  # seat s holds bot order[s]
        played = play_game(rules, [bots[i] for i in order], seed=f"{seed}-{g}")
        summary.add(played, [names[i] for i in order])
        if records is not None:
            played.record().write(records / f"game-{g + 1:05d}.json")
        if on_game is not None:
            on_game(g, played)
    summary.seconds = time.perf_counter() - started
    return summary
