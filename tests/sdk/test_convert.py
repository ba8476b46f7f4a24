"""Engine objects survive the trip through the ``durak.v1`` messages, and malformed messages are named."""

from __future__ import annotations

import dataclasses

import pytest

from bots_sdk import convert
from bots_sdk._proto.durak.v1 import bot_pb2 as pb
from bots_sdk.convert import (
    ObservationEncoder,
    ProtocolError,
    action_from_pb,
    action_to_pb,
    card_from_pb,
    card_to_pb,
    events_from_pb,
    events_to_pb,
    observation_from_pb,
    observation_to_pb,
    outcome_from_pb,
    outcome_to_pb,
    rules_from_pb,
    rules_to_pb,
)
from bots_sdk.engine import (
    Action,
    ActionKind,
    Card,
    DurakError,
    Game,
    InvalidActionError,
    Outcome,
    Reason,
    Rules,
)
from bots_sdk.engine.cards import deck_cards

from .helpers import CONFIGS, observation_differences, random_positions

# ------------------------------------------------------------------ cards and actions


def test_every_card_round_trips() -> None:
    cards = deck_cards(52)
    assert len(set(cards)) == 52
    for card in cards:
        message = card_to_pb(card)
        assert message.rank == int(card.rank)
        assert pb.Suit.Name(message.suit) == f"SUIT_{card.suit.name}"
        assert card_from_pb(message) == card
        assert card_from_pb(pb.Card.FromString(message.SerializeToString())) == card


def all_actions_of(preset: str, players: int, seeds: range) -> set[Action]:
    seen: set[Action] = set()
    for seed in seeds:
        for game in random_positions(Rules.preset(preset, players=players), seed):
            if not game.is_over():
                seen.update(game.legal_actions())
    return seen


def test_every_action_kind_round_trips() -> None:
    actions: set[Action] = set()
    for preset, players in [("classic", 2), ("transfer", 3), ("pagat", 2), ("house", 4), ("classic", 6)]:
        actions |= all_actions_of(preset, players, range(8))
    assert {a.kind for a in actions} == set(ActionKind)
    for action in actions:
        message = action_to_pb(action)
        assert message.text == str(action)
        assert message.kind == int(action.kind)
        assert action_from_pb(message) == action
        assert action_from_pb(pb.Action.FromString(message.SerializeToString())) == action
        assert action_from_pb(pb.Action(text=str(action))) == action  # the text form alone


@pytest.mark.parametrize("text", ["attack 6S", "defend 6S 9S", "take", "pass", "transfer 6H", "exchange"])
def test_an_action_given_only_as_text_parses(text: str) -> None:
    assert action_from_pb(pb.Action(text=text)) == Action.parse(text)


def test_structured_fields_win_over_text() -> None:
    message = action_to_pb(Action.parse("attack 7C"))
    message.text = "take"
    assert action_from_pb(message) == Action.parse("attack 7C")


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (pb.Action(kind=99), "action.kind: 99"),  # type: ignore[arg-type]
        (pb.Action(kind=pb.ACTION_KIND_ATTACK, card=pb.Card(rank=6, suit=9)), "action.card"),  # type: ignore[arg-type]
        (pb.Action(kind=pb.ACTION_KIND_ATTACK, card=pb.Card(rank=1, suit=pb.SUIT_SPADES)), "action.card"),  # type: ignore[arg-type]
        (pb.Action(kind=pb.ACTION_KIND_ATTACK, card=pb.Card(rank=15, suit=pb.SUIT_SPADES)), "action.card"),  # type: ignore[arg-type]
        (pb.Action(kind=pb.ACTION_KIND_TRANSFER), "transfer needs a card"),
        (pb.Action(kind=pb.ACTION_KIND_ATTACK), "attack needs a card"),
        (pb.Action(kind=pb.ACTION_KIND_DEFEND, card=pb.Card(rank=pb.RANK_NINE, suit=pb.SUIT_SPADES)), "target"),
        (pb.Action(kind=pb.ACTION_KIND_DEFEND, target=pb.Card(rank=pb.RANK_NINE, suit=pb.SUIT_SPADES)), "card"),
        (
            pb.Action(kind=pb.ACTION_KIND_DEFEND, card=pb.Card(rank=pb.RANK_NINE, suit=pb.SUIT_SPADES),
                      target=pb.Card(rank=pb.RANK_SIX)),
            "action.target",
        ),
        (pb.Action(), "neither kind nor text"),
        (pb.Action(text="attack"), "attack"),
        (pb.Action(text="fold"), "'fold'"),
        (pb.Action(text="attack 1S"), "1S"),
    ],
    ids=["kind99", "suit9", "rank1", "rank15", "transfer_no_card", "attack_no_card", "defend_no_target",
         "defend_no_card", "target_suit0", "empty", "text_no_card", "text_unknown_word", "text_bad_card"],
)
def test_a_malformed_action_is_an_invalid_action_naming_the_field(message: pb.Action, field: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        action_from_pb(message)
    assert field in str(error.value)


def test_a_malformed_card_is_a_protocol_error_naming_the_field() -> None:
    with pytest.raises(ProtocolError, match=r"observation\.hand\[0\]: rank 1 and suit 9"):
        card_from_pb(pb.Card(rank=1, suit=9), "observation.hand[0]")  # type: ignore[arg-type]
    with pytest.raises(ProtocolError, match="rank 6 and suit 0"):
        card_from_pb(pb.Card(rank=pb.RANK_SIX))


# ------------------------------------------------------------------ rules and outcomes


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_the_rules_of_every_preset_round_trip(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    message = rules_to_pb(rules)
    assert message.preset == preset
    back = rules_from_pb(pb.Rules.FromString(message.SerializeToString()))
    assert back == rules
    assert back.to_dict() == rules.to_dict()


@pytest.mark.parametrize(
    "changes",
    [
        {"bout_limit": None, "first_bout_limit": None, "pickup_draw_limit": None},
        {"deck": 52, "hand_size": 8, "players": 5, "first_attacker": "dealer_left", "throw_in": "neighbours"},
        {"deck": 24, "hand_size": 4, "bout_limit": 1, "first_bout_limit": 1, "pickup_draw_limit": 1, "max_bouts": 1},
        {"multi_card_attacks": True, "transfer": True, "early_out": True, "trump_exchange": True},
    ],
)
def test_custom_rules_round_trip_with_null_limits(changes: dict[str, object]) -> None:
    rules = Rules.preset("classic", players=2).replace(**changes)
    assert rules.preset_name == "custom"
    message = rules_to_pb(rules)
    for name in ("bout_limit", "first_bout_limit", "pickup_draw_limit"):
        assert message.HasField(name) == (getattr(rules, name) is not None)
    assert rules_from_pb(pb.Rules.FromString(message.SerializeToString())) == rules


def test_unset_rule_enums_are_a_protocol_error() -> None:
    message = rules_to_pb(Rules.preset("classic"))
    message.first_attacker = pb.FIRST_ATTACKER_UNSPECIFIED
    with pytest.raises(ProtocolError, match="first_attacker"):
        rules_from_pb(message)
    message = rules_to_pb(Rules.preset("classic"))
    message.throw_in = 7  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match="throw_in"):
        rules_from_pb(message)


def test_a_mislabelled_preset_is_refused() -> None:
    message = rules_to_pb(Rules.preset("classic"))
    message.transfer = True
    with pytest.raises(DurakError, match="transfer"):
        rules_from_pb(message)


OUTCOMES = [
    Outcome(1, Reason.NORMAL, (0,)),
    Outcome(0, Reason.NORMAL, (2, 1, 3)),
    Outcome(None, Reason.NORMAL, (1, 0)),
    Outcome(None, Reason.PICKUP_LIMIT, ()),
    Outcome(None, Reason.MAX_BOUTS, (2,)),
    *(Outcome(seat, reason, (1,) if seat == 0 else (), seat, f"{reason.value} detail")
      for seat, reason in enumerate([Reason.TIMEOUT, Reason.CRASH, Reason.ILLEGAL, Reason.PROTOCOL])),
]


@pytest.mark.parametrize("outcome", OUTCOMES, ids=lambda o: f"{o.reason.value}-{o.durak}")
def test_outcomes_round_trip(outcome: Outcome) -> None:
    message = outcome_to_pb(outcome)
    assert message.draw == outcome.draw
    assert message.HasField("durak") == (outcome.durak is not None)
    assert message.HasField("offender") == (outcome.offender is not None)
    assert outcome_from_pb(pb.Outcome.FromString(message.SerializeToString())) == outcome


def test_outcomes_of_real_games_round_trip() -> None:
    for preset, players in CONFIGS:
        for seed in range(2):
            *_, game = random_positions(Rules.preset(preset, players=players), seed)
            assert game.outcome is not None
            assert outcome_from_pb(outcome_to_pb(game.outcome)) == game.outcome


def test_every_reason_has_its_own_number() -> None:
    numbers = {outcome_to_pb(Outcome(None, reason)).reason for reason in Reason}
    assert len(numbers) == len(Reason)
    assert pb.REASON_UNSPECIFIED not in numbers
    for reason in Reason:
        assert pb.Reason.Name(outcome_to_pb(Outcome(None, reason)).reason) == f"REASON_{reason.name}"


def test_an_unknown_reason_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError, match=r"outcome\.reason: 0"):
        outcome_from_pb(pb.Outcome())
    with pytest.raises(ProtocolError, match=r"outcome\.reason: 42"):
        outcome_from_pb(pb.Outcome(reason=42))  # type: ignore[arg-type]


# ------------------------------------------------------------------ observations


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_observations_round_trip_at_every_position(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    checked = 0
    for game in random_positions(rules, 100 + players):
        seats = range(players) if game.is_over() else {game.to_act or 0, game.bout % players}
        for seat in seats:
            observation = game.observation(seat)
            message = pb.Observation.FromString(observation_to_pb(observation).SerializeToString())
            back = observation_from_pb(message)
            ignore = ("outcome",) if game.is_over() else ()  # the outcome travels in EndGame, not here
            assert observation_differences(back, observation, ignore) == [], (len(game.steps()), seat)
            if not game.is_over():
                assert back == dataclasses.replace(observation, _history=back._history)
            checked += 1
    assert checked > 30


def test_a_seats_observations_encoded_one_after_another_are_each_encoded_whole() -> None:
    """The referee encodes a seat's history once, adding each decision's new events to what it encoded before:
    every encoding is the observation's whole message all the same, and an encoder handed an observation older
    than its last one (another game's) refuses it rather than send a wrong history."""
    rules = Rules.preset("transfer", players=3)
    encoders = [ObservationEncoder() for _ in range(3)]
    for game in random_positions(rules, 11):
        for seat in range(3):
            observation = game.observation(seat)
            message = pb.Observation.FromString(encoders[seat].encode(observation))
            assert message == pb.Observation.FromString(ObservationEncoder().encode(observation))
            assert len(message.history) == len(observation.history)
    with pytest.raises(ValueError, match="older than the last one encoded"):
        encoders[0].encode(Game.new(rules, 11).observation(0))


def test_encoding_endless_new_field_values_fills_no_memory() -> None:
    """Each field's encodings are kept for the next observation, at most ``_ENTRIES_KEPT`` of them: values never
    seen before are still encoded, not kept."""
    observation = Game.new(Rules.preset("classic", players=2), seed=3).observation(0)
    for n in range(convert._ENTRIES_KEPT + 500):
        odd = dataclasses.replace(observation, hand_sizes=(n, n + 1))
        assert tuple(pb.Observation.FromString(ObservationEncoder().encode(odd)).hand_sizes) == (n, n + 1)
    hand_sizes = convert._FIELD_ENCODINGS[convert._FIELD_VALUES.index("hand_sizes")]
    assert convert._ENTRIES_KEPT - 10 < len(hand_sizes) <= convert._ENTRIES_KEPT


def test_observation_history_round_trips_through_events() -> None:
    for preset in ("transfer", "pagat", "house"):
        *_, game = random_positions(Rules.preset(preset, players=3), 4)
        history = game.observation(0)._history
        events = events_to_pb(history)
        kinds = {event.kind for event in events}
        assert kinds == {pb.EVENT_KIND_ACTION, pb.EVENT_KIND_DRAW}
        back = events_from_pb(pb.Observation(history=events).history)
        assert [(k, s, v, bool(f)) for k, s, v, f in back] == [(k, s, v, bool(f)) for k, s, v, f in history]


def test_observations_of_a_trump_exchange_and_transfers_round_trip() -> None:
    kinds: set[ActionKind] = set()
    for seed in range(40):
        for game in random_positions(Rules.preset("pagat" if seed % 2 else "transfer", players=3), seed):
            if game.is_over():
                continue
            observation = game.observation(game.to_act or 0)
            legal_kinds = {a.kind for a in observation.legal_actions}
            if not legal_kinds & {ActionKind.EXCHANGE, ActionKind.TRANSFER}:
                continue
            kinds |= legal_kinds
            assert observation_differences(observation_from_pb(observation_to_pb(observation)), observation) == []
        if {ActionKind.EXCHANGE, ActionKind.TRANSFER} <= kinds:
            break
    assert {ActionKind.EXCHANGE, ActionKind.TRANSFER} <= kinds


def observation_message() -> pb.Observation:
    game = Game.new(Rules.preset("transfer", players=3), seed=2)
    game.push(min(game.legal_actions(), key=str))
    return observation_to_pb(game.observation(game.to_act or 0))


def test_a_malformed_observation_is_a_protocol_error_naming_the_field() -> None:
    message = observation_message()
    message.trump = 9  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match=r"observation\.trump: 9"):
        observation_from_pb(message)

    message = observation_message()
    message.hand[0].suit = 9  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match=r"observation\.hand\[0\]"):
        observation_from_pb(message)

    message = observation_message()
    message.rules.throw_in = pb.THROW_IN_UNSPECIFIED
    with pytest.raises(ProtocolError, match=r"observation\.rules"):
        observation_from_pb(message)

    message = observation_message()
    message.history[0].kind = 99  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match=r"observation\.history\[0\]\.kind: 99"):
        observation_from_pb(message)

    message = observation_message()
    action_event = next(i for i, event in enumerate(message.history) if event.kind == pb.EVENT_KIND_ACTION)
    message.history[action_event].action.Clear()
    with pytest.raises(ProtocolError, match=rf"observation\.history\[{action_event}\]: action: neither kind nor text"):
        observation_from_pb(message)

    message = observation_message()
    message.table[0].attack.rank = 1  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match=r"observation\.table"):
        observation_from_pb(message)


def test_reading_stays_strict_after_the_same_actions_were_read_before() -> None:
    """Whether a malformed action is caught must not depend on what the process read earlier."""
    observation_from_pb(observation_message())  # a valid message with the same action texts, read first

    message = observation_message()
    message.legal_actions[0].kind = 99  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match=r"observation\.legal_actions: action\.kind: 99"):
        observation_from_pb(message)

    message = observation_message()
    action_event = next(i for i, event in enumerate(message.history) if event.kind == pb.EVENT_KIND_ACTION)
    message.history[action_event].action.kind = 99  # type: ignore[assignment]
    with pytest.raises(ProtocolError, match=rf"observation\.history\[{action_event}\]: action\.kind: 99"):
        observation_from_pb(message)


def test_structured_fields_win_over_text_in_observations_too() -> None:
    message = observation_message()
    observation_from_pb(message)  # the texts are read once
    action = message.legal_actions[0]
    replacement = Action.parse("take") if str(action_from_pb(action)) != "take" else Action.parse("pass")
    action.text = str(replacement)  # the text now disagrees with kind/card/target, which the contract reads
    back = observation_from_pb(message)
    assert back.legal_actions[0] == action_from_pb(action) != replacement


def test_cards_compare_by_identity_after_a_round_trip() -> None:
    """The engine interns cards; a card read from a message is the very same object."""
    card = Card.parse("QH")
    assert card_from_pb(card_to_pb(card)) is card
