"""Formatting of rates and intervals on the statistics page (one decimal of a percent, en dash ranges), with the
reader's decimal mark (``31.3`` in English, ``31,3`` in Russian and German)."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format as _number_format
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def pct(value: float | None, digits: int = 1) -> str:
    """``0.3125`` -> ``"31.3 %"``; missing -> ``"–"``."""
    if value is None:
        return "–"
    return f"{number_format(100 * value, digits)} %"


@register.filter
def signed_pct(value: float | None) -> str:
    """A gap in percentage points: ``-0.021`` -> ``"−2.1"``."""
    if value is None:
        return "–"
    return _signed_number(100 * value, 1)


@register.filter
def span(low: float | None, high: float | None) -> str:
    """An interval of rates in percent: ``"28.1–34.5"``."""
    if low is None or high is None:
        return "–"
    return f"{number_format(100 * low, 1)}–{number_format(100 * high, 1)}"


@register.filter
def signed_span(low: float | None, high: float | None) -> str:
    """An interval of gaps in percentage points: ``"−3.0 to +1.2"``."""
    if low is None or high is None:
        return "–"
    return _("%(low)s to %(high)s") % {"low": _signed_number(100 * low, 1), "high": _signed_number(100 * high, 1)}


@register.filter
def signed(value: float | None, digits: int = 1) -> str:
    """A signed difference: ``-22.83`` -> ``"−22.8"``."""
    if value is None:
        return "–"
    return _signed_number(value, digits)


def _signed_number(value: float, digits: int) -> str:
    """``-22.83`` -> ``"−22.8"`` (a true minus sign), ``0.5`` -> ``"+0.5"``, with the reader's decimal mark."""
    text = number_format(abs(value), digits)
    return ("−" if f"{value:.{digits}f}".startswith("-") else "+") + text


def number_format(value: float, digits: int) -> str:
    """Django's ``number_format`` cuts a float's digits off; round first, as the figures always were."""
    return _number_format(round(value, digits), digits)
