"""The legal actions of a position as a first-class object (python-chess's ``legal_moves``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from bots_sdk.engine.actions import Action, ActionKind


class LegalActions(Sequence[Action]):
    """An immutable sequence of the actions the seat to act may choose now.

    It supports ``len``, indexing (so ``random.choice`` works), iteration and
    ``action in legal``; ``sorted()`` gives the plain string order of replay traces.
    """

    __slots__ = ("_actions",)

    def __init__(self, actions: list[Action]) -> None:
        self._actions = actions

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        return self._actions[index]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions)

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            return any(str(a) == action for a in self._actions)
        return action in self._actions

    def __bool__(self) -> bool:
        return bool(self._actions)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            return sorted(self._actions) == sorted(other._actions)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._actions))

    def count(self, value: object = None) -> int:
        """``count()`` is the number of legal actions; ``count(action)`` is 1 or 0."""
        if value is None:
            return len(self._actions)
        return int(value in self)

    def of_kind(self, kind: ActionKind) -> list[Action]:
        return [a for a in self._actions if a.kind is kind]

    def sorted(self) -> list[Action]:
        """In plain string order (``attack JS`` before ``attack TS``), as traces print them."""
        return sorted(self._actions)

    def texts(self) -> list[str]:
        return [str(a) for a in sorted(self._actions)]

    def __repr__(self) -> str:
        return f"<LegalActions ({len(self._actions)}): {', '.join(self.texts())}>"
