"""Game records (docs/protocol.md section 2): round trip, forfeits, malformed records, illegal and changed records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bots_sdk.engine import Game, GameRecord, RecordError, Rules, SeatInfo
from bots_sdk.engine.replay import replay
from tests.engine.helpers import CONFIGS, advance_random, play_random, random_game


def seats_for(players: int) -> list[SeatInfo]:
    return [SeatInfo(f"bot{s}", str(s + 1)) for s in range(players)]


def record_of(game: Game, seed: int = 0) -> GameRecord:
    rng = random.Random(seed)
    ms = [rng.randrange(0, 900) for _ in game.decisions()]
    return GameRecord.from_game(game, seats_for(game.players), ms)


def finished_record(preset: str = "classic", players: int = 2, seed: int = 1) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(record_of(random_game(preset, players, seed)).to_json())
    return data


def read(data: dict[str, Any]) -> GameRecord:
    return GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_round_trip_replays_ok(preset: str, players: int) -> None:
    for seed in range(3):
        game = random_game(preset, players, seed)
        assert game.outcome is not None
        record = record_of(game, seed)
        text = record.to_json()
        again = GameRecord.from_json(text)
        assert again == record
        assert again.to_json() == text
        assert json.loads(text)["format"] == "durak-game/1"
        result = replay(again)
        assert result.status == "ok", result.final_line()
        assert result.replayed == game.outcome.to_dict()
        assert result.stored == game.outcome.to_dict()
        assert result.final_line() == {"result": game.outcome.to_dict()}
        assert result.game.steps() == game.steps()
        assert len(result.steps) == len(game.steps())
        for step, (trace, (seat, action, forced)) in enumerate(zip(result.steps, game.steps())):
            assert (trace.step, trace.seat, trace.action, trace.forced) == (step, seat, str(action), forced)
            assert trace.legal == sorted(trace.legal)
            if forced:
                assert trace.legal == [trace.action]
            else:
                assert len(trace.legal) >= 2
                assert trace.action in trace.legal


def test_record_holds_every_option_and_the_decisions_only() -> None:
    game = random_game("pagat", 4, 3)
    data = json.loads(record_of(game).to_json())
    assert list(data) == ["format", "rules", "dealer", "deck", "seats", "actions", "result"]
    assert data["rules"] == Rules.preset("pagat", 4).to_dict()
    assert set(data["rules"]) == {
        "preset", "players", "deck", "hand_size", "first_attacker", "throw_in", "bout_limit", "first_bout_limit",
        "multi_card_attacks", "transfer", "early_out", "trump_exchange", "teams", "pickup_draw_limit", "max_bouts",
    }
    assert data["deck"] == [str(c) for c in game.deck]
    assert len(data["deck"]) == 36
    assert [(a["seat"], a["action"]) for a in data["actions"]] == [(s, str(a)) for s, a in game.decisions()]
    assert all(set(a) == {"seat", "action", "ms"} for a in data["actions"])
    assert data["seats"] == [{"bot": f"bot{s}", "version": str(s + 1)} for s in range(4)]


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_forfeit_round_trip(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players)
    for seed in range(3):
        rng = random.Random(seed)
        game = Game.new(rules, seed)
        advance_random(game, rng, rng.randrange(0, 60))
        if game.is_over():
            continue
        seat = game.to_act
        assert seat is not None
        outcome = game.forfeit(seat, "timeout", "no answer within 1.0 s")
        assert outcome.durak == outcome.offender == seat
        record = record_of(game)
        data = json.loads(record.to_json())
        expected: dict[str, Any] = {
            "durak": seat, "draw": False, "reason": "timeout", "out_order": list(game.out_order),
        }
        if rules.teams is not None:  # the offender's whole team loses
            expected["losers"] = next(list(team) for team in rules.teams if seat in team)
        assert data["result"] == {**expected, "offender": seat, "detail": "no answer within 1.0 s"}
        result = replay(GameRecord.from_json(record.to_json()))
        assert result.status == "ok", result.final_line()
        assert result.final_line() == {"result": data["result"]}
        assert not result.game.is_over()
        assert result.game.to_act == seat


def test_forfeit_by_a_seat_that_is_not_to_act_is_a_mismatch() -> None:
    game = Game.new(Rules.preset("classic", 3), 5)
    advance_random(game, random.Random(5), 10)
    seat = game.to_act
    assert seat is not None
    game.forfeit((seat + 1) % 3, "crash", "exit code 1")
    result = replay(read(json.loads(record_of(game).to_json())))
    assert result.status == "mismatch"
    assert result.replayed is not None
    assert result.replayed["offender"] == seat
    assert result.final_line()["error"] == "mismatch"


@pytest.mark.parametrize("reason", ["timeout", "crash", "illegal", "protocol"])
def test_every_forfeit_reason_round_trips(reason: str) -> None:
    game = Game.new(Rules.preset("transfer", 4), 11)
    advance_random(game, random.Random(2), 25)
    seat = game.to_act
    assert seat is not None
    game.forfeit(seat, reason, f"{reason} detail")
    result = replay(read(json.loads(record_of(game).to_json())))
    assert result.status == "ok"
    assert result.stored["reason"] == reason


def test_unknown_top_level_keys_are_ignored() -> None:
    data = finished_record()
    data["comment"] = {"anything": [1, 2]}
    assert replay(read(data)).status == "ok"


def test_card_texts_in_any_accepted_spelling_replay_and_print_canonically() -> None:
    data = finished_record("classic", 3, 2)
    spelled = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    data["deck"] = [("10" if c[0] == "T" else c[0].lower()) + spelled[c[1]] for c in data["deck"]]
    for action in data["actions"]:
        action["action"] = action["action"].replace("T", "10").upper()
    result = replay(read(data))
    assert result.status == "ok"
    for step in result.steps:
        assert "10" not in step.action and "♠" not in step.action
        assert step.action in step.legal


# ---------------------------------------------------------------------- malformed records


def error_of(text: str | bytes) -> str:
    with pytest.raises(RecordError) as info:
        replay(GameRecord.from_json(text))
    return str(info.value)


def error_for(data: Any) -> str:
    return error_of(json.dumps(data))


def test_bad_json() -> None:
    assert error_of('{"format": "durak-game/1", ').startswith("not JSON")
    assert error_of(b"\xff\xfe").startswith("not JSON")
    assert error_for([1, 2]).startswith("a record is a JSON object")


@pytest.mark.parametrize("field", ["format", "rules", "dealer", "deck", "seats", "actions", "result"])
def test_missing_field(field: str) -> None:
    data = finished_record()
    del data[field]
    assert error_for(data) == f"{field}: missing"


def test_wrong_format() -> None:
    data = finished_record()
    data["format"] = "durak-game/2"
    assert error_for(data).startswith("format:")


def test_deck_with_a_duplicate_card() -> None:
    data = finished_record()
    data["deck"][7] = data["deck"][3]
    message = error_for(data)
    assert message.startswith("deck["), message
    assert data["deck"][3] in message


@pytest.mark.parametrize(
    ("change", "start"),
    [
        (lambda deck: deck.__setitem__(5, "XX"), "deck[5]"),
        (lambda deck: deck.__setitem__(5, 7), "deck[5]"),
        (lambda deck: deck.__setitem__(5, "5S"), "deck[5]"),
        (lambda deck: deck.pop(), "deck"),
        (lambda deck: deck.append("2S"), "deck"),
    ],
)
def test_bad_decks(change: Any, start: str) -> None:
    data = finished_record()
    change(data["deck"])
    assert error_for(data).startswith(start)


def test_unparseable_action_text() -> None:
    data = finished_record()
    data["actions"][3]["action"] = "attack the king"
    assert error_for(data).startswith("actions[3].action")
    data["actions"][3]["action"] = "hit 6S"
    assert error_for(data).startswith("actions[3].action")
    data["actions"][3]["action"] = 42
    assert error_for(data).startswith("actions[3].action")


@pytest.mark.parametrize(
    ("key", "value"),
    [("seat", 2), ("seat", -1), ("seat", "0"), ("seat", True), ("ms", -5), ("ms", "fast")],
)
def test_bad_action_fields(key: str, value: Any) -> None:
    data = finished_record()
    data["actions"][2][key] = value
    assert error_for(data).startswith(f"actions[2].{key}")


@pytest.mark.parametrize(
    ("option", "value"),
    [("players", 7), ("players", 1), ("players", "2"), ("deck", 40), ("hand_size", 0), ("bout_limit", 0),
     ("first_attacker", "youngest"), ("throw_in", "some"), ("transfer", "yes"), ("max_bouts", 0),
     ("hand_size", 20)],
)
def test_option_out_of_range(option: str, value: Any) -> None:
    data = finished_record()
    data["rules"][option] = value
    data["rules"]["preset"] = "custom"
    message = error_for(data)
    assert message.startswith(f"rules.{option}") or (option == "hand_size" and message.startswith("rules.")), message


def test_players_out_of_range_for_a_preset() -> None:
    data = finished_record()
    data["rules"]["players"] = 7
    assert error_for(data).startswith("rules.players")


def test_unknown_rules_option() -> None:
    data = finished_record()
    data["rules"]["jokers"] = 2
    message = error_for(data)
    assert message.startswith("rules.jokers"), message
    assert "unknown" in message


def test_missing_rules_option() -> None:
    data = finished_record()
    del data["rules"]["pickup_draw_limit"]
    assert error_for(data).startswith("rules.pickup_draw_limit")


def test_preset_label_must_match_its_options() -> None:
    data = finished_record()
    data["rules"]["transfer"] = True
    assert error_for(data).startswith("rules.transfer")
    data["rules"]["preset"] = "custom"
    # A custom game under other rules: it is read, and replaying its actions is a different game.
    assert replay(read(data)).status in ("ok", "illegal", "mismatch")


def test_record_that_stops_before_the_end_without_a_forfeit() -> None:
    data = finished_record()
    del data["actions"][-4:]
    message = error_for(data)
    assert message.startswith("actions"), message
    assert "stops before the game ends" in message


def test_result_draw_inconsistent_with_durak() -> None:
    data = finished_record()
    assert data["result"]["durak"] is not None
    data["result"]["draw"] = True
    assert error_for(data).startswith("result.draw")
    data = finished_record()
    data["result"]["durak"] = None
    assert error_for(data).startswith("result.draw")


@pytest.mark.parametrize(
    ("key", "value", "start"),
    [("reason", "bored", "result.reason"), ("durak", 5, "result.durak"), ("out_order", [0, 0], "result.out_order"),
     ("draw", "no", "result.draw"), ("out_order", "0", "result.out_order")],
)
def test_bad_result_fields(key: str, value: Any, start: str) -> None:
    data = finished_record()
    data["result"][key] = value
    assert error_for(data).startswith(start)


def test_forfeit_result_needs_offender_and_detail() -> None:
    game = Game.new(Rules.preset("classic", 2), 3)
    advance_random(game, random.Random(3), 6)
    seat = game.to_act
    assert seat is not None
    game.forfeit(seat, "timeout", "slow")
    data = json.loads(record_of(game).to_json())
    for field in ("offender", "detail"):
        broken = json.loads(json.dumps(data))
        del broken["result"][field]
        assert error_for(broken).startswith(f"result.{field}")
    broken = json.loads(json.dumps(data))
    broken["result"]["durak"] = 1 - seat
    assert error_for(broken).startswith("result.durak")


def test_draw_reason_with_a_durak_is_malformed() -> None:
    data = finished_record()
    data["result"]["reason"] = "max_bouts"
    assert error_for(data).startswith("result.durak")


def test_seats_must_match_the_players() -> None:
    data = finished_record()
    data["seats"].append({"bot": "extra"})
    assert error_for(data).startswith("seats")
    data = finished_record()
    del data["seats"][0]["bot"]
    assert error_for(data).startswith("seats[0].bot")


def test_dealer_must_be_a_seat() -> None:
    data = finished_record()
    data["dealer"] = 2
    assert error_for(data).startswith("dealer")


# ---------------------------------------------------------------------- illegal and changed records


def test_illegal_action_in_a_record() -> None:
    data = finished_record("classic", 3, 4)
    record = read(data)
    ok = replay(record)
    # Change the fifth decision into an action of the wrong kind for that moment.
    index = 4
    original = data["actions"][index]
    step = next(i for i, s in enumerate(ok.steps) if not s.forced and sum(
        1 for t in ok.steps[: i + 1] if not t.forced) == index + 1)
    legal = ok.steps[step].legal
    bad = next(t for t in ("take", "pass", "attack AS", "attack 6C", "defend 6S 7S") if t not in legal)
    data["actions"][index] = {"seat": original["seat"], "action": bad}
    result = replay(read(data))
    assert result.status == "illegal"
    assert result.illegal is not None
    assert result.illegal["step"] == step
    assert result.illegal["action"] == bad
    assert result.illegal["reason"]
    assert result.steps == ok.steps[:step]
    assert result.final_line() == {"error": "illegal", **result.illegal}
    assert list(result.final_line()) == ["error", "step", "action", "reason"]


def test_action_by_the_wrong_seat_is_illegal() -> None:
    data = finished_record("classic", 3, 6)
    right = data["actions"][0]["seat"]
    wrong = (right + 1) % 3
    data["actions"][0]["seat"] = wrong
    result = replay(read(data))
    assert result.status == "illegal"
    assert result.illegal is not None
    assert result.illegal["reason"] == f"seat {wrong} is not to act (seat {right} is)"


def test_action_after_the_end_is_illegal() -> None:
    data = finished_record()
    ok = replay(read(data))
    data["actions"].append({"seat": 0, "action": "pass"})
    result = replay(read(data))
    assert result.status == "illegal"
    assert result.illegal == {"step": len(ok.steps), "action": "pass", "reason": "the game is over"}


def test_illegal_action_is_reported_as_written() -> None:
    data = finished_record()
    data["actions"][0]["action"] = "defend 10S JS"
    result = replay(read(data))
    assert result.status == "illegal"
    assert result.illegal is not None
    assert result.illegal["action"] == "defend 10S JS"


def test_changed_result_is_a_mismatch() -> None:
    data = finished_record("classic", 3, 8)
    stored = dict(data["result"])
    assert stored["durak"] is not None
    data["result"]["durak"] = (stored["durak"] + 1) % 3
    data["result"]["out_order"] = [s for s in range(3) if s != data["result"]["durak"]]
    result = replay(read(data))
    assert result.status == "mismatch"
    assert result.replayed == stored
    assert result.final_line() == {"error": "mismatch", "stored": data["result"], "replayed": stored}


def test_changed_out_order_or_reason_is_a_mismatch() -> None:
    data = finished_record("classic", 4, 9)
    data["result"]["out_order"] = list(reversed(data["result"]["out_order"]))
    assert replay(read(data)).status == "mismatch"
    data = finished_record("classic", 4, 9)
    data["result"] = {"durak": None, "draw": True, "reason": "max_bouts", "out_order": []}
    assert replay(read(data)).status == "mismatch"


def test_records_of_all_outcome_kinds_round_trip() -> None:
    """Normal ends, draws by pickup limit and by max_bouts (custom rules make them common)."""
    reasons = set()
    for seed in range(40):
        for rules in (
            Rules.preset("classic", 2).replace(max_bouts=3),
            Rules.preset("classic", 3).replace(pickup_draw_limit=1),
            Rules.preset("house", 3),
        ):
            game = Game.new(rules, seed)
            play_random(game, random.Random(seed))
            record = GameRecord.from_game(game)
            result = replay(GameRecord.from_json(record.to_json()))
            assert result.status == "ok"
            assert game.outcome is not None
            reasons.add((game.outcome.reason.value, game.outcome.draw))
    assert ("max_bouts", True) in reasons
    assert ("pickup_limit", True) in reasons
    assert ("normal", False) in reasons


def test_from_game_refuses_an_unfinished_game() -> None:
    game = Game.new(Rules.preset("classic", 2), 1)
    with pytest.raises(ValueError, match="not over"):
        GameRecord.from_game(game)
