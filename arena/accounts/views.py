"""Sign-up and the account page (API tokens, the author's bots)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from arena.accounts.middleware import preference_set
from arena.accounts.services import token_create, token_revoke
from arena.ops.throttle import throttled


@throttled("signup")
def signup(request: HttpRequest) -> HttpResponse:
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, _("Welcome, %(name)s. Submit your first bot below.") % {"name": user.username})
        return redirect("submit")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
def account(request: HttpRequest) -> HttpResponse:
    new_token = None
    if request.method == "POST":
        _, new_token = token_create(user=request.user, name=request.POST.get("name", ""))  # type: ignore[arg-type]
    return render(request, "accounts/account.html", {
        "tokens": request.user.api_tokens.all(),  # type: ignore[union-attr]
        "bots": request.user.bots.all(),  # type: ignore[union-attr]
        "new_token": new_token,
        "site": request.build_absolute_uri("/").rstrip("/"),
    })


@login_required
@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    if token_revoke(user=request.user, token_id=token_id):  # type: ignore[arg-type]
        messages.success(request, _("Token revoked."))
    else:
        messages.error(request, _("No such token of yours."))
    return redirect("account")


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, the redirect back), and for a signed-in user the account's preference."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if check_for_language(language) and language in dict(settings.LANGUAGES):
        preference_set(request, language)
    return response
