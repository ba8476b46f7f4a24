"""Submitting a bot from the browser, and a version's status page (with its build or admission error)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy

from arena.bots.selectors import version_get
from arena.bots.services import SubmissionError, upload_limit_text, version_submit
from arena.notices import shown
from arena.ops.redact import error_for
from arena.ops.throttle import throttled


class SubmitForm(forms.Form):
    archive = forms.FileField(label=gettext_lazy("Archive"),
                              help_text=gettext_lazy("A zip or tar.gz of your bot folder, with bot.toml at its root."))
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=2000,
                                  label=gettext_lazy("Description"))


@login_required
@throttled("upload")
def submit(request: HttpRequest) -> HttpResponse:
    form = SubmitForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["archive"]
        try:
            version = version_submit(owner=request.user, filename=upload.name, data=upload.read(),  # type: ignore[arg-type]
                                     description=form.cleaned_data["description"] or None)
        except SubmissionError as error:
            form.add_error("archive", error.message)
            status = error.status
        else:
            return redirect("version", pk=version.pk)
    elif request.method == "POST":
        status = 400
    return render(request, "web/submit.html", {"form": form, "limit": upload_limit_text()}, status=status)


def version_detail(request: HttpRequest, pk: int) -> HttpResponse:
    version = version_get(pk)
    mine = request.user.is_authenticated and version.bot.owner_id == request.user.pk
    admission = version.match_entries.filter(match__kind="admission").select_related("match").first()
    return render(request, "web/version.html", {
        "version": version, "mine": mine, "admission": admission,
        "error": error_for(shown(version.error), request.user, [version.bot.owner_id]),
    })
