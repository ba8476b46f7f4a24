"""The bots' languages as the pages show them, in the reader's language (the code stays in URLs and the API).

The codes are ``bot.toml``'s ``language`` (bots_sdk/botdir.py: ``LANGUAGE_NAMES``) plus ``reference`` for the
built-in bots; a programming language keeps its own name in every language of the site.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

NAMES: dict[str, str | Promise] = {
    "python": "Python",
    "javascript": "JavaScript",
    "typescript": "TypeScript",
    "go": "Go",
    "cpp": "C++",
    "java": "Java",
    "command": pgettext_lazy("bot language", "own command"),
    "reference": pgettext_lazy("bot language", "built-in"),
}


def language_name(code: str) -> str:
    """``"cpp"`` as the pages name it (``"C++"``; ``"command"``: ``"своя команда"``); an unknown code as it is."""
    return str(NAMES.get(code, code))
