"""Host details out of what authors read: build output and failure reasons are written on the worker and name
its folders (the bot store, temporary build dirs, the interpreter), which say nothing to an author and map the
host for an attacker. Staff read the full text; an author reads it through ``strip_host_paths``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

ABSOLUTE_PATH = re.compile(r"(?<![\w:/.~-])/(?:[^\s/:'\"()\[\],;]+/)+(?=[^\s/:'\"()\[\],;]*)")
"""The folders of an absolute path (``/var/lib/arena/bots/.building-x/``): not a URL's ``//`` nor a relative
``a/b``; the last component (the file an error is about) is kept."""


def strip_host_paths(text: str) -> str:
    """``text`` with every absolute path cut to its last component: ``/var/lib/x/src/bot.toml`` -> ``…/bot.toml``.

    >>> strip_host_paths("/var/lib/arena/bots/.building-1/src/bot.toml: unknown key, see https://a.org/b/c")
    '…/bot.toml: unknown key, see https://a.org/b/c'
    """
    return ABSOLUTE_PATH.sub("…/", text)


def error_for(text: str, user: AbstractBaseUser | AnonymousUser | None, owner_ids: Iterable[int]) -> str:
    """What ``user`` may read of a build or failure reason: staff all of it, the owners of the bots concerned
    (``owner_ids``) the text without host paths, anyone else nothing (a public page says only "rejected")."""
    if user is None or not user.is_authenticated:
        return ""
    if getattr(user, "is_staff", False):
        return text
    return strip_host_paths(text) if user.pk in set(owner_ids) else ""
