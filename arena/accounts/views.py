"""Sign-up and the account page (API tokens, the author's bots)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from arena.accounts.services import token_create, token_revoke
from arena.ops.throttle import throttled


@throttled("signup")
def signup(request: HttpRequest) -> HttpResponse:
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.username}. Submit your first bot below.")
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
        messages.success(request, "Token revoked.")
    else:
        messages.error(request, "No such token of yours.")
    return redirect("account")
