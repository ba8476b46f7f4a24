"""A table and the replay of the same game show every hand, and the cards known of other hands, in one order:
the engine's ``sort_hand`` (plain suits with red and black alternating, each low to high, the trumps last)."""

from __future__ import annotations

from arena.matches.replay import replay_frames, split_cards
from arena.tables.board import table_view
from bots_sdk.engine import Game, GameRecord, Rules


def test_a_table_and_the_replay_show_each_hand_in_the_same_order() -> None:
    game = Game.new(Rules.preset("classic", players=4), seed=11)
    names = ["ann", "random", "gentle", "strong"]
    shown: list[tuple[int, list[str], list[list[str]]]] = []  # what each seat's table page showed, move by move
    while not game.is_over():
        for seat in range(game.players):
            view = table_view(game, seat, names)
            shown.append((seat, view["hand"], [s["known"] for s in view["seats"]]))
        game.push(game.legal_actions()[0])
    frames = replay_frames(GameRecord.from_game(game).to_dict())
    assert frames["complete"], frames["error"]
    steps = frames["steps"]
    orders = {(seat, tuple(hand)) for seat, hand, _ in shown}
    for seat, hand, known in shown:
        # the replay's step with this very hand: the same cards in the same order
        replayed = next(split_cards(s["hands"][seat]) for s in steps if set(split_cards(s["hands"][seat])) == set(hand))
        assert replayed == hand, f"seat {seat}: the table shows {hand}, the replay {replayed}"
        for other, cards in enumerate(known):
            if cards:
                assert any(split_cards(s["known"][other]) == cards for s in steps), f"seat {other}'s known {cards}"
    assert len(orders) > 20  # many different hands were compared
