"""The engine's exceptions: each says what was wrong and where.

As in python-chess, all are ``ValueError`` subclasses, and syntax errors
(``InvalidActionError``) are kept apart from legal-looking moves that the rules
forbid now (``IllegalActionError``): the referee maps the first to a protocol
fault and the second to an illegal move.
"""

from __future__ import annotations


class DurakError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidCardError(DurakError):
    """Card text that does not name a card."""


class InvalidActionError(DurakError):
    """Action text that does not parse."""


class IllegalActionError(DurakError):
    """A well-formed action that the rules do not allow in the current position."""


class InvalidRulesError(DurakError):
    """A rule option with an unknown name, a wrong type or a value out of range."""


class InvalidDealError(DurakError):
    """A deck or dealer that does not fit the rules (wrong cards, duplicates, too small)."""


class RecordError(DurakError):
    """A malformed game record: the message starts with the field it is about."""
