"""Bot descriptions are the author's Markdown: rendered, then cleaned to a few harmless tags.

An author writes ``uses `minimax` to depth 3``; a visitor should read code, not backticks, and no
description may carry a script, a style or an event handler onto the page (nh3 keeps only the tags and
attributes below, and links only to http, https and mail addresses).
"""

from __future__ import annotations

import html

import markdown as md
import nh3
from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

TAGS = {"p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "a", "blockquote"}
ATTRIBUTES = {"a": {"href", "title"}}
URL_SCHEMES = {"http", "https", "mailto"}


def _render(text: str) -> str:
    """Markdown to HTML, with any raw HTML in the text shown as the text it is (escaped), not dropped."""
    converter = md.Markdown(output_format="html")
    converter.preprocessors.deregister("html_block")
    converter.inlinePatterns.deregister("html")
    return converter.convert(text or "")


@register.filter(name="markdown")
def markdown_html(text: str) -> SafeString:
    """The description as safe HTML (headings and images come out as their text)."""
    return mark_safe(nh3.clean(_render(text), tags=TAGS, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES,
                               link_rel="nofollow noopener noreferrer"))


@register.filter(name="markdown_text")
def markdown_text(text: str) -> str:
    """The description's words alone, for a one-line summary (the template escapes them)."""
    return " ".join(html.unescape(nh3.clean(_render(text), tags=set())).split())
