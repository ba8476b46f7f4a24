"""Local play: bots in this process, driven through the engine, no gRPC.

The referee classifies bot faults the same way (a bad return is a protocol
fault, an illegal action a forfeit), so a bot that plays cleanly here plays
cleanly in the arena.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from bots_sdk.bot import Bot
from bots_sdk.engine import Action, Game, GameRecord, Reason, Rules, SeatInfo
from bots_sdk.faults import BotFault


@dataclasses.dataclass(frozen=True, slots=True)
class PlayedGame:
    game: Game
    ms: list[float]
    """Milliseconds each decision took, in the order of ``game.decisions()``, as measured (``durak check``
    reports fractions of one); the record keeps them whole."""
    seats: tuple[SeatInfo, ...]

    def record(self) -> GameRecord:
        return GameRecord.from_game(self.game, self.seats, self.ms)


def play_game(
    rules: Rules, bots: Sequence[Bot], seed: int | str | None = None, dealer: int | None = None
) -> PlayedGame:
    """Play one game with ``bots[i]`` in seat ``i``; a bot's fault ends the game as a forfeit.

    A ``BotFault`` (raised by remote bots: timeout, crash, protocol) keeps its
    reason; any other exception from a bot is a crash; a non-``Action`` answer is a
    protocol fault; an action the rules forbid is an illegal move.
    """
    if len(bots) != rules.players:
        raise ValueError(f"bots: {len(bots)} bots for a {rules.players}-player game")
    game = Game.new(rules, seed)
    if dealer is not None and dealer != game.dealer:
        game = Game.from_deck(rules, game.deck, dealer)
    ms: list[float] = []
    for seat, bot in enumerate(bots):
        _fault(game, seat, bot.start_game, seat, rules)
        if game.is_over():  # the first bot to fault here is the game's offender
            break
    while not game.is_over():
        to_act = game.to_act
        assert to_act is not None
        seat = to_act
        observation = game.observation(seat)
        started = time.perf_counter()
        action = _fault(game, seat, bots[seat].choose_action, observation)
        if game.is_over():
            break
        elapsed = (time.perf_counter() - started) * 1000
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
        if seat == outcome.offender and outcome.reason in (Reason.TIMEOUT, Reason.CRASH):
            continue  # it is hung or dead: waiting on it would only stall the others
        with contextlib.suppress(Exception):  # the result stands; a bot failing to hear it changes nothing
            bot.end_game(outcome, game.observation(seat))
    seats = tuple(SeatInfo(bot.name, str(bot.version)) for bot in bots)
    return PlayedGame(game, ms, seats)


def _fault(game: Game, seat: int, method: Callable[..., Any], *args: Any) -> Any:
    """Call a bot; on failure forfeit the game for ``seat`` with the fault's reason."""
    try:
        return method(*args)
    except BotFault as fault:
        game.forfeit(seat, fault.reason, fault.detail)
    except Exception as error:  # a bot's bug ends its game, it must not end the match
        game.forfeit(seat, Reason.CRASH, f"{type(error).__name__}: {error}")
    return None
