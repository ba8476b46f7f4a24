"""Who went out together: a game record's ``out_order`` re-read as groups of seats that went out in the same bout.

A record lists the seats in the order they went out, but two seats that empty
their hands in the same bout (the attacker's last card beaten with the
defender's last card) are listed one after the other, in turn order, although
neither went out before the other. The finishing places treat them as equal, so
the record is replayed with the engine, watching each end of a bout; a record
that does not replay (or an old one without actions) keeps its listed order.
"""

from __future__ import annotations

from typing import Any

from bots_sdk.engine import DurakError, Game, GameRecord


class _Watched(Game):
    """A ``Game`` that notes, at each end of a bout, the seats that went out in it."""

    _watched = True

    def _end_bout(self) -> bool:
        before = len(self.out_order)
        over = super()._end_bout()
        out = list(self.out_order[before:])
        if out:
            self.__dict__.setdefault("groups", []).append(out)
        return over


def out_groups(record: dict[str, Any]) -> list[list[int]] | None:
    """The seats of the record's ``out_order`` grouped by the bout they went out in, first out first; None when
    the record does not replay to its own ``out_order``."""
    try:
        parsed = GameRecord.from_dict(record)
        game = _Watched.from_deck(parsed.rules, parsed.deck, parsed.dealer)
        for recorded in parsed.actions:
            game.apply(recorded.action, recorded.seat)
    except (DurakError, ValueError, KeyError, TypeError):
        return None
    groups: list[list[int]] = game.__dict__.get("groups", [])
    if [seat for group in groups for seat in group] != list(record.get("result", {}).get("out_order", [])):
        return None
    return groups


def out_positions(record: dict[str, Any]) -> dict[int, int] | None:
    """Per seat that went out: its group's rank (1 = first out; seats out in the same bout share it).

    >>> out_positions({"format": "durak-game/1"}) is None
    True
    """
    groups = out_groups(record)
    if groups is None:
        return None
    return {seat: rank for rank, group in enumerate(groups, 1) for seat in group}
