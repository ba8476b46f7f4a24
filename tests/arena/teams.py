"""Team games for the tests: engine games in which a partner stands in, and team matches stored for real.

A stand-in (docs/rules.md section 7: an out player's position played by the next
partner with cards) depends on the cards, so the helpers play seeds in turn
until one happens, and say so if none does.

``team_match_store`` stores a team match through the arena's own services
(``match_create``, ``match_claim``, ``match_store_result``), with the games
played in this process by the reference bots exactly as the referee seats them
(``bots_sdk.match.seat_order``: one version a team, teams rotated), so the pages
read what a worker would have written, without starting a bot process per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_claim, match_create, match_store_result
from bots_sdk.bots import make_bot
from bots_sdk.engine import Game, GameRecord, Rules
from bots_sdk.local import play_game
from bots_sdk.match import seat_order, table_rules
from worker.referee.match import GameResult


def stand_ins(record: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Every ``(seat, position, role)`` in which a player plays an out partner's position, after each decision.

    Read from the engine itself, not from the frames under test.
    """
    parsed = GameRecord.from_dict(record)
    game = Game.from_deck(parsed.rules, parsed.deck, parsed.dealer)
    found: list[tuple[int, int, str]] = []
    for action in parsed.actions:
        game.push(action.action)
        if game.is_over():
            break
        if game.attacker != game.attacker_position:
            found.append((game.attacker, game.attacker_position, "attacker"))
        if game.defender != game.defender_position:
            found.append((game.defender, game.defender_position, "defender"))
    return found


def team_record(preset: str, players: int, bots: Sequence[str] = ("gentle", "random"), first_seed: int = 0,
                tries: int = 200) -> dict[str, Any]:
    """A finished team game between reference bots (one bot a team) in which a partner stands in."""
    rules = Rules.preset(preset, players=players)
    assert rules.teams is not None, f"{preset} has no teams"
    order = seat_order(rules, len(rules.teams), 0)
    for seed in range(first_seed, first_seed + tries):
        played = play_game(rules, [make_bot(bots[order[s] % len(bots)], seed * 10 + s) for s in range(players)],
                           seed=seed)
        record = played.record().to_dict()
        if record["result"]["durak"] is not None and stand_ins(record):
            return record
    raise AssertionError(f"no {preset} game with {players} players had a stand-in in {tries} seeds")


def _results(preset: str, seed: str, deals: int, names: Sequence[str]) -> list[GameResult]:
    """A match's games as the referee plays them (``play_spec``), with the reference bots in this process."""
    rules = table_rules(preset, len(names))
    results = []
    for deal in range(deals):
        for rotation in range(len(names)):
            order = seat_order(rules, len(names), -rotation)
            played = play_game(rules, [make_bot(names[order[s]], deal * 100 + rotation * 10 + s)
                                       for s in range(rules.players)], seed=f"{seed}-{deal}")
            outcome = played.game.outcome
            assert outcome is not None
            results.append(GameResult(
                deal=deal, rotation=rotation, seats=tuple(order), durak=outcome.durak, draw=outcome.draw,
                reason=outcome.reason.value, offender=outcome.offender, detail=outcome.detail,
                record=played.record().to_dict(), bouts=played.game.bout,
            ))
    return results


def match_store(versions: Sequence[BotVersion], preset: str,
                accept: Callable[[list[GameResult]], bool] = lambda results: True, tries: int = 50, deals: int = 1,
                kind: str = Match.Kind.CHALLENGE, rated: bool = False) -> Match:
    """A done match between reference ``versions`` (under a team preset, one a team) whose games ``accept``
    takes: match seeds are tried in turn, and only the accepted games are stored."""
    names = [version.reference for version in versions]
    assert all(names), "match_store plays reference versions in this process"
    for attempt in range(tries):
        seed = f"pages-{attempt}"
        results = _results(preset, seed, deals, names)
        if accept(results):
            match = match_create(kind=kind, versions=versions, preset=preset, deals=deals, rated=rated, seed=seed)
            claimed = match_claim(match_id=match.pk, task_id=f"test-{match.pk}", worker="test")
            assert claimed is not None
            assert match_store_result(match=claimed, task_id=f"test-{match.pk}", results=results)
            return Match.objects.get(pk=match.pk)
    raise AssertionError(f"no {preset} match in {tries} seeds had the games asked for")


def team_match_store(versions: Sequence[BotVersion], preset: str = "pagat-pairs") -> Match:
    """A done team match one of whose games has a loser and a partner standing in for an out player."""
    return match_store(versions, preset, lambda results: any(
        r.durak is not None and stand_ins(r.record) for r in results))
