"""The replay viewer's frames (``arena.matches.replay.replay_frames``): engine only, no database.

Records come from real games (reference bots through ``bots_sdk.local.play_game``)
and from the engine's example records; every frame is checked against the engine
itself: the trace of ``durak replay --trace``, card conservation, and what
``game.observation(seat)`` shows at each decision.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from arena.matches.replay import pretty, replay_frames, seat_view
from bots_sdk.bots import make_bot
from bots_sdk.engine import Game, GameRecord, Rules, SeatInfo
from bots_sdk.engine.replay import replay
from bots_sdk.local import play_game
from tests.arena.teams import stand_ins, team_record

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"
EXAMPLE_RECORDS = sorted(EXAMPLES.glob("*.json"))


def cards(text: str) -> list[str]:
    """A frame's card string (``"7S9SJH"``) as a list of 2-character cards."""
    assert len(text) % 2 == 0, text
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def played(preset: str, players: int, seed: int, bots: tuple[str, ...] = ("gentle", "random")) -> dict[str, Any]:
    """The record of one game between reference bots."""
    rules = Rules.preset(preset, players=players)
    game = play_game(rules, [make_bot(bots[i % len(bots)], seed * 10 + i) for i in range(players)], seed=seed)
    return game.record().to_dict()


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return data


def trace_decisions(record: dict[str, Any]) -> int:
    """How many steps ``durak replay --trace`` prints before its last line."""
    return len(replay(GameRecord.from_dict(record)).steps)


def all_records() -> list[Any]:
    params = [pytest.param(played(p, n, s), id=f"played-{p}-p{n}") for p, n, s in
              [("classic", 2, 1), ("classic", 4, 2), ("classic", 6, 3), ("transfer", 3, 4), ("house", 5, 5),
               ("pagat", 4, 6), ("table", 6, 7), ("transfer", 6, 8), ("pagat", 2, 9),
               ("pagat-pairs", 4, 10), ("pagat-pairs", 6, 11), ("pagat-trios", 6, 12)]]
    params += [pytest.param(json.loads(p.read_text()), id=p.stem) for p in EXAMPLE_RECORDS if "illegal" not in p.stem]
    return params


RECORDS = all_records()


# ---------------------------------------------------------------------- steps and the trace


@pytest.mark.parametrize("record", RECORDS)
def test_one_step_per_trace_decision_plus_the_deal(record: dict[str, Any]) -> None:
    frames = replay_frames(record)
    assert frames["error"] is None
    assert frames["complete"] is True
    steps = frames["steps"]
    assert len(steps) == trace_decisions(record) + 1
    trace = replay(GameRecord.from_dict(record)).steps
    assert steps[0]["seat"] is None and steps[0]["action"] is None
    for step, line in zip(steps[1:], trace):
        assert (step["seat"], step["action"], step["forced"]) == (line.seat, line.action, line.forced)
    for j, step in enumerate(steps[:-1]):
        assert step["next"] == steps[j + 1]["seat"]


@pytest.mark.parametrize("path", EXAMPLE_RECORDS, ids=[p.stem for p in EXAMPLE_RECORDS])
def test_example_steps_match_the_expected_trace_file(path: Path) -> None:
    lines = [json.loads(line) for line in path.with_name(path.stem + ".trace.jsonl").read_text().splitlines()]
    decisions = [line for line in lines if "step" in line and "error" not in line]
    frames = replay_frames(json.loads(path.read_text()))
    assert len(frames["steps"]) == len(decisions) + 1
    assert [s["action"] for s in frames["steps"][1:]] == [d["action"] for d in decisions]
    assert (frames["error"] is None) == ("error" not in lines[-1])


def test_ms_are_those_of_the_record_and_none_for_forced_steps() -> None:
    record = played("classic", 3, 11)
    frames = replay_frames(record)
    decided = [s for s in frames["steps"][1:] if not s["forced"]]
    assert [s["ms"] for s in decided] == [a.get("ms") for a in record["actions"]]
    assert all(s["ms"] is None for s in frames["steps"][1:] if s["forced"])


def test_forced_moves_during_the_deal_are_steps_too() -> None:
    rules = Rules.preset("classic", players=2).replace(hand_size=1)
    for seed in range(5):
        game = Game.new(rules, seed)
        while not game.is_over():
            game.push(game.legal_actions()[0])
        record = GameRecord.from_game(game).to_dict()
        frames = replay_frames(record)
        assert frames["error"] is None
        assert len(frames["steps"]) == trace_decisions(record) + 1
        assert frames["steps"][0]["table"] == [] and frames["steps"][0]["label"] == "deal"


# ---------------------------------------------------------------------- the state of each step


@pytest.mark.parametrize("record", RECORDS)
def test_every_card_is_somewhere_exactly_once(record: dict[str, Any]) -> None:
    frames = replay_frames(record)
    deck_size = frames["deck_size"]
    for i, step in enumerate(frames["steps"]):
        held = [c for hand in step["hands"] for c in cards(hand)]
        tabled = [c for pair in step["table"] for c in cards(pair)]
        assert len(set(held + tabled)) == len(held) + len(tabled), f"step {i}: a card twice"
        total = len(held) + len(tabled) + step["stock"] + step["discard"]
        assert total == deck_size, f"step {i}: {total} cards, the deck holds {deck_size}"
        for s, known in enumerate(step["known"]):
            assert set(cards(known)) <= set(cards(step["hands"][s])), f"step {i}: seat {s} known not held"


@pytest.mark.parametrize("record", RECORDS)
def test_each_decision_state_and_view_is_the_engines_observation(record: dict[str, Any]) -> None:
    frames = replay_frames(record)
    steps = frames["steps"]
    parsed = GameRecord.from_dict(record)
    game = Game.from_deck(parsed.rules, parsed.deck, parsed.dealer)
    n = game.players

    def check() -> None:
        index = len(game.steps())  # the frame after the last action applied so far
        step = steps[index]
        for k in range(n):
            obs = game.observation(k)
            view = seat_view(frames, index, k)
            assert sorted(view["hand"]) == sorted(str(c) for c in obs.hand)
            assert view["sizes"] == list(obs.hand_sizes)
            for s in range(n):
                if s != k:
                    assert sorted(view["known"][s]) == sorted(str(c) for c in obs.known_cards[s])
                    # nothing of another hand but what the engine lets seat k see
                    assert set(view["known"][s]) <= {str(c) for c in obs.known_cards[s]}
            assert step["table"] == [f"{p.attack}{p.cover or ''}" for p in obs.table]
            assert step["stock"] == obs.stock_size
            assert step["discard"] == len(obs.discard)
            assert step["trump_card"] == str(obs.trump_card)
            assert step["trump_by"] == obs.trump_drawn_by
            assert step["out"] == list(obs.out_order)
            assert step["bout"] == obs.bout
            if not game.is_over():
                assert (step["attacker"], step["defender"]) == (obs.attacker, obs.defender)
                assert step["take"] == obs.take_declared
                if parsed.rules.teams is not None:
                    positions = (step["attacker_position"], step["defender_position"])
                    assert positions == (obs.attacker_position, obs.defender_position)
        if not game.is_over():
            assert step["next"] == game.to_act

    check()
    for action in parsed.actions:
        game.push(action.action)
        check()


def test_a_seat_view_shows_only_own_cards_and_public_pickups() -> None:
    record = played("classic", 4, 21, bots=("random",))
    frames = replay_frames(record)
    seen_known = False
    for i, step in enumerate(frames["steps"]):
        for k in range(4):
            view = seat_view(frames, i, k)
            assert view["hand"] == cards(step["hands"][k])
            for s in range(4):
                if s == k:
                    continue
                others = set(view["known"][s])
                assert others <= set(cards(step["known"][s]))
                seen_known = seen_known or bool(others)
                assert len(others) <= view["sizes"][s]
    assert seen_known, "random bots take often: some picked-up cards must be public"


def test_bout_ends_say_where_the_table_went() -> None:
    frames = replay_frames(played("classic", 2, 31))
    ends = [s for s in frames["steps"] if s["bout_end"]]
    assert ends
    for step in ends:
        event = step["bout_end"]
        assert step["table"] == []
        count = len(event["cards"])
        if event["taken"]:
            assert f"takes {count} card" in step["caption"]
            assert set(event["cards"]) <= set(cards(step["hands"][event["by"]]))
            assert set(event["cards"]) <= set(cards(step["known"][event["by"]]))
        else:
            assert f"{count} card{'s' if count != 1 else ''} to the discard" in step["caption"]


def test_under_early_out_a_seat_is_out_from_the_step_that_empties_its_hand() -> None:
    """House rules (``early_out``): the frame of the step that plays a seat's last card already lists it out,
    and the bout's end names those who went out during it, in the order their hands emptied."""
    rules = Rules.preset("house", 4)
    game = Game.new(rules, 15)
    rng = random.Random(15)
    while not game.is_over():
        game.push(rng.choice(game.legal_actions().sorted()))
    frames = replay_frames(GameRecord.from_game(game, [SeatInfo("random", "1")] * 4).to_dict())
    assert frames["complete"], frames["error"]
    steps = frames["steps"]
    going_out = [(step, set(step["out"]) - set(previous["out"])) for previous, step in itertools.pairwise(steps)]
    going_out = [(step, new) for step, new in going_out if new]
    assert len(going_out) == 3
    for step, new in going_out:
        assert new == {step["seat"]} and step["hands"][step["seat"]] == "", step["caption"]
    ends = [step["bout_end"] for step in steps if step["bout_end"] and step["bout_end"]["out"]]
    assert [seat for end in ends for seat in end["out"]] == [1, 3, 0]
    assert [1, 3] in [end["out"] for end in ends]


def test_captions_name_the_seat_and_the_cards() -> None:
    record = played("classic", 2, 41, bots=("gentle",))
    frames = replay_frames(record)
    defends = [s for s in frames["steps"] if s["action"] and s["action"].startswith("defend")]
    assert defends
    step = defends[0]
    _, attack, cover = step["action"].split()
    name = frames["seats"][step["seat"]]["name"]
    assert step["caption"].startswith(f"Seat {step['seat']} ({name}) beats {pretty(attack)} with {pretty(cover)}")
    assert set(step["hl"]) == {attack, cover}
    assert frames["seats"] == [
        {"seat": s, "bot": r["bot"], "version": r["version"], "name": r["bot"]} for s, r in enumerate(record["seats"])
    ]
    assert pretty("TS") == "10♠" and pretty("6H") == "6♥"


# ---------------------------------------------------------------------- the end


@pytest.mark.parametrize("record", RECORDS)
def test_the_final_step_has_the_records_result(record: dict[str, Any]) -> None:
    frames = replay_frames(record)
    stored = record["result"]
    result = frames["result"]
    assert {k: result[k] for k in stored} == stored
    last = frames["steps"][-1]
    assert last["out"] == stored["out_order"]
    if stored["reason"] in ("timeout", "crash", "illegal", "protocol"):
        assert last["forfeit"]["seat"] == stored["offender"]
        assert last["next"] == stored["offender"]
    else:
        assert last["next"] is None and last["forfeit"] is None
        if stored["durak"] is not None and "losers" in stored:
            team = next(t for t in frames["teams"] if t["lost"])
            assert team["seats"] == stored["losers"]
            assert (f"Team {team['letter']} (seats {team['label']}, {team['name']}) holds the last cards and loses."
                    in last["caption"])
            assert "is the durak" not in last["caption"]
            assert any(cards(last["hands"][s]) for s in team["seats"])
            assert all(last["hands"][s] == "" for s in range(frames["players"]) if s not in team["seats"])
        elif stored["durak"] is not None:
            name = frames["seats"][stored["durak"]]["name"]
            assert f"Seat {stored['durak']} ({name}) is the durak" in last["caption"]
            assert cards(last["hands"][stored["durak"]])
            assert all(last["hands"][s] == "" for s in range(frames["players"]) if s != stored["durak"])


def test_a_forfeit_names_the_offender_and_why() -> None:
    record = example("forfeit-timeout")
    frames = replay_frames(record)
    assert frames["error"] is None
    last = frames["steps"][-1]
    assert last["forfeit"] == {"seat": 0, "reason": "timeout", "detail": "no answer within 1.0 s",
                               "reason_text": "timeout", "detail_text": "no answer within 1.0 s"}
    assert "Seat 0 (random) forfeits (timeout: no answer within 1.0 s)" in last["caption"]
    assert all(step["forfeit"] is None for step in frames["steps"][:-1])


def test_a_forfeit_at_the_very_first_decision_annotates_the_deal() -> None:
    game = Game.new(Rules.preset("classic", players=3), 5)
    seat = game.to_act
    assert seat is not None
    game.forfeit(seat, "crash", "ValueError: boom")
    frames = replay_frames(GameRecord.from_game(game).to_dict())
    assert frames["error"] is None
    assert len(frames["steps"]) == 1
    assert frames["steps"][0]["forfeit"] == {"seat": seat, "reason": "crash", "detail": "ValueError: boom",
                                             "reason_text": "crash", "detail_text": "the bot raised ValueError: boom"}
    assert "forfeits (crash: the bot raised ValueError: boom)" in frames["steps"][0]["caption"]


# ---------------------------------------------------------------------- teams

TEAM_TABLES = [
    pytest.param("pagat-pairs", 4, [[0, 2], [1, 3]], id="pagat-pairs-4"),
    pytest.param("pagat-trios", 6, [[0, 2, 4], [1, 3, 5]], id="pagat-trios-6"),
]


@pytest.mark.parametrize(("preset", "players", "layout"), TEAM_TABLES)
def test_a_team_game_carries_its_teams_and_the_losing_team(preset: str, players: int, layout: list[list[int]]) -> None:
    record = team_record(preset, players)
    frames = replay_frames(record)
    assert frames["error"] is None and frames["complete"] is True
    teams = frames["teams"]
    assert [t["seats"] for t in teams] == layout
    assert [(t["team"], t["letter"]) for t in teams] == [(0, "A"), (1, "B")]
    assert [t["label"] for t in teams] == ["+".join(map(str, seats)) for seats in layout]
    assert [t["name"] for t in teams] == ["gentle", "random"]  # one bot a team: its name, not one a seat
    for team in teams:
        assert all(frames["seats"][s]["team"] == team["team"] for s in team["seats"])
    losers = record["result"]["losers"]
    assert frames["result"]["losers"] == losers
    assert [t["lost"] for t in teams] == [t["seats"] == sorted(losers) for t in teams]
    assert sum(t["lost"] for t in teams) == 1
    assert all({"attacker_position", "defender_position"} <= step.keys() for step in frames["steps"])


@pytest.mark.parametrize(("preset", "players", "layout"), TEAM_TABLES)
def test_a_stand_in_is_in_the_steps_and_said_when_it_starts(preset: str, players: int, layout: list[list[int]]) -> None:
    record = team_record(preset, players)
    frames = replay_frames(record)
    steps = frames["steps"]
    in_frames = {
        (step[role], step[f"{role}_position"], role)
        for step in steps if step["next"] is not None for role in ("attacker", "defender")
        if step[role] != step[f"{role}_position"]
    }
    assert set(stand_ins(record)) <= in_frames and in_frames, "the engine's stand-ins are the frames' stand-ins"
    said = 0
    for before, step in itertools.pairwise(steps):
        for role, verb in (("attacker", "attacks"), ("defender", "defends")):
            seat, position = step[role], step[f"{role}_position"]
            sentence = f"Seat {seat} ({frames['seats'][seat]['name']}) plays for seat {position} and {verb}."
            starts = seat != position and (before[role], before[f"{role}_position"]) != (seat, position)
            if step["next"] is not None and starts:
                assert sentence in step["caption"]
                assert position in step["out"], "only an out partner's position is played by another"
                assert frames["seats"][seat]["team"] == frames["seats"][position]["team"]
                said += 1
    assert said > 0
    assert said == sum(step["caption"].count("plays for seat") for step in steps), "said once, when it starts"


@pytest.mark.parametrize(("preset", "players", "layout"), TEAM_TABLES)
def test_a_seat_sees_neither_its_partners_nor_its_opponents_cards(preset: str, players: int,
                                                                    layout: list[list[int]]) -> None:
    frames = replay_frames(team_record(preset, players))
    for i, step in enumerate(frames["steps"]):
        for k in range(players):
            view = seat_view(frames, i, k)
            assert view["hand"] == cards(step["hands"][k])
            for s in range(players):
                if s != k:  # a partner's hand too: only its public (picked-up) cards
                    assert view["known"][s] == cards(step["known"][s])


def test_individual_frames_have_no_team_keys() -> None:
    frames = replay_frames(played("pagat", 4, 6))
    assert frames["teams"] is None and frames["result"]["losers"] is None
    assert all("team" not in seat for seat in frames["seats"])
    assert all("attacker_position" not in step and "defender_position" not in step for step in frames["steps"])
    assert not any("plays for" in step["caption"] or "Team " in step["caption"] for step in frames["steps"])


def test_a_team_forfeit_names_the_offenders_team() -> None:
    game = Game.new(Rules.preset("pagat-pairs", players=4), 5)
    seat = game.to_act
    assert seat is not None
    game.forfeit(seat, "timeout", "no answer within 1.0 s")
    record = GameRecord.from_game(game).to_dict()
    frames = replay_frames(record)
    assert frames["error"] is None
    team = frames["teams"][frames["seats"][seat]["team"]]
    assert team["lost"] and seat in team["seats"] and record["result"]["losers"] == team["seats"]
    caption = frames["steps"][-1]["caption"]
    assert (f"forfeits (timeout: no answer within 1.0 s). Team {team['letter']} (seats {team['label']}, "
            f"{team['name']}) loses." in caption), caption


def test_a_team_record_whose_losers_differ_does_not_replay_completely() -> None:
    record = team_record("pagat-pairs", 4)
    wrong = [s for s in range(4) if s not in record["result"]["losers"]]
    frames = replay_frames({**record, "result": {**record["result"], "losers": wrong}})
    assert frames["complete"] is False and "losers" in frames["error"]


# ---------------------------------------------------------------------- bad records


def test_an_illegal_action_keeps_the_steps_before_it() -> None:
    frames = replay_frames(example("illegal-take-by-attacker"))
    assert frames["complete"] is False
    assert "take" in frames["error"] and "not a legal action" in frames["error"]
    assert len(frames["steps"]) == 1  # the deal; its trace stops at step 0


def test_an_illegal_action_midway() -> None:
    record = played("classic", 2, 51)
    broken = copy.deepcopy(record)
    broken["actions"][10] = {"seat": broken["actions"][10]["seat"], "action": "attack 2S"}
    frames = replay_frames(broken)
    assert frames["error"] is not None and frames["complete"] is False
    good = replay_frames(record)
    assert frames["steps"] == good["steps"][:len(frames["steps"])]
    assert len(frames["steps"]) > 10


@pytest.mark.parametrize(
    "mutate",
    [
        pytest.param(lambda r: "not a record", id="a-string"),
        pytest.param(lambda r: [1, 2, 3], id="a-list"),
        pytest.param(lambda r: None, id="null"),
        pytest.param(lambda r: {}, id="empty"),
        pytest.param(lambda r: {**r, "format": "durak-game/2"}, id="format"),
        pytest.param(lambda r: {k: v for k, v in r.items() if k != "deck"}, id="no-deck"),
        pytest.param(lambda r: {**r, "deck": r["deck"][:-1]}, id="short-deck"),
        pytest.param(lambda r: {**r, "deck": ["XX", *r["deck"][1:]]}, id="bad-card"),
        pytest.param(lambda r: {**r, "rules": {**r["rules"], "players": 9}}, id="players"),
        pytest.param(lambda r: {**r, "rules": "classic"}, id="rules-text"),
        pytest.param(lambda r: {**r, "dealer": "x"}, id="dealer"),
        pytest.param(lambda r: {**r, "seats": None}, id="seats"),
        pytest.param(lambda r: {**r, "actions": [*r["actions"][:5], {"seat": 0, "action": "fly away"}]}, id="action"),
        pytest.param(lambda r: {**r, "actions": [*r["actions"][:5], "attack 6S"]}, id="action-text"),
        pytest.param(lambda r: {**r, "actions": [*r["actions"][:5], {"seat": True, "action": "pass"}]}, id="seat"),
        pytest.param(lambda r: {**r, "actions": r["actions"][:7]}, id="stops-early"),
        pytest.param(lambda r: {**r, "actions": [*r["actions"], {"seat": 0, "action": "pass"}]}, id="after-end"),
        pytest.param(lambda r: {**r, "result": {**r["result"], "durak": 1 - r["result"]["durak"]}}, id="mismatch"),
        pytest.param(lambda r: {**r, "result": "lost"}, id="result"),
        pytest.param(lambda r: {**r, "result": {"durak": 0, "draw": False, "reason": "timeout", "out_order": [],
                                                "offender": 1, "detail": "x"}, "actions": r["actions"][:4]},
                     id="wrong-offender"),
    ],
)
def test_a_malformed_record_gives_an_error_not_an_exception(mutate: Any) -> None:
    record = played("classic", 2, 61)
    assert record["result"]["durak"] is not None
    frames = replay_frames(mutate(copy.deepcopy(record)))
    assert isinstance(frames["error"], str) and frames["error"]
    assert frames["complete"] is False
    json.dumps(frames)  # still JSON for the page


def test_a_bad_action_keeps_the_steps_before_it() -> None:
    record = played("classic", 2, 71)
    broken = {**record, "actions": [*record["actions"][:6], {"seat": 0, "action": "fly away"}]}
    frames = replay_frames(broken)
    assert frames["error"].startswith("malformed record: actions[6]")
    good = replay_frames(record)
    assert len(frames["steps"]) > 6
    assert frames["steps"] == good["steps"][:len(frames["steps"])]


# ---------------------------------------------------------------------- size and speed


@pytest.mark.parametrize("players", [2, 4, 6])
def test_frames_are_compact_and_quick(players: int) -> None:
    record = played("classic", players, 81, bots=("gentle",))
    started = time.perf_counter()
    frames = replay_frames(record)
    elapsed = time.perf_counter() - started
    text = json.dumps(frames)
    per_step = len(text) / len(frames["steps"])
    assert per_step < 200 * 1024 / 100, f"{per_step:.0f} bytes a step"
    assert elapsed < 0.5, f"{elapsed * 1000:.0f} ms"
    assert json.loads(text) == frames
