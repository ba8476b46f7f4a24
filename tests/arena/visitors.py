"""Helpers of the visitor tests: bots and stored games made directly, with no worker and no sandbox."""

from __future__ import annotations

from django.contrib.auth.models import User

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Match, MatchEntry
from arena.matches.services import match_store_result
from bots_sdk.bots import make_bot
from bots_sdk.engine import GameRecord, Rules
from bots_sdk.engine.replay import replay
from bots_sdk.local import play_game
from worker.referee.match import GameResult


def version_of(owner: User, name: str, description: str = "") -> BotVersion:
    bot = Bot.objects.create(owner=owner, name=name, description=description)
    return BotVersion.objects.create(bot=bot, number=1, label="1", language="python",
                                     status=BotVersion.Status.ACTIVE)


def stored_game(
    versions: list[BotVersion], kind: str = Match.Kind.CHALLENGE, record: GameRecord | None = None
) -> Match:
    """A match of one real game (reference bots played in-process, or ``record``), stored as a worker stores it."""
    if record is None:
        played = play_game(Rules.preset("classic", players=2), [make_bot("gentle", 1), make_bot("random", 2)], seed=7)
        record = played.record()
    game = replay(record).game
    outcome = record.result
    match = Match.objects.create(kind=kind, status=Match.Status.RUNNING, task_id="t", preset="classic", players=2,
                                 deals=1, seed="7", rated=False, move_s=1, bank_s=10, start_s=10)
    MatchEntry.objects.bulk_create(MatchEntry(match=match, index=i, version=v) for i, v in enumerate(versions))
    result = GameResult(deal=0, rotation=0, seats=(0, 1), durak=outcome.durak, draw=outcome.draw,
                        reason=outcome.reason.value, offender=outcome.offender, detail=outcome.detail,
                        record=record.to_dict(), bouts=game.bout)
    assert match_store_result(match=match, task_id="t", results=[result])
    return match
