"""The API's 422 answers (a request whose fields do not validate) in the language the client asked for.

django-ninja answers ``{"detail": [{"type", "loc", "msg", "ctx"?}, ...]}`` with pydantic's English ``msg``. Each
common pydantic error ``type`` is worded here from its ``ctx`` (a limit, the expected values); ``type``, ``loc``
and ``ctx`` stay as pydantic wrote them for programs, and a type not listed keeps pydantic's ``msg``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

MESSAGES: Mapping[str, Promise] = {
    "missing": _("This field is required"),
    "extra_forbidden": _("This field is not expected"),
    "string_type": _("Should be a string"),
    "int_type": _("Should be a whole number"),
    "int_parsing": _("Should be a whole number"),
    "int_from_float": _("Should be a whole number, without a fractional part"),
    "float_type": _("Should be a number"),
    "float_parsing": _("Should be a number"),
    "bool_type": _("Should be true or false"),
    "bool_parsing": _("Should be true or false"),
    "list_type": _("Should be a list"),
    "dict_type": _("Should be an object"),
    "model_type": _("Should be an object"),
    "model_attributes_type": _("Should be an object"),
    "json_invalid": _("Not valid JSON: %(error)s"),
    "json_type": _("Should be JSON"),
    "literal_error": _("Should be %(expected)s"),
    "enum": _("Should be %(expected)s"),
    "string_pattern_mismatch": _("Should match the pattern %(pattern)s"),
    "greater_than": _("Should be greater than %(gt)s"),
    "greater_than_equal": _("Should be at least %(ge)s"),
    "less_than": _("Should be less than %(lt)s"),
    "less_than_equal": _("Should be at most %(le)s"),
    "datetime_parsing": _("Should be a date and time (ISO 8601)"),
    "datetime_from_date_parsing": _("Should be a date and time (ISO 8601)"),
    "date_parsing": _("Should be a date (YYYY-MM-DD)"),
    "date_from_datetime_parsing": _("Should be a date (YYYY-MM-DD)"),
}
"""pydantic's error types as the reader reads them; a ``%(name)s`` is the error's ``ctx`` entry of that name."""


def _counted(kind: str, ctx: Mapping[str, Any]) -> str | None:
    """Length limits, with the reader's plural forms (characters of a string, items of a list)."""
    if kind == "string_too_long":
        count = int(ctx["max_length"])
        return ngettext("Should have at most %(count)d character", "Should have at most %(count)d characters",
                        count) % {"count": count}
    if kind == "string_too_short":
        count = int(ctx["min_length"])
        return ngettext("Should have at least %(count)d character", "Should have at least %(count)d characters",
                        count) % {"count": count}
    if kind == "too_long":
        count = int(ctx["max_length"])
        return ngettext("Should have at most %(count)d item", "Should have at most %(count)d items",
                        count) % {"count": count}
    if kind == "too_short":
        count = int(ctx["min_length"])
        return ngettext("Should have at least %(count)d item", "Should have at least %(count)d items",
                        count) % {"count": count}
    return None


def _message(error: Mapping[str, Any]) -> str:
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    try:
        counted = _counted(kind, ctx)
        if counted is not None:
            return counted
        if kind in MESSAGES:
            return str(MESSAGES[kind] % {key: str(value) for key, value in ctx.items()})
    except (KeyError, TypeError, ValueError):  # a ctx not as pydantic writes it: keep pydantic's words
        pass
    return str(error.get("msg", ""))


def worded_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """ninja's validation errors, each ``msg`` in the active language."""
    return [{**error, "msg": _message(error)} for error in errors]
