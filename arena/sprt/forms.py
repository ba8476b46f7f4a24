"""The start form: B among the author's versions, A among their others or any active bot, bounds and error rates."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_lazy as _

from arena.bots.models import BotVersion
from arena.matches.presets import preset_name
from arena.sprt import services
from arena.sprt.models import StrengthTest
from arena.sprt.selectors import baseline_versions, candidate_versions
from bots_sdk.engine import PRESETS, Rules


def _two_player_presets() -> list[tuple[str, str]]:
    choices = []
    for preset in PRESETS:
        try:
            Rules.preset(preset, players=2)
        except ValueError:
            continue
        choices.append((preset, preset_name(preset)))
    return choices


def _label(version: BotVersion) -> str:
    return f"{version.display} · {version.get_status_display()}"


class StrengthTestForm(forms.Form):
    version_b = forms.ModelChoiceField(queryset=BotVersion.objects.none(), label=_("B (the candidate, yours)"))
    version_a = forms.ModelChoiceField(
        queryset=BotVersion.objects.none(), label=_("A (the baseline)"),
        help_text=_("Another of your versions, or any active bot."),
    )
    preset = forms.ChoiceField(choices=_two_player_presets, initial="classic", label=_("Rules (2 players)"))
    elo0 = forms.FloatField(initial=services.DEFAULT_ELO0, label=_("elo0 (H0: B is this much stronger)"),
                            help_text=_("Logistic Elo; 0 means 'no better'."))
    elo1 = forms.FloatField(initial=services.DEFAULT_ELO1, label=_("elo1 (H1: B is this much stronger)"),
                            help_text=_("30 Elo is a 54 percent expected score: small for Durak bots, found in a few "
                                      "hundred pairs at most. Narrower bounds need many more pairs."))
    alpha = forms.FloatField(initial=services.DEFAULT_ALPHA, min_value=0.001, max_value=0.5,
                             label=_("α (chance of a false 'stronger')"))
    beta = forms.FloatField(initial=services.DEFAULT_BETA, min_value=0.001, max_value=0.5,
                            label=_("β (chance of missing a real gain)"))
    max_pairs = forms.IntegerField(initial=services.DEFAULT_MAX_PAIRS, min_value=1,
                                   max_value=services.MAX_PAIRS_LIMIT, label=_("Stop undecided after (pairs)"))
    concurrency = forms.IntegerField(initial=services.DEFAULT_CONCURRENCY, min_value=1,
                                     max_value=services.MAX_CONCURRENCY, label=_("Pairs in flight"))
    model = forms.ChoiceField(choices=StrengthTest.Model.choices, initial=StrengthTest.Model.PENTANOMIAL,
                              label=_("Statistical model"))

    def __init__(self, *args: Any, user: AbstractBaseUser | AnonymousUser, bot_name: str = "",
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        candidates = candidate_versions(user)
        for name, queryset in (("version_b", candidates), ("version_a", baseline_versions(user))):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = queryset
            field.label_from_instance = _label  # type: ignore[method-assign,assignment]
        self.bot_name = ""
        if bot_name and not self.is_bound:
            # From a bot page: its newest admitted version against the one before it, if there is one.
            mine = [v for v in candidates if v.bot.name == bot_name]
            if mine:
                self.bot_name = bot_name
                self.initial["version_b"] = mine[0].pk
            if len(mine) > 1:
                self.initial["version_a"] = mine[1].pk
