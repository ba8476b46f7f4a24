"""Quotas on what costs the arena work or invites abuse, counted with django-ratelimit in the shared cache.

Each scope has a rate setting (``"20/h"``: count per period, django-ratelimit's syntax) and a key: uploads and
challenges count per author; tables, analysis requests and dataset downloads per visitor (the account or the
API token's, or the address of an anonymous browser, which could otherwise shed its session to start afresh);
sign-ups and logins per address. A view's POSTs count (``throttled``); a download counts each GET
(``refusal``), since each reads every game it holds. A refusal says what the limit is and when to try again:
the site's own page or, under ``/api/``, a JSON ``detail``, both with status 429 and ``Retry-After``.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django_ratelimit.core import get_usage

from arena.accounts.models import ApiToken

View = Callable[..., HttpResponseBase]
RATE = re.compile(r"(\d+)/(\d*)([smhd])")
PERIODS = {"s": pgettext_lazy("per", "second"), "m": pgettext_lazy("per", "minute"), "h": pgettext_lazy("per", "hour"),
           "d": pgettext_lazy("per", "day")}
"""A rate's period after "per" (one of it), in the reader's language."""


def _address(group: str, request: HttpRequest) -> str:
    return f"ip:{request.META.get('REMOTE_ADDR', '')}"


def _author(group: str, request: HttpRequest) -> str:
    """The signed-in user (a page) or the token's (the API, once ninja has authenticated the call)."""
    auth = getattr(request, "auth", None)
    if isinstance(auth, ApiToken):
        return f"user:{auth.user_id}"
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return _address(group, request)


@dataclasses.dataclass(frozen=True)
class Scope:
    setting: str
    what: Promise
    """What is counted, for the refusal: "uploads per author"."""
    key: Callable[[str, HttpRequest], str]


SCOPES = {
    "upload": Scope("ARENA_RATE_UPLOADS", gettext_lazy("bot uploads per author"), _author),
    "challenge": Scope("ARENA_RATE_CHALLENGES", gettext_lazy("challenges per author"), _author),
    "table": Scope("ARENA_RATE_TABLES", gettext_lazy("new tables per visitor"), _author),
    "analysis": Scope("ARENA_RATE_ANALYSES", gettext_lazy("analysis requests per visitor"), _author),
    "dataset": Scope("ARENA_RATE_DATASETS", gettext_lazy("dataset downloads per visitor"), _author),
    "signup": Scope("ARENA_RATE_SIGNUPS", gettext_lazy("sign-ups per address"), _address),
    "login": Scope("ARENA_RATE_LOGINS", gettext_lazy("login attempts per address"), _address),
}


def _per(rate: str) -> str:
    """``20/h`` -> ``20 per hour``; ``5/10m`` -> ``5 per 10 minutes`` (django-ratelimit's rate syntax).

    >>> _per("20/h"), _per("5/10m")
    ('20 per hour', '5 per 10 minutes')
    """
    found = RATE.fullmatch(rate)
    if found is None:
        raise ValueError(f"{rate!r} is not a rate like 20/h")
    count, multiple, unit = found.groups()
    if multiple in ("", "1"):
        return _("%(count)s per %(period)s") % {"count": count, "period": PERIODS[unit]}
    units = {"s": ngettext("second", "seconds", int(multiple)), "m": ngettext("minute", "minutes", int(multiple)),
             "h": ngettext("hour", "hours", int(multiple)), "d": ngettext("day", "days", int(multiple))}
    return _("%(count)s per %(multiple)s %(unit)s") % {"count": count, "multiple": multiple, "unit": units[unit]}


def _wait_text(seconds: int) -> str:
    if seconds < 120:
        return _("%(seconds)s s") % {"seconds": seconds}
    return _("%(minutes)s min") % {"minutes": math.ceil(seconds / 60)}


def refusal(scope_name: str, request: HttpRequest) -> HttpResponse | None:
    """Count this request against the scope's quota; the 429 answer when it is over, else None."""
    scope = SCOPES[scope_name]
    rate: str = getattr(settings, scope.setting)
    usage = get_usage(request, group=f"arena.{scope_name}", key=scope.key, rate=rate, increment=True)
    if usage is None or not usage["should_limit"]:
        return None
    wait = max(1, int(usage["time_left"]))
    message = _("Too many %(what)s: the limit is %(rate)s. Try again in %(wait)s.") % {
        "what": scope.what, "rate": _per(rate), "wait": _wait_text(wait)}
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "retry_after": wait}, status=429)
    else:
        response = render(request, "web/refused.html", {
            "title": _("Slow down"), "message": message,
        }, status=429)
    response["Retry-After"] = str(wait)
    return response


def throttled(scope_name: str) -> Callable[[View], View]:
    """A view decorator: POSTs to the view count against ``scope_name``'s quota (see ``refusal``)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST" and (refused := refusal(scope_name, request)) is not None:
                return refused
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
