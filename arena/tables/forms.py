"""The form that opens a table: rules, table size, and who sits in each seat (a person or an active bot)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext_lazy

from arena.bots.models import BotVersion
from arena.matches.presets import NAMES as PRESET_NAMES
from arena.tables.selectors import seat_choices
from bots_sdk.engine import PRESETS

PERSON = "person"
MAX_SEATS = 6


def _label(version: BotVersion) -> str:
    if version.reference:
        return _("%(name)s (reference bot)") % {"name": version.bot.name}
    return _("%(version)s by %(author)s") % {"version": version.display, "author": version.bot.owner.get_username()}


class TableForm(forms.Form):
    preset = forms.ChoiceField(choices=[(p, PRESET_NAMES[p]) for p in PRESETS], initial="classic", label=_lazy("Rules"))
    players = forms.TypedChoiceField(
        coerce=int, initial=3,
        choices=[(n, ngettext_lazy("%(n)s player", "%(n)s players", "n") % {"n": n}) for n in range(2, MAX_SEATS + 1)],
        label=_lazy("Table size"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.versions = {str(v.pk): v for v in seat_choices().select_related("bot__owner")}
        choices = [(PERSON, _("a person (you, or whoever opens the link)"))]
        choices += [(pk, _label(v)) for pk, v in self.versions.items()]
        first_bot = next((pk for pk, v in self.versions.items() if v.reference == "random"), PERSON)
        for i in range(MAX_SEATS):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                choices=choices, initial=PERSON if i == 0 else first_bot, label=_("Seat %(seat)s") % {"seat": i},
                required=False,
            )
        self.seats: list[BotVersion | None] = []

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{i}"] for i in range(MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players = data.get("players")
        if not isinstance(players, int):
            return data
        seats: list[BotVersion | None] = []
        for i in range(players):
            value = data.get(f"seat_{i}") or PERSON
            seats.append(None if value == PERSON else self.versions[value])
        self.seats = seats
        return data
