"""``durak new NAME``: scaffold a bot folder (bot.py, bot.toml, a README and a test)."""

from __future__ import annotations

import argparse
import string
from importlib import resources
from pathlib import Path
from typing import Any

from bots_sdk.botdir import NAME_PATTERN

FILES = ("bot.py", "bot.toml", "README.md", "test_bot.py")


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "new", help="scaffold a new bot folder", description="Create folder NAME with a working bot to edit."
    )
    parser.add_argument("name", metavar="NAME", help="the bot's name: a Python identifier (letters, digits, _)")
    parser.add_argument("--dir", type=Path, default=Path("."), help="where to create the folder (default .)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name: str = args.name
    if not name.isidentifier() or not NAME_PATTERN.match(name):
        raise ValueError(f"{name!r} is not a valid bot name: use a Python identifier such as my_bot")
    folder = args.dir / name
    if folder.exists():
        raise ValueError(f"{folder} already exists; pick another name or remove it")
    values = {"name": name, "folder": str(folder), "class_name": _class_name(name)}
    templates = resources.files("bots_sdk.templates").joinpath("newbot")
    folder.mkdir(parents=True)
    for file in FILES:
        text = templates.joinpath(f"{file}.txt").read_text(encoding="utf-8")
        (folder / file).write_text(string.Template(text).substitute(values), encoding="utf-8")
    print(f"created {folder}/ with {', '.join(FILES)}")
    print(f"next: durak play {folder} random   then: durak check {folder}")
    return 0


def _class_name(name: str) -> str:
    """``my_bot`` -> ``MyBot``; names that would not make a class get ``Bot`` added."""
    words = [w for w in name.split("_") if w]
    candidate = "".join(w[:1].upper() + w[1:] for w in words) or "My"
    if not candidate.endswith("Bot"):
        candidate += "Bot"
    return candidate if candidate.isidentifier() else f"Bot{candidate}"
