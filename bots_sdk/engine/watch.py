"""Watching a game step by step, forced moves included.

A caller of ``push`` or ``apply`` sees only the positions where a player decides;
the engine applies forced moves and ends bouts on its own in between. A
``Watcher`` given to ``Game.new`` or ``Game.from_deck`` is told about each of
those steps as it happens: the replay viewer takes a snapshot after each, and
the tests' rules model checks each against the rules.

>>> from bots_sdk.engine import Game, Rules
>>> class Bouts(Watcher):
...     def __init__(self) -> None:
...         self.ended = 0
...     def after_bout_end(self, game: Game, over: bool) -> None:
...         self.ended += 1
>>> watcher = Bouts()
>>> game = Game.new(Rules.preset("classic", players=2), seed=1, watcher=watcher)
>>> while not game.is_over():
...     game.push(game.legal_actions()[0])
>>> watcher.ended == game.bout
True

Passes the engine applies while polling the attackers (a seat holding no card
it may add) are not announced, to keep that loop fast; they change nothing but
the history, where ``game.events()`` shows them. A clone of a watched game is not
watched, so a search on clones never calls a watcher.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bots_sdk.engine.actions import Action
    from bots_sdk.engine.game import Game


class Watcher:
    """Override the calls you need; each default does nothing.

    The game is in a consistent state at every call; a watcher reads it through
    the public API and must not change it.
    """

    def before_step(self, game: Game, seat: int, action: Action, forced: bool) -> None:
        """``seat`` is about to take ``action`` (``forced``: the engine takes it as the only legal one)."""

    def after_step(self, game: Game) -> None:
        """The step just announced to ``before_step`` is applied (the bout may still have to end)."""

    def before_bout_end(self, game: Game) -> None:
        """The bout is over and its cards are still on the table: next, they are picked up or
        discarded, players draw and those out are recorded."""

    def after_bout_end(self, game: Game, over: bool) -> None:
        """The bout's end is applied; ``over``: the game ended with it, else the next bout has started."""
