"""The referee's side of a table (no Django): a person's seat is a ``Bot`` under a generous clock, a table game
publishes every decision and resumes from saved ones exactly."""

from __future__ import annotations

import pytest

from bots_sdk.bot import Bot
from bots_sdk.bots import make_bot
from bots_sdk.engine import Action, Game, Observation, Reason, Rules
from bots_sdk.faults import BotFault
from worker.referee.human import HumanClock, HumanSeat
from worker.referee.table import Decision, TableGame, play_table

RULES = Rules.preset("classic", players=3)


class FakeTime:
    """A clock that moves only when the seat sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def to_act(game: Game) -> int:
    assert game.to_act is not None
    return game.to_act


def test_a_person_who_does_not_answer_times_out_with_a_clear_reason() -> None:
    clock = FakeTime()
    turns: list[tuple[int, float]] = []
    seat = HumanSeat(lambda decision: None, name="ann", clock=HumanClock(move_s=120, bank_s=30),
                     on_turn=lambda d, s: turns.append((d, s)), sleep=clock.sleep, now=lambda: clock.now)
    game = Game.new(RULES, seed=1)
    with pytest.raises(BotFault) as fault:
        seat.choose_action(game.observation(to_act(game)))
    assert fault.value.reason is Reason.TIMEOUT
    assert fault.value.detail == "ann made no move within 150 s (left the table?)"
    assert turns == [(0, 150.0)] and clock.now == pytest.approx(150.0)


def test_a_stale_or_illegal_answer_is_ignored_and_slow_answers_spend_the_bank() -> None:
    clock = FakeTime()
    game = Game.new(RULES, seed=1)
    legal = str(game.legal_actions()[0])
    answers = iter(["take", "fly", *[None] * 10, legal])
    seat = HumanSeat(lambda decision: next(answers), clock=HumanClock(move_s=1.0, bank_s=5.0, poll_s=0.25),
                     sleep=clock.sleep, now=lambda: clock.now)
    assert str(seat.choose_action(game.observation(to_act(game)))) == legal
    assert seat.bank_left == pytest.approx(5.0 - (3.0 - 1.0))


def test_a_table_publishes_every_decision_and_a_resumed_one_plays_the_same_game() -> None:
    published: list[list[Decision]] = []
    seat = _FirstLegal()
    first = play_table(RULES, "resume", [seat, _Cheap(), _Cheap()], on_progress=published.append)
    actions = first.record["actions"]
    assert first.game.is_over() and len(published) == len(actions)
    assert [len(p) for p in published] == list(range(len(actions)))
    assert [s["bot"] for s in first.record["seats"]] == ["first", "cheap", "cheap"]
    # A worker died after half the game; the next one resumes from the saved decisions and (every seat being
    # deterministic) plays the very same game.
    half = [Decision(a["seat"], a["action"], a.get("ms")) for a in actions[: len(actions) // 2]]
    again: list[list[Decision]] = []
    second = play_table(RULES, "resume", [_FirstLegal(), _Cheap(), _Cheap()], resume=half,
                        on_progress=again.append)
    assert second.record["actions"][: len(half)] == actions[: len(half)]
    assert [a["action"] for a in second.record["actions"]] == [a["action"] for a in actions]
    assert len(again) == len(actions) - len(half)
    assert second.record["result"] == first.record["result"]


def test_a_resume_that_does_not_replay_is_refused() -> None:
    with pytest.raises(ValueError, match="decision 0"):
        play_table(RULES, "x", [_FirstLegal(), "random", "random"], resume=[Decision(2, "take")])


def test_bots_wait_their_pace_and_a_person_does_not() -> None:
    slept: list[float] = []
    done: TableGame = play_table(Rules.preset("classic", players=2), "pace", [_FirstLegal(), make_bot("gentle")],
                                 pace_s=0.5, sleep=slept.append)
    bot_decisions = sum(1 for a in done.record["actions"] if a["seat"] == 1)
    assert slept == [0.5] * bot_decisions


class _FirstLegal(HumanSeat):
    """A person who always plays the first legal move at once."""

    def __init__(self) -> None:
        super().__init__(lambda decision: None, name="first")

    def choose_action(self, observation: Observation) -> Action:
        return observation.legal_actions[0]


class _Cheap(Bot):
    """A deterministic bot: the last legal move in sorted order."""

    name = "cheap"

    def choose_action(self, observation: Observation) -> Action:
        return sorted(observation.legal_actions)[-1]
