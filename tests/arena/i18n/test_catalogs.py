"""The Russian and German catalogs are complete: no empty or fuzzy entry.

That none lags behind the code is CI's ``manage.py catalogs --check`` (makemessages into a copy).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.ops.messages import DOMAINS, languages, locale_dir


def entries(po: Path) -> list[dict[str, str]]:
    """Each entry of a ``.po`` file: its flags, msgid and msgstr (plural forms joined by ``|``), the header left out.

    Continuation lines are joined; a plural entry's msgstr is empty when any one form is.
    """
    found = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.strip().splitlines() if line]
        flags = " ".join(line[2:].strip() for line in lines if line.startswith("#,"))
        fields: dict[str, list[str]] = {}
        key = ""
        for line in lines:
            if line.startswith("#"):
                continue
            if line.startswith('"'):
                fields[key][-1] += line[1:-1]
                continue
            key, _, value = line.partition(" ")
            key = "msgstr" if key.startswith("msgstr[") else key
            fields.setdefault(key, []).append(value[1:-1])
        if "msgid" in fields and fields["msgid"][0]:
            strs = fields.get("msgstr", [""])
            found.append({"flags": flags, "msgid": fields["msgid"][0],
                          "msgstr": "" if any(not s for s in strs) else "|".join(strs)})
    return found


@pytest.mark.parametrize("language", languages())
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_and_none_is_fuzzy(language: str, domain: str) -> None:
    po = locale_dir() / language / "LC_MESSAGES" / f"{domain}.po"
    items = entries(po)
    assert len(items) > 20, f"{po}: only {len(items)} entries"
    empty = [e["msgid"] for e in items if not e["msgstr"]]
    fuzzy = [e["msgid"] for e in items if "fuzzy" in e["flags"]]
    assert not empty, f"{po}: {len(empty)} untranslated, e.g. {empty[:5]}"
    assert not fuzzy, f"{po}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


def test_the_parser_sees_an_empty_and_a_fuzzy_entry(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: ru\\n"\n\n#, fuzzy\nmsgid "Bots"\nmsgstr "Боты"\n\n'
                  'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "a"\nmsgstr[1] ""\nmsgstr[2] "c"\n\n'
                  'msgid "Ladders"\nmsgstr ""\n"Рейтинги"\n', encoding="utf-8")
    found = {e["msgid"]: e for e in entries(po)}
    assert found["Bots"]["flags"] == "fuzzy"
    assert found["one"]["msgstr"] == ""
    assert found["Ladders"]["msgstr"] == "Рейтинги"

