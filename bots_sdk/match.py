"""A local match: many games between bots, seats rotated, with a summary of rates.

Seats rotate every game (game ``g`` puts bot ``i`` in seat ``(i + g) % n``), so
no bot keeps the advantage or burden of a seat; per-seat rates then show the
seat effect itself (for example the first attacker's disadvantage).

Under a team preset a match may also give one bot per team: that bot then plays
every seat of its team (one instance per seat, since a bot keeps per-game state),
and the teams rotate instead of the seats. A team's loss counts against every bot
in it.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from bots_sdk.bot import Bot
from bots_sdk.engine import PLAYER_COUNTS, Rules
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
            losers = outcome.losers if outcome.losers is not None else (outcome.durak,)
            self.durak_by_bot.update({seat_names[s] for s in losers})
            self.durak_by_seat.update(losers)
        if outcome.offender is not None:
            self.forfeits_by_bot[seat_names[outcome.offender]] += 1

    def table(self) -> str:
        """The summary as aligned text: durak rate per bot and per seat, draws, speed."""
        n = self.rules.players
        games = self.games
        teams = self.rules.teams
        sides = len(teams) if teams else n
        layout = f" in teams {' vs '.join('+'.join(map(str, team)) for team in teams)}" if teams else ""
        lines = [
            f"{games} games of {self.rules.preset_name} with {n} players{layout};"
            f" fair share of durak {100 / sides:.1f} %",
            "",
            f"{'bot':<16} {'games':>6} {'durak':>6}  durak rate (95 % interval)  {'forfeits':>8}",
        ]
        for name in self.names:
            lines.append(
                f"{name:<16} {games:>6} {self.durak_by_bot[name]:>6}  "
                f"{format_rate(self.durak_by_bot[name], games):<26}  {self.forfeits_by_bot[name]:>8}"
            )
        # A team's seats lose together: one row per team says the same as one per seat, in fewer lines.
        places = [("+".join(map(str, team)), team[0]) for team in teams] if teams else [(str(s), s) for s in range(n)]
        lines += ["", f"{'team' if teams else 'seat':<16} {'games':>6} {'durak':>6}  durak rate (95 % interval)"]
        for label, seat in places:
            lost = self.durak_by_seat[seat]
            lines.append(f"{label:<16} {games:>6} {lost:>6}  {format_rate(lost, games)}")
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


def table_rules(preset: str, entrants: int, players: int | None = None) -> Rules:
    """The rules for ``entrants`` bots under ``preset``: one bot a seat, or under a team preset one a team.

    Without ``players``, a team preset picks the table at which ``entrants`` is the number of teams
    (``pagat-pairs`` with 2 bots: 4 players), unless ``entrants`` is itself a table size it allows.
    """
    if players is None:
        players = max(2, entrants)
        counts = PLAYER_COUNTS.get(preset, ())
        if players not in counts:
            for count in counts:
                teams = Rules.preset(preset, count).teams
                if teams is not None and len(teams) == entrants:
                    players = count
                    break
    rules = Rules.preset(preset, players=players)
    if entrants != players and (rules.teams is None or entrants != len(rules.teams)):
        per_team = f" or one per team ({len(rules.teams)})" if rules.teams else ""
        raise ValueError(f"{entrants} bots for a {players}-player game; give one per seat{per_team}")
    return rules


def seat_order(rules: Rules, entrants: int, game: int) -> list[int]:
    """Which entrant sits in each seat in game ``game``: seats rotate, or with one entrant a team, teams do."""
    n = rules.players
    teams = rules.teams
    if teams is None or entrants == n:
        return [(seat - game) % n for seat in range(n)]
    order = [0] * n
    for index, team in enumerate(teams):
        for seat in team:
            order[seat] = (index - game) % len(teams)
    return order


def play_match(
    rules: Rules,
    bots: Sequence[Bot | Sequence[Bot]],
    games: int,
    seed: str = "0",
    records: Path | None = None,
    on_game: Callable[[int, PlayedGame], None] | None = None,
) -> MatchSummary:
    """Play ``games`` games with seats (or teams) rotated; write each record into ``records`` if given.

    ``bots`` holds one bot a seat, or under a team preset one entry a team: that bot's instances, one
    for each seat of the team.
    """
    n = rules.players
    entries = [[entry] if isinstance(entry, Bot) else list(entry) for entry in bots]
    if len(entries) != n and (rules.teams is None or len(entries) != len(rules.teams)):
        raise ValueError(f"bots: {len(entries)} bots for a {n}-player game")
    names = unique_names([entry[0].name for entry in entries])
    summary = MatchSummary(rules, names)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for g in range(games):
        order = seat_order(rules, len(entries), g)  # seat s holds entrant order[s]
        used = [0] * len(entries)
        seated = []
        for entrant in order:
            seated.append(entries[entrant][used[entrant]])
            used[entrant] += 1
        played = play_game(rules, seated, seed=f"{seed}-{g}")
        summary.add(played, [names[i] for i in order])
        if records is not None:
            played.record().write(records / f"game-{g + 1:05d}.json")
        if on_game is not None:
            on_game(g, played)
    summary.seconds = time.perf_counter() - started
    return summary
