"""The legal actions of a position as a first-class object (python-chess's ``legal_moves``)."""

from __future__ import annotations

from bots_sdk.engine.actions import Action, ActionKind


class LegalActions(tuple[Action, ...]):
    """The actions the seat to act may choose now: an immutable sequence.

    A tuple underneath, so ``len``, indexing, ``random.choice`` and iteration
    run at C speed in a search loop. ``"take" in legal`` accepts action text too;
    ``sorted()`` gives the plain string order of replay traces.

    >>> from bots_sdk.engine import Game, Rules
    >>> legal = Game.new(Rules.preset("classic", players=2), seed=1).legal_actions()
    >>> legal.count(), "take" in legal, legal.texts()[:2]
    (6, False, ['attack 7D', 'attack 8H'])
    """

    __slots__ = ()

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            return any(str(a) == action for a in self)
        return tuple.__contains__(self, action)

    def count(self, value: object = None) -> int:
        """``count()`` is the number of legal actions; ``count(action)`` is 1 or 0."""
        if value is None:
            return len(self)
        return int(value in self)

    def of_kind(self, kind: ActionKind) -> list[Action]:
        return [a for a in self if a.kind is kind]

    def sorted(self) -> list[Action]:
        """In plain string order (``attack JS`` before ``attack TS``), as traces print them."""
        return sorted(self)

    def texts(self) -> list[str]:
        return [str(a) for a in sorted(self)]

    def __repr__(self) -> str:
        return f"<LegalActions ({len(self)}): {', '.join(self.texts())}>"
