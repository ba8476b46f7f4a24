"""The translation catalogs (``arena/locale``): find what is stale, and compile them.

``makemessages`` is run into a copy of the catalogs with ``--no-location --no-obsolete`` (so the comparison
does not move with line numbers), and the msgids found in the code are compared with the committed ones:
a string added to the code but not to the catalogs, or one left in a catalog after the code dropped it,
makes the catalogs stale. ``msgfmt`` (as ``compilemessages``) turns the committed ``.po`` files into the ``.mo`` files
Django reads; they are built at setup (``durak-arena``, the Docker image, CI), never committed.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.test.utils import override_settings

DOMAINS = ("django", "djangojs")
IGNORE = [".venv", "vendor", "node_modules", "tests", "docs", "build", "var", "bots_sdk", "worker", "proto"]
"""Folders ``makemessages`` skips: the arena's own code is what the catalogs translate."""
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_ENTRY = re.compile(
    rf'^(msgctxt "(?P<ctx>(?:[^"\\]|\\.)*)"\n)?msgid "(?P<id>(?:[^"\\]|\\.)*)"\n(?P<more>(?:{_QUOTED}\n)*)', re.M
)


def locale_dir() -> Path:
    return Path(settings.LOCALE_PATHS[0])


def languages() -> list[str]:
    """The languages that have catalogs: every one the site offers but the source language."""
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def msgids(po: Path) -> set[str]:
    """The ``(context, msgid)`` keys of a ``.po`` file, continuation lines joined, the header left out."""
    keys = set()
    for match in _ENTRY.finditer(po.read_text(encoding="utf-8")):
        text = match["id"] + "".join(line[1:-1] for line in match["more"].splitlines())
        if text:
            keys.add(f"{match['ctx'] or ''}\x04{text}")
    return keys


def stale() -> list[str]:
    """What ``makemessages`` would change in the catalogs' msgids: one line per catalog that differs."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "locale"
        shutil.copytree(locale_dir(), copy)
        with override_settings(LOCALE_PATHS=[copy]), contextlib.chdir(settings.BASE_DIR):
            for domain in DOMAINS:
                call_command("makemessages", locale=languages(), domain=domain, ignore_patterns=IGNORE,
                             no_location=True, no_obsolete=True, verbosity=0,
                             extensions=["js"] if domain == "djangojs" else ["html", "txt", "py"])
        for language in languages():
            for domain in DOMAINS:
                name = f"{language}/LC_MESSAGES/{domain}.po"
                committed, fresh = locale_dir() / name, copy / name
                have = msgids(committed) if committed.exists() else set()
                want = msgids(fresh) if fresh.exists() else set()
                if have != want:
                    missing = sorted(k.replace("\x04", " | ") for k in want - have)[:5]
                    extra = sorted(k.replace("\x04", " | ") for k in have - want)[:5]
                    problems.append(f"{name}: {len(want - have)} new in the code {missing}, "
                                    f"{len(have - want)} no longer in it {extra}")
    return problems


def compile_catalogs() -> None:
    """Build the ``.mo`` files from the committed ``.po`` files with GNU gettext's ``msgfmt`` (what
    ``compilemessages`` runs), for our catalogs only: an installed arena must not walk its site-packages."""
    for po in sorted(locale_dir().glob("*/LC_MESSAGES/*.po")):
        subprocess.run(["msgfmt", "--check", "-o", str(po.with_suffix(".mo")), str(po)], check=True)


def catalogs_compiled() -> bool:
    """Whether every catalog has a ``.mo`` at least as new as its ``.po``."""
    for po in locale_dir().glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            return False
    return True
