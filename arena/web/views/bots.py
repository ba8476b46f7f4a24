"""Bot pages: versions, rating history chart, results per opponent, recent matches; edit and challenge."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from arena.analysis.selectors import costliest_games
from arena.bots.models import BotVersion
from arena.bots.selectors import active_versions, bot_get, bot_list, bot_versions
from arena.bots.services import bot_update
from arena.matches.presets import NAMES as PRESET_NAMES
from arena.matches.selectors import bot_opponents, recent_matches
from arena.matches.services import MatchError, challenge_create
from arena.ops.throttle import throttled
from arena.ratings.selectors import ladder_titles, rating_history, version_ratings
from bots_sdk.engine import PRESETS


class ChallengeForm(forms.Form):
    opponent = forms.ModelChoiceField(queryset=BotVersion.objects.none(), label=gettext_lazy("Against"))
    preset = forms.ChoiceField(choices=[(p, PRESET_NAMES[p]) for p in PRESETS], initial="classic",
                               label=gettext_lazy("Rules"))

    def __init__(self, *args: object, exclude_bot: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["opponent"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = active_versions().exclude(bot_id=exclude_bot).order_by("bot__name")
        field.label_from_instance = lambda version: version.display  # type: ignore[method-assign,assignment]


def bot_list_view(request: HttpRequest) -> HttpResponse:
    return render(request, "web/bot_list.html", {"bots": bot_list()})


def bot_detail(request: HttpRequest, name: str) -> HttpResponse:
    bot = bot_get(name)
    versions = bot_versions(bot)
    ids = [v.pk for v in versions]
    active = next((v for v in versions if v.status == BotVersion.Status.ACTIVE), None)
    mine = request.user.is_authenticated and bot.owner_id == request.user.pk
    history = rating_history(ids)
    return render(request, "web/bot.html", {
        "bot": bot, "versions": versions, "active": active, "mine": mine,
        "ratings": version_ratings([active.pk]) if active else [],
        "history": history, "history_titles": ladder_titles(history), "opponents": bot_opponents(bot),
        "matches": recent_matches(15, bot=bot),
        "costly": costliest_games(bot),
        "challenge_form": ChallengeForm(exclude_bot=bot.pk) if mine and active else None,
    })


@login_required
def bot_edit(request: HttpRequest, name: str) -> HttpResponse:
    bot = bot_get(name)
    if bot.owner_id != request.user.pk:
        return HttpResponseForbidden(f"{bot.name} belongs to another author")
    if request.method == "POST":
        bot_update(bot=bot, user=request.user, description=request.POST.get("description", ""))
        messages.success(request, _("Description saved."))
        return redirect("bot", name=bot.name)
    return render(request, "web/bot_edit.html", {"bot": bot})


@login_required
@require_POST
@throttled("challenge")
def bot_challenge(request: HttpRequest, name: str) -> HttpResponse:
    bot = bot_get(name)
    if bot.owner_id != request.user.pk:
        return HttpResponseForbidden(f"{bot.name} belongs to another author")
    form = ChallengeForm(request.POST, exclude_bot=bot.pk)
    active = next((v for v in bot_versions(bot) if v.status == BotVersion.Status.ACTIVE), None)
    if not form.is_valid() or active is None:
        messages.error(request, _("Pick an active opponent (and your bot needs an active version)."))
        return redirect("bot", name=bot.name)
    try:
        match = challenge_create(user=request.user, version=active,
                                 opponents=[form.cleaned_data["opponent"]], preset=form.cleaned_data["preset"])
    except MatchError as error:
        messages.error(request, str(error))
        return redirect("bot", name=bot.name)
    messages.success(request, _("Challenge queued."))
    return redirect("match", pk=match.pk)
