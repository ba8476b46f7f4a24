"""Quotas on what costs the arena work or invites abuse, counted with django-ratelimit in the shared cache.

Each scope has a rate setting (``"20/h"``: count per period, django-ratelimit's syntax) and a key: uploads and
challenges count per author, tables per visitor (the account, or the address of an anonymous browser, which
could otherwise shed its session to start afresh), sign-ups and logins per address. Only POSTs count. A
refusal says what the limit is and when to try again: the site's own page or, under ``/api/``, a JSON
``detail``, both with status 429 and ``Retry-After``.
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
from django_ratelimit.core import get_usage

from arena.accounts.models import ApiToken

View = Callable[..., HttpResponseBase]
RATE = re.compile(r"(\d+)/(\d*)([smhd])")
PERIODS = {"s": "second", "m": "minute", "h": "hour", "d": "day"}


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
    what: str
    """What is counted, for the refusal: "uploads per author"."""
    key: Callable[[str, HttpRequest], str]


SCOPES = {
    "upload": Scope("ARENA_RATE_UPLOADS", "bot uploads per author", _author),
    "challenge": Scope("ARENA_RATE_CHALLENGES", "challenges per author", _author),
    "table": Scope("ARENA_RATE_TABLES", "new tables per visitor", _author),
    "signup": Scope("ARENA_RATE_SIGNUPS", "sign-ups per address", _address),
    "login": Scope("ARENA_RATE_LOGINS", "login attempts per address", _address),
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
        return f"{count} per {PERIODS[unit]}"
    return f"{count} per {multiple} {PERIODS[unit]}s"


def _wait_text(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} s"
    return f"{math.ceil(seconds / 60)} min"


def refusal(scope_name: str, request: HttpRequest) -> HttpResponse | None:
    """Count this request against the scope's quota; the 429 answer when it is over, else None."""
    scope = SCOPES[scope_name]
    rate: str = getattr(settings, scope.setting)
    usage = get_usage(request, group=f"arena.{scope_name}", key=scope.key, rate=rate, increment=True)
    if usage is None or not usage["should_limit"]:
        return None
    wait = max(1, int(usage["time_left"]))
    message = f"Too many {scope.what}: the limit is {_per(rate)}. Try again in {_wait_text(wait)}."
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "retry_after": wait}, status=429)
    else:
        response = render(request, "web/refused.html", {
            "title": "Slow down", "message": message,
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
