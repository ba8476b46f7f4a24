"""What the arena stores to show later, kept as a message code and its parameters, worded when a page shows it.

A tournament's notes, a table's reasons (who went on and why), why a match failed or a version was rejected are
written by tasks, in no reader's language, and read later by readers of every language. So they are stored as a
``Notice``: a code from ``WORDING`` and its parameters, as JSON in the field's text
(``{"code": "table.match_failed", "params": {"reason": {...}}}``; a parameter may be a notice itself), and
``shown`` words them through gettext in the active language. Text stored before (plain English) has no such form
and is shown as it was; a field of lines (a tournament's notes: a timestamp, then the note) may mix both, line by
line. Staff-typed reasons stay parameters, in the words staff chose.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from django.utils import formats
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from arena.bots.build_words import build_text
from arena.matches.fault_words import fault_text
from arena.matches.presets import preset_name
from arena.matches.replay import reason_text

Param = Union[str, int, float, None, "Notice"]

WORDING: dict[str, Promise] = {
    # a tournament's notes (one line each, after the time)
    "tournament.started": ngettext_lazy("started with %(count)d entrant", "started with %(count)d entrants",
                                        "count"),
    "tournament.finished": _("finished"),
    "tournament.wins": _("%(bot)s wins"),
    "tournament.table": _("round %(round)s, table %(table)s: %(note)s"),
    "tournament.match_failed": _("round %(round)s, table %(table)s: match #%(match)s failed (%(reason)s); it scores "
                                 "nothing, the tournament goes on"),
    "tournament.short_final": _("round %(round)s: the final seats %(count)s, fewer than %(sides)s (withdrawals)"),
    "tournament.withdrew": _("%(bot)s withdrew: %(reason)s"),
    "tournament.cancelled_by": _("cancelled by %(who)s at %(when)s UTC: %(reason)s"),
    "tournament.cancelled_by_system": _("cancelled by the system at %(when)s UTC: %(reason)s"),
    # a tournament's error
    "tournament.not_started": _("not started: %(problem)s"),
    "tournament.stopped": _("stopped after round %(round)s: fewer than %(sides)s entrants left"),
    "tournament.cancelled_by_staff": _("cancelled by staff"),
    "entrants.too_few": ngettext_lazy("%(count)d entrant cannot fill a table of %(players)s: enter at least "
                                      "%(players)s",
                                      "%(count)d entrants cannot fill a table of %(players)s: enter at least "
                                      "%(players)s", "count"),
    "entrants.too_many": _("%(count)s entrants: a tournament takes at most %(most)s"),
    "entrants.round_robin_group": _("%(count)s entrants: a round robin at tables of %(players)s takes at most "
                                    "%(most)s (run a Swiss instead)"),
    # an entrant's seed and withdrawal
    "seed.rating": _("rating %(preset)s %(players)sp"),
    "seed.rating_provisional": _("rating %(preset)s %(players)sp (provisional)"),
    "seed.estimate": _("estimate from %(preset)s %(players)sp"),
    "seed.estimate_provisional": _("estimate from %(preset)s %(players)sp (provisional)"),
    "seed.prior": _("not rated yet: the prior mean"),
    "seed.staff": _("set by staff"),
    "withdrawn.rejected": _("its version was rejected before the start"),
    "withdrawn.by_staff": _("withdrawn by staff"),
    # a table's notes and the bracket's reasons
    "table.not_played": _("not played: %(bots)s withdrew"),
    "table.not_created": _("could not be created: %(error)s"),
    "table.match_failed": _("match failed: %(reason)s"),
    "table.tiebreak_of": _("tie-break of table %(table)s: %(why)s"),
    "table.again_without": _("played again without the entrant who withdrew"),
    "table.one_more_deal": _("one more duplicate deal"),
    "table.failed_seed": _("the match failed: the better seed goes on (the last resort)"),
    "table.still_tied": ngettext_lazy(
        "still tied on duraks and finishing order after %(count)d tie-break deal: the better seed goes on "
        "(the last resort)",
        "still tied on duraks and finishing order after %(count)d tie-break deals: the better seed goes on "
        "(the last resort)", "count"),
    "table.others_go_on": _("the others go on (an entrant withdrew)"),
    "table.others_go_on_unplayed": _("the others go on without playing (an entrant withdrew)"),
    "table.by_duraks": _("decided by duraks %(where)s: %(last_in)s against %(first_out)s"),
    "table.by_finishing": _("decided by finishing order %(where)s: %(last_in)s finishing points against "
                            "%(first_out)s"),
    "table.in_match": pgettext_lazy("decided", "in the match"),
    "table.in_tiebreak": pgettext_lazy("decided", "in tie-break deal %(number)s (table %(table)s)"),
    "table.not_counted": _("not counted: %(why)s"),
    "table.not_counted_running": _("not counted: %(why)s; match #%(match)s was already playing: it finishes and is "
                                   "recorded, but does not count"),
    "table.withdrew": _("%(bot)s withdrew"),
    "table.tournament_cancelled": _("the tournament was cancelled"),
    # why a match failed (public), or a build could not run
    "failure.bot_not_built": _("a bot of this match could not be built (its author sees why on the version's page)"),
    "failure.match_worker": _("the worker could not run this match (%(kind)s)"),
    "failure.build_worker": _("the worker could not run this build (%(kind)s)"),
    "failure.table_worker": _("the worker could not run this table (%(kind)s)"),
    "failure.internal": _("the referee stopped with an internal error (%(error)s); the arena's staff have the "
                          "details"),
    "failure.database": _("database unavailable"),
    "failure.broker": _("broker unavailable"),
    "failure.sandbox": _("sandbox unavailable"),
    "failure.index": _("package index unreachable"),
    "failure.host": _("host error"),
    "failure.worker_error": _("worker error"),
    "match.not_played": _("the match could not be played"),
    "match.gave_up": _("gave up after %(count)s attempts; the last: %(reason)s"),
    "match.overdue": _("no worker finished it in time (%(count)s attempts)"),
    # why a table's game failed (every spectator reads it)
    "table_game.overtime": _("the game ran over its %(minutes)s minutes"),
    "table_game.overdue": _("the game ran past its time limit"),
    "table_game.stopped": _("the game stopped: %(reason)s"),
    # a reference bot's description (Markdown)
    "bot.reference": _("The SDK's reference bot `%(name)s`."),
    # why a version was rejected (its author reads it)
    "version.build": _("build: %(error)s"),
    "version.overdue": _("the build ran past its deadline"),
    "version.build_gave_up": _("the workers could not build it in %(count)s attempts; the last: %(error)s"),
    "version.admission_failed": _("admission match failed: %(reason)s"),
    "version.admission_lost": _("admission: game %(game)s against random was lost by %(reason)s: %(detail)s"),
    "version.admission_gave_up": _("admission: no result after %(count)s attempts at its admission match against "
                                   "random; the last %(ending)s"),
    "admission.gone": _("is gone"),
    "admission.cancelled": _("was cancelled"),
    "admission.failed": _("failed: %(reason)s"),
}
"""Every stored message's English; the catalogs hold its Russian and German. Codes are kept once rows hold them
(a row whose code is gone shows its JSON): reword a message freely, rename its code never."""

WORDS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "preset": lambda p: preset_name(str(p["name"])),
    "reason": lambda p: reason_text(str(p["code"])),
    "fault": lambda p: fault_text(str(p["detail"])),
}
"""Codes worded by code elsewhere: a preset's name, a game's end reason, a fault's detail."""

RECOGNISED: Mapping[str, Mapping[str, Callable[[str], str]]] = {
    "version.build": {"error": build_text},
}
"""Parameters stored as a worker wrote them (English) and worded when shown: a build's error."""


@dataclass(frozen=True)
class Notice:
    code: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in WORDING and self.code not in WORDS:
            raise KeyError(f"notice: unknown code {self.code!r} (add it to arena.notices.WORDING)")

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code,
                "params": {k: v.as_json() if isinstance(v, Notice) else v for k, v in self.params.items()}}

    def stored(self) -> str:
        """The text to store in a field (``shown`` reads it back)."""
        return json.dumps(self.as_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> Notice | None:
        """The notice ``data`` holds, or None if it is not one (of a known code)."""
        if not isinstance(data, dict) or set(data) != {"code", "params"} or not isinstance(data["params"], dict):
            return None
        code = data["code"]
        if not isinstance(code, str) or (code not in WORDING and code not in WORDS):
            return None
        params: dict[str, Param] = {}
        for key, value in data["params"].items():
            params[key] = cls.from_json(value) if isinstance(value, dict) else value
        return cls(code, params)

    def text(self) -> str:
        """The notice in the active language."""
        values = {key: _param_text(value) for key, value in self.params.items()}
        for key, word in RECOGNISED.get(self.code, {}).items():
            if isinstance(self.params.get(key), str):
                values[key] = word(str(values[key]))
        if self.code in WORDS:
            return WORDS[self.code](values)
        return str(WORDING[self.code] % values)


def notice(code: str, /, **params: Param) -> Notice:
    return Notice(code, params)


def _param_text(value: Param) -> Any:
    if isinstance(value, Notice):
        return value.text()
    if isinstance(value, float):
        return int(value) if value.is_integer() else formats.localize(value)
    return "" if value is None else value


_START = re.compile(r'\{"code":')


def parsed(stored: str) -> Notice | None:
    """The notice a field's whole text holds, or None (plain text)."""
    if not stored.startswith('{"code":'):
        return None
    try:
        return Notice.from_json(json.loads(stored))
    except ValueError:
        return None


def as_param(stored: str) -> Param:
    """A stored field to pass on as a parameter of another notice: the notice it holds, else its text."""
    return parsed(stored) or stored


def shown(stored: str) -> str:
    """A stored field as the reader reads it: each line holding a notice (after any prefix, such as a note's
    time) worded in the active language; plain text (written before notices, or typed by staff) as it is."""
    lines = []
    for line in stored.split("\n"):
        start = _START.search(line)
        found = parsed(line[start.start():]) if start is not None else None
        lines.append(line if found is None or start is None else line[:start.start()] + found.text())
    return "\n".join(lines)


def shown_field(field: str, label: str) -> Callable[[Any], str]:
    """An admin column (or read-only field) showing ``field`` of a row as a page shows it, for staff who would
    otherwise read a notice's JSON."""

    def column(row: Any) -> str:
        return shown(str(getattr(row, field)))

    column.short_description = label  # type: ignore[attr-defined]
    return column
