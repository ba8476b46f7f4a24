"""``durak new NAME [--lang LANG]``: scaffold a bot folder.

Python (the default) comes from the template ``bots_sdk/templates/newbot`` (bot.py, bot.toml, a README and a
test). Every other language is its starter kit, ``bots_sdk/examples/LANG/``, copied without its build outputs
(``node_modules``...), with the kit's bot name (the ``name`` of its ``bot.toml``) replaced by NAME wherever
it occurs: the kit is the one source of both the example and the scaffold.
"""

from __future__ import annotations

import argparse
import os
import shutil
import string
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from bots_sdk.botdir import FOLDER_IGNORED, LANGUAGES, MANIFEST, NAME_PATTERN, left_out

FILES = ("bot.py", "bot.toml", "README.md", "test_bot.py")


def kits() -> dict[str, Path]:
    """The starter kits shipped with the SDK, by language."""
    with resources.as_file(resources.files("bots_sdk") / "examples") as folder:
        return {kit.name: kit for kit in sorted(Path(folder).iterdir()) if (kit / MANIFEST).is_file()}


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "new", help="scaffold a new bot folder", description="Create folder NAME with a working bot to edit."
    )
    parser.add_argument("name", metavar="NAME", help="the bot's name: a Python identifier (letters, digits, _)")
    parser.add_argument("--lang", default="python", choices=["python", *kits()],
                        help="the bot's language (default python); the others are the starter kits of "
                             "bots_sdk/examples/")
    parser.add_argument("--dir", type=Path, default=Path("."), help="where to create the folder (default .)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name: str = args.name
    if not name.isidentifier() or not NAME_PATTERN.match(name):
        raise ValueError(f"{name!r} is not a valid bot name: use a Python identifier such as my_bot")
    folder = args.dir / name
    if folder.exists():
        raise ValueError(f"{folder} already exists; pick another name or remove it")
    language = getattr(args, "lang", "python")
    if language == "python":
        _python(name, folder)
        print(f"next: durak play {folder} random   then: durak check {folder}")
        return 0
    copied = copy_kit(kits()[language], folder, name)
    print(f"created {folder}/ ({language}, {copied} files from the starter kit; its README.md says more)")
    hint = LANGUAGES[language].build_hint if language in LANGUAGES else ""
    build = f"(cd {folder} && {hint})   then: " if hint else ""
    print(f"next: {build}durak check {folder}   then: durak submit {folder}")
    return 0


def _python(name: str, folder: Path) -> None:
    values = {"name": name, "folder": str(folder), "class_name": _class_name(name)}
    templates = resources.files("bots_sdk.templates").joinpath("newbot")
    folder.mkdir(parents=True)
    for file in FILES:
        text = templates.joinpath(f"{file}.txt").read_text(encoding="utf-8")
        (folder / file).write_text(string.Template(text).substitute(values), encoding="utf-8")
    print(f"created {folder}/ with {', '.join(FILES)}")


def copy_kit(kit: Path, folder: Path, name: str) -> int:
    """Copy ``kit`` to the new ``folder`` (no caches, no build outputs), the kit's bot name made ``name``
    in every text file; returns the number of files."""
    kit_name = tomllib.loads((kit / MANIFEST).read_text(encoding="utf-8"))["name"]
    skipped = left_out(kit)
    count = 0
    for root, dirs, files in os.walk(kit):
        dirs[:] = sorted(d for d in dirs if d not in (skipped if Path(root) == kit else FOLDER_IGNORED))
        target = folder / Path(root).relative_to(kit)
        target.mkdir(parents=True)
        for file in sorted(files):
            source = Path(root) / file
            try:
                text = source.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                shutil.copyfile(source, target / file)
            else:
                (target / file).write_text(text.replace(kit_name, name), encoding="utf-8")
            count += 1
    return count


def _class_name(name: str) -> str:
    """``my_bot`` -> ``MyBot``; names that would not make a class get ``Bot`` added."""
    words = [w for w in name.split("_") if w]
    candidate = "".join(w[:1].upper() + w[1:] for w in words) or "My"
    if not candidate.endswith("Bot"):
        candidate += "Bot"
    return candidate if candidate.isidentifier() else f"Bot{candidate}"
