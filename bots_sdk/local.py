"""Local play: bots in this process, driven through the engine, no gRPC.

The referee classifies bot faults the same way (a bad return is a protocol
fault, an illegal action a forfeit), so a bot that plays cleanly here plays
cleanly in the arena.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence

from bots_sdk.bot import Bot
from bots_sdk.engine import Action, Game, GameRecord, Reason, Rules, SeatInfo


@dataclasses.dataclass(frozen=True, slots=True)
class PlayedGame:
    game: Game
    ms: list[int]
    """Milliseconds each decision took, in the order of ``game.decisions()``."""
    seats: tuple[SeatInfo, ...]

    def record(self) -> GameRecord:
        return GameRecord.from_game(self.game, self.seats, self.ms)


def play_game(
    rules: Rules, bots: Sequence[Bot], seed: int | str | None = None, dealer: int | None = None
) -> PlayedGame:
    """Play one game with ``bots[i]`` in seat ``i``; a bot's fault ends the game as a forfeit."""
    if len(bots) != rules.players:
        raise ValueError(f"bots: {len(bots)} bots for a {rules.players}-player game")
    game = Game.new(rules, seed)
    if dealer is not None and dealer != game.dealer:
        game = Game.from_deck(rules, game.deck, dealer)
    for seat, bot in enumerate(bots):
        bot.start_game(seat, rules)
    ms: list[int] = []
    while not game.is_over():
        to_act = game.to_act
        assert to_act is not None
        seat = to_act
        observation = game.observation(seat)
        started = time.perf_counter()
        try:
            action = bots[seat].choose_action(observation)
        except Exception as error:  # a bot's bug ends its game, it must not end the match
            game.forfeit(seat, Reason.CRASH, f"{type(error).__name__}: {error}")
            break
        elapsed = round((time.perf_counter() - started) * 1000)
        if not isinstance(action, Action):
            game.forfeit(seat, Reason.PROTOCOL, f"choose_action returned {action!r}, not an Action")
            break
        why = game.why_illegal(action, seat)
        if why:
            game.forfeit(seat, Reason.ILLEGAL, f"{action}: {why}")
            break
        ms.append(elapsed)
        game.push(action)
    outcome = game.outcome
    assert outcome is not None
    for seat, bot in enumerate(bots):
        bot.end_game(outcome, game.observation(seat))
    seats = tuple(SeatInfo(bot.name, bot.version) for bot in bots)
    return PlayedGame(game, ms, seats)
