"""The rule presets' names as the pages show them, in the reader's language (the code stays in URLs and records)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

NAMES: dict[str, Promise] = {
    "classic": pgettext_lazy("preset", "classic"),
    "transfer": pgettext_lazy("preset", "transfer"),
    "kawu": pgettext_lazy("preset", "kawu"),
    "table": pgettext_lazy("preset", "table"),
    "house": pgettext_lazy("preset", "house"),
    "pagat": pgettext_lazy("preset", "pagat"),
    "pagat-pairs": pgettext_lazy("preset", "pagat-pairs"),
    "pagat-trios": pgettext_lazy("preset", "pagat-trios"),
}


def preset_name(code: str) -> str:
    """``"transfer"`` as the reader calls it (``"переводной"``, ``"Weiterschieben"``); an unknown code as it is."""
    return str(NAMES.get(code, code))
