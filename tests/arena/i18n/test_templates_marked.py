"""Every template's user-facing text is marked for translation.

Each template is cut into Django's tokens; everything inside ``{% blocktranslate %}``, a comment or a
``<script>``/``<style>``/``<code>``/``<pre>`` is not the reader's prose, and every other tag or variable
stands for itself. What remains of the HTML (text between tags, and the ``title``, ``aria-label``,
``placeholder`` and ``alt`` attributes) may hold no word outside a small allow-list: brand names,
abbreviations and symbols that read the same in every language.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

ALLOWED = {
    "Durak", "Arena", "API", "JSON", "Elo", "LLR", "LOS", "SPRT", "SE", "Bu", "MBu", "SB", "DE", "FP", "H0", "H1",
    "elo0", "elo1", "v", "p", "ms", "s", "h", "α", "β", "ρ", "n", "x", "UTC",
    "Wilson", "Buchholz", "Sonneborn", "Berger",
}
"""Words that are not translated: the brand, units and the names and abbreviations of statistics."""
ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
SKIP_ELEMENTS = {"script", "style", "code", "pre", "svg"}
WORD = re.compile(r"[^\W\d_]+[0-9]*")
HOLE = " "
"""What a tag, a variable or a translated block leaves in the HTML: a space keeps `<tr{% if %} class=...>` a tag."""

TEMPLATES = sorted(p for p in (Path(settings.BASE_DIR) / "arena").glob("*/templates/**/*.html"))


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.extend(value for name, value in attrs if name in ATTRIBUTES and value)
        if tag in SKIP_ELEMENTS:
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP_ELEMENTS and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.found.append(data)


def unmarked(source: str) -> list[str]:
    """The words of ``source`` (a template) that a reader would see untranslated."""
    kept: list[str] = []
    depth = 0
    for token in Lexer(source).tokenize():
        if token.token_type is TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if name in ("blocktranslate", "blocktrans", "comment"):
                depth += 1
            elif name in ("endblocktranslate", "endblocktrans", "endcomment"):
                depth -= 1
            kept.append(HOLE)
        elif token.token_type is TokenType.TEXT and depth == 0:
            kept.append(token.contents)
        else:
            kept.append(HOLE)
    parser = _Text()
    parser.feed("".join(kept))
    parser.close()
    words = [w for text in parser.found for w in WORD.findall(text)]
    return [w for w in words if w not in ALLOWED]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_template_text_is_marked(path: Path) -> None:
    words = unmarked(path.read_text(encoding="utf-8"))
    assert not words, f"{path}: text not marked for translation: {' '.join(words[:12])}"


def test_the_check_finds_plain_text_and_an_unmarked_title() -> None:
    source = ('{% load i18n %}<h1>{% translate "Bots" %}</h1><p title="step back">{% blocktranslate %}x {{ y }}'
              '{% endblocktranslate %} Ladders</p><script>const a = "b";</script><code>durak submit</code>')
    assert unmarked(source) == ["step", "back", "Ladders"]
