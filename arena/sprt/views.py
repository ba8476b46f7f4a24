"""Pages of the strength tests: the author's list, the start form, the live page (and its JSON), stop.

Thin: forms validate the shape, services decide and write, selectors read. A
test's page is public like its matches; only its author lists, starts and stops.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena.sprt.forms import StrengthTestForm
from arena.sprt.selectors import author_tests, strength_test_data, strength_test_get, strength_test_pairs
from arena.sprt.services import StrengthTestError, strength_test_start, strength_test_stop


@login_required
def test_list(request: HttpRequest) -> HttpResponse:
    return render(request, "sprt/list.html", {"tests": author_tests(request.user)[:200]})


@login_required
def test_start(request: HttpRequest) -> HttpResponse:
    bot_name = request.GET.get("bot", "")
    if request.method == "POST":
        form = StrengthTestForm(request.POST, user=request.user)
        if form.is_valid():
            data = form.cleaned_data
            try:
                test = strength_test_start(
                    author=request.user, version_b=data["version_b"], version_a=data["version_a"],  # type: ignore[arg-type]
                    preset=data["preset"], elo0=data["elo0"], elo1=data["elo1"], alpha=data["alpha"],
                    beta=data["beta"], model=data["model"], max_pairs=data["max_pairs"],
                    concurrency=data["concurrency"],
                )
            except StrengthTestError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Strength test started: its first pairs are queued."))
                return redirect("sprt:detail", pk=test.pk)
    else:
        form = StrengthTestForm(user=request.user, bot_name=bot_name)
    return render(request, "sprt/start.html", {"form": form, "bot_name": form.bot_name})


def test_detail(request: HttpRequest, pk: int) -> HttpResponse:
    test = strength_test_get(pk)
    return render(request, "sprt/detail.html", {
        "test": test, "data": strength_test_data(test), "pairs": strength_test_pairs(test),
        "mine": request.user.is_authenticated and test.author_id == request.user.pk,
    })


def test_data_json(request: HttpRequest, pk: int) -> JsonResponse:
    """What the live page polls for while the test runs."""
    return JsonResponse(strength_test_data(strength_test_get(pk)))


@login_required
@require_POST
def test_stop(request: HttpRequest, pk: int) -> HttpResponse:
    test = strength_test_get(pk)
    if test.author_id != request.user.pk:
        return HttpResponseForbidden("only the author of a test can stop it")
    try:
        strength_test_stop(test=test, user=request.user)
    except StrengthTestError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Test stopped."))
    return redirect("sprt:detail", pk=test.pk)
