"""The statistics page: the filter from the query string, the cached figures from the selectors, one template."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy, ngettext_lazy

from arena.matches.presets import NAMES as PRESET_NAMES
from arena.stats.selectors import DUPLICATE_BOTS, Filters, stats_page
from bots_sdk.engine import PRESETS


class FilterForm(forms.Form):
    preset = forms.ChoiceField(choices=[("", gettext_lazy("every preset")), *((p, PRESET_NAMES[p]) for p in PRESETS)],
                               required=False, label=gettext_lazy("Rules"))
    players = forms.TypedChoiceField(
        choices=[("", gettext_lazy("every table size")),
                 *((str(n), ngettext_lazy("%(n)s player", "%(n)s players", "n") % {"n": n}) for n in range(2, 7))],
        label=gettext_lazy("Table size"),
        coerce=int, empty_value=None, required=False,
    )

    def filters(self) -> Filters:
        """The valid part of the query; a value that is not one of the choices is ignored, not an error page."""
        if not self.is_valid():
            return Filters(preset=self.cleaned_data.get("preset") or None, players=self.cleaned_data.get("players"))
        return Filters(preset=self.cleaned_data["preset"] or None, players=self.cleaned_data["players"])


def stats_view(request: HttpRequest) -> HttpResponse:
    form = FilterForm(request.GET)
    page = stats_page(form.filters())
    return render(request, "stats/stats.html", {
        "form": form, "page": page, "duplicate_bots": DUPLICATE_BOTS,
    })
