"""What every page's template may use, whatever view drew it."""

from __future__ import annotations

from django.http import HttpRequest

from bots_sdk import __version__


def site(request: HttpRequest) -> dict[str, str]:
    """The version in the footer: a bug report from a page then says which arena it came from."""
    return {"arena_version": __version__}
