"""Formatting of rates and intervals on the statistics page (one decimal of a percent, en dash ranges)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def pct(value: float | None, digits: int = 1) -> str:
    """``0.3125`` -> ``"31.3 %"``; missing -> ``"–"``."""
    if value is None:
        return "–"
    return f"{100 * value:.{digits}f} %"


@register.filter
def signed_pct(value: float | None) -> str:
    """A gap in percentage points: ``-0.021`` -> ``"−2.1"``."""
    if value is None:
        return "–"
    return f"{100 * value:+.1f}".replace("-", "−")


@register.filter
def span(low: float | None, high: float | None) -> str:
    """An interval of rates in percent: ``"28.1–34.5"``."""
    if low is None or high is None:
        return "–"
    return f"{100 * low:.1f}–{100 * high:.1f}"


@register.filter
def signed_span(low: float | None, high: float | None) -> str:
    """An interval of gaps in percentage points: ``"−3.0 to +1.2"``."""
    if low is None or high is None:
        return "–"
    return f"{100 * low:+.1f} to {100 * high:+.1f}".replace("-", "−")


@register.filter
def signed(value: float | None, digits: int = 1) -> str:
    """A signed difference: ``-22.83`` -> ``"−22.8"``."""
    if value is None:
        return "–"
    return f"{value:+.{digits}f}".replace("-", "−")
