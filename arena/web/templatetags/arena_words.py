"""Template filters that put the arena's stored codes into the reader's words (``{% load arena_words %}``)."""

from __future__ import annotations

from django import template

from arena.bots.languages import language_name
from arena.matches.presets import preset_name
from arena.matches.replay import reason_text

register = template.Library()


@register.filter
def reason(code: str) -> str:
    """A game's end reason (``timeout``, ``pickup_limit``...) in the active language."""
    return reason_text(code)


@register.filter
def preset(code: str) -> str:
    """A rule preset's name (``classic``, ``transfer``...) in the active language."""
    return preset_name(code)


@register.filter
def language(code: str) -> str:
    """A bot's language (``typescript``, ``cpp``, ``command``...) as the pages name it."""
    return language_name(code)
