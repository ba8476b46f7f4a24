"""No bot sees the same deal twice in one life: every seat rotation of a duplicate match gets fresh bots.

The attack (issue 15): a duplicate set plays one deck in both seatings, so a bot
that remembers the hand it was dealt knows, in the other seating, its opponent's
whole hand. ``REMEMBERING`` keeps every hand it was dealt, keyed by the turned-up
trump card, in memory and in every writable place it has (/tmp, $HOME, /dev/shm,
its socket dir, its working directory), and at each game's first decision looks
for a hand seen under the same trump card that shares no card with its own: it
prints ``RECALL`` with what it found. ``GAME`` lines count the games of its life.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from bots_sdk.bot import Bot
from bots_sdk.botdir import BotSpec
from bots_sdk.bots import RandomBot
from bots_sdk.engine import Action, Game, Observation, Rules
from bots_sdk.local import play_game
from bots_sdk.match import seat_order
from bots_sdk.remote import Limits
from tests.worker.evil.arena import Recorder, evil_bot, play
from tests.worker.sandbox.conftest import write_bot
from worker.referee.launch import LaunchedBot, Launcher
from worker.referee.match import MatchSpec, bot_spec, play_spec, start_ahead
from worker.sandbox import SandboxError

REMEMBERING = '''
BOOT = os.urandom(6).hex()
MEMORY = {"games": 0, "hands": {}}
PLACES = sorted({"/tmp", os.environ.get("HOME", "/tmp"), "/dev/shm",
                 os.path.dirname(os.environ["DURAK_BOT_ADDRESS"]), os.getcwd()})

def kept():
    """What earlier lives left in each place."""
    found = {}
    for place in PLACES:
        try:
            with open(os.path.join(place, ".hands.json")) as file:
                found[place] = json.load(file)
        except (OSError, ValueError):
            pass
    return found

def keep(hands):
    """Write every hand seen to every place that takes it; the places that did."""
    wrote = []
    for place in PLACES:
        try:
            with open(os.path.join(place, ".hands.json"), "w") as file:
                json.dump(hands, file)
            wrote.append(place)
        except OSError:
            pass
    return wrote

class Remembering(RandomBot):
    def start_game(self, seat, rules):
        MEMORY["games"] += 1
        self.first = True

    def choose_action(self, observation):
        if self.first:
            self.first = False
            trump = str(observation.trump_card)
            # its starting hand: an automatic pick-up may have come first, and everyone saw those cards
            hand = sorted({str(card) for card in observation.hand}
                          - {str(card) for card in observation.known_cards[observation.seat]})
            for source, hands in {"memory": MEMORY["hands"], **kept()}.items():
                seen = hands.get(trump)
                if seen is not None and not set(seen) & set(hand):
                    print("RECALL " + json.dumps({"from": source, "opponent": seen}), file=sys.stderr, flush=True)
            MEMORY["hands"][trump] = hand
            wrote = keep(MEMORY["hands"])
            print("GAME " + json.dumps({"boot": BOOT, "games": MEMORY["games"], "wrote": wrote}),
                  file=sys.stderr, flush=True)
        return super().choose_action(observation)
'''
SEED = "fresh"
DEALS = 2
WRITABLE = {"/tmp", "/dev/shm", "/run/bot"}
"""Where the bot can write in the bwrap sandbox (HOME is /tmp; its code dir, the cwd, is read-only)."""


def lines(log: str, marker: str) -> list[dict[str, Any]]:
    return [json.loads(line[len(marker) + 1:]) for line in log.splitlines() if line.startswith(marker + " ")]


def test_the_attack_works_on_a_bot_that_lives_through_both_seatings(arena: Launcher, tmp_path: Path) -> None:
    """The control: one process playing one deal in both seats recalls its opponent's hand, from memory and
    from every file it wrote, so the match test below would see it if the referee let a bot live on."""
    folder = evil_bot(tmp_path, "remembering", body=REMEMBERING, bot="Remembering()")
    rules = Rules.preset("classic", players=2)
    launched = arena(bot_spec(folder), Limits(start_s=3.0, move_s=1.0, bank_s=0.0))
    try:
        launched.bot.wait_serving(timeout=3.0)
        launched.bot.hello()
        for bots in ([launched.bot, RandomBot(1)], [RandomBot(2), launched.bot]):
            played = play_game(rules, bots, seed=f"{SEED}-0")
            assert played.game.outcome is not None and played.game.outcome.reason.value == "normal"
    finally:
        launched.kill()
    log = launched.log_tail(200)
    first_hand = sorted(str(card) for card in Game.new(rules, f"{SEED}-0").observation(0).hand)
    recalled = {recall["from"]: recall["opponent"] for recall in lines(log, "RECALL")}
    assert set(recalled) == {"memory", *WRITABLE}, log
    assert all(hand == first_hand for hand in recalled.values()), (recalled, first_hand)


def test_a_bot_forgets_everything_between_rotations_but_not_between_deals(
    arena: Launcher, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DURAK_START_AHEAD", "on")
    folder = evil_bot(tmp_path, "remembering", body=REMEMBERING, bot="Remembering()")
    played = play(arena, folder, deals=DEALS, seed=SEED)
    assert played.normal, played.describe()
    assert not lines(played.log(), "RECALL"), played.log()
    lives = played.launches
    assert len(lives) == 2, [launch.name for launch in played.recorder.launches]  # one per rotation
    boots = set()
    for launch in lives:
        games = lines(launch.log(), "GAME")
        assert [game["games"] for game in games] == list(range(1, DEALS + 1)), launch.log()  # memory over deals
        assert all(set(game["wrote"]) == WRITABLE for game in games), games  # the attack was tried everywhere
        boots |= {game["boot"] for game in games}
    assert len(boots) == 2
    # The second rotation's bots were started ahead, while the first rotation's last game was played (frozen
    # from the moment they served, as every seat not on move is: test_frozen_seats.py).
    first, second = lives
    assert first.kill_started is not None and second.started < first.kill_started
    assert second.frozen >= 1


def deterministic(tmp_path: Path, name: str) -> str:
    """A bot folder that always plays the first (``first``) or last (``last``) legal action, like ``Fixed``."""
    index = 0 if name == "first" else -1
    body = f"""
        class Fixed(Bot):
            def choose_action(self, observation):
                return observation.legal_actions[{index}]
    """
    write_bot(tmp_path / name, name, body=body, bot="Fixed()")
    return str(tmp_path / name)


class Fixed(Bot):
    def __init__(self, name: str) -> None:
        self.index = 0 if name == "first" else -1

    def choose_action(self, observation: Observation) -> Action:
        return observation.legal_actions[self.index]


def test_a_normal_match_keeps_its_games_and_records(
    arena: Launcher, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every game of the duplicate set, in deal order, each record move for move what the same bots play
    in-process: fresh starts change who remembers what, nothing of the match itself (here without starting
    ahead, as on one core)."""
    monkeypatch.setenv("DURAK_START_AHEAD", "off")
    spec = MatchSpec((deterministic(tmp_path, "first"), deterministic(tmp_path, "last")),
                     deals=DEALS, seed=SEED, start_s=3.0, bank_s=0.0)
    recorder = Recorder(arena)
    seen: list[tuple[int, int]] = []
    results = play_spec(spec, recorder, on_game=lambda result: seen.append((result.deal, result.rotation)))
    assert seen == [(0, 0), (1, 0), (0, 1), (1, 1)]  # played rotation by rotation
    assert [(r.deal, r.rotation, r.seats) for r in results] == [
        (deal, rotation, tuple(seat_order(spec.rules, 2, -rotation))) for deal in range(DEALS) for rotation in (0, 1)
    ]
    assert len(recorder.launches) == 4  # two bots, two rotations
    for result in results:
        names = [("first", "last")[index] for index in result.seats]
        bots = [Fixed(name) for name in names]
        expected = play_game(spec.rules, bots, seed=f"{SEED}-{result.deal}").record().to_dict()
        assert _without_times(result.record) == _without_times(expected), (result.deal, result.rotation)
        assert [seat["bot"] for seat in result.record["seats"]] == names


def _without_times(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "seats": None, "actions": [{k: v for k, v in a.items() if k != "ms"} for a in record["actions"]]}



def test_a_failed_start_ahead_is_started_again_before_its_game(
    arena: Launcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sandbox refuses the first start ahead (as when every slot is taken): the bot is started in the
    foreground before its game, with its full budget, and the match plays normally."""
    monkeypatch.setenv("DURAK_START_AHEAD", "on")
    calls: list[str] = []

    def refusing_once(spec: BotSpec, limits: Limits) -> LaunchedBot:
        calls.append(threading.current_thread().name)
        if len(calls) == 3:  # the first start of the second rotation, ahead of it
            raise SandboxError("every sandbox slot is in use")
        return arena(spec, limits)

    results = play_spec(MatchSpec(("random", "random"), seed=SEED, start_s=3.0, bank_s=0.0), refusing_once)
    assert [r.reason for r in results] == ["normal", "normal"]
    main = threading.main_thread().name
    assert calls[2] != main and calls[3] != main and calls[4] == main, calls  # the refused one, again in front


def test_start_ahead_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert start_ahead("on") and not start_ahead("off") and start_ahead(" ON ")
    with pytest.raises(ValueError, match="DURAK_START_AHEAD: 'sometimes' is not one of auto, on, off"):
        start_ahead("sometimes")
    cores = len(os.sched_getaffinity(0))
    monkeypatch.setenv("DURAK_REFEREES", str(cores))  # a referee on every core: none is idle for starts
    assert not start_ahead("auto")
    monkeypatch.setenv("DURAK_REFEREES", "1")
    assert start_ahead("auto") == (cores >= 2)
    monkeypatch.setenv("DURAK_REFEREES", "two")
    with pytest.raises(ValueError, match="DURAK_REFEREES: 'two' is not a positive whole number"):
        start_ahead("auto")
