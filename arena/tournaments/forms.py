"""The staff form that creates a tournament (the service validates again and has the last word)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from arena.bots.models import BotVersion
from arena.matches.presets import NAMES as PRESET_NAMES
from arena.tournaments.formats import MAX_DEALS, MAX_ROUNDS, MAX_TABLE, MIN_TABLE, settings_error
from arena.tournaments.models import Format
from bots_sdk.engine import PRESETS


class EntrantsField(forms.ModelMultipleChoiceField[BotVersion]):
    def label_from_instance(self, obj: BotVersion) -> str:
        return obj.display


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Name"))
    format = forms.ChoiceField(choices=Format.choices, initial=Format.ROUND_ROBIN, label=_("Format"))
    preset = forms.ChoiceField(choices=[(p, PRESET_NAMES[p]) for p in PRESETS], initial="classic", label=_("Rules"))
    players = forms.TypedChoiceField(
        coerce=int, initial=2,
        choices=[(n, ngettext_lazy("%(n)s player", "%(n)s players", "n") % {"n": n})
                 for n in range(MIN_TABLE, MAX_TABLE + 1)],
        label=_("Table size"),
    )
    deals = forms.IntegerField(
        min_value=1, max_value=MAX_DEALS, initial=2, label=_("Deals"),
        help_text=_("Deals per table; each is played in every seat rotation (a duplicate set)."),
    )
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, required=False, label=_("Rounds"),
                                help_text=_("Swiss only."))
    rated = forms.BooleanField(required=False, label=_("Rated"),
                               help_text=_("The games count on the ladder of this preset and size."))
    starts_at = forms.DateTimeField(
        required=False, label=_("Starts at (UTC)"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Blank: now."),
    )
    entrants = EntrantsField(
        queryset=BotVersion.objects.none(), widget=forms.CheckboxSelectMultiple, label=_("Entrants"),
        help_text=_("Active versions; seeded by their rating on this preset's ladder."),
    )
    seeds = forms.CharField(
        required=False, label=_("Seed order"),
        widget=forms.TextInput(attrs={"placeholder": _("e.g. gentle, mybot")}),
        help_text=_("Optional: entrants' bot names, best first, comma-separated; the rest follow by rating (a "
                  "provisional rating by its estimate; never rated: 1500)."),
    )
    allow_overlap = forms.BooleanField(
        required=False, label=_("Allow entrants already in another scheduled or running tournament"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["entrants"]
        assert isinstance(field, EntrantsField)
        field.queryset = (
            BotVersion.objects.filter(status=BotVersion.Status.ACTIVE).select_related("bot").order_by("bot__name")
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if {"format", "preset", "players", "deals"} <= data.keys():
            problem = settings_error(data["format"], data["preset"], data["players"], data["deals"],
                                     data.get("rounds") if data["format"] == Format.SWISS else None)
            if problem:
                raise forms.ValidationError(problem)
        if "entrants" in data:
            data["seed_order"] = self._seed_order(data.get("seeds", ""), list(data["entrants"]))
        return data

    def _seed_order(self, text: str, entrants: list[BotVersion]) -> list[BotVersion]:
        """The entrants named in the seed order, in that order; an unknown or repeated name is an error."""
        by_name = {version.bot.name: version for version in entrants}
        order: list[BotVersion] = []
        for name in (part.strip() for part in text.split(",")):
            if not name:
                continue
            if name not in by_name:
                self.add_error("seeds", f"{name!r} is not one of the chosen entrants")
            elif by_name[name] in order:
                self.add_error("seeds", f"{name!r} is named twice")
            else:
                order.append(by_name[name])
        return order
