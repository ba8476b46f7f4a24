"""A bot on disk (docs/authors.md, ``bot.toml``): a folder with a ``bot.toml``, or a reference bot's name.

``bot.toml`` names the bot, its language (``python``: a file that calls
``bots_sdk.serve()``; ``command``: an argv list) and its entry. Errors name the
file and the field, since this is the first thing a new author gets wrong.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib.util
import inspect
import re
import sys
import tomllib
from pathlib import Path

from bots_sdk.bot import Bot
from bots_sdk.bots import REFERENCE_BOTS, make_bot

NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MANIFEST = "bot.toml"
FOLDER_IGNORED = frozenset({"__pycache__", ".git", ".hg", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache"})
"""Folders that are never part of a bot: caches, version control, a local virtualenv."""
MANIFEST_KEYS = ("name", "version", "language", "entry", "requirements")
"""Every key ``bot.toml`` may hold (``requirements`` is read by the arena's build step); any other is a typo."""


class BotSpecError(ValueError):
    """A bot argument or manifest that does not describe a runnable bot."""


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """Where a bot comes from and how to start it."""

    name: str
    version: str
    language: str
    """``reference``, ``python`` or ``command``."""
    entry: tuple[str, ...]
    """The python file, or the argv of a command bot; empty for a reference bot."""
    folder: Path | None = None
    venv: Path | None = None
    """A built environment for the bot (worker/build.py), used instead of the shared runtime."""

    @property
    def in_process(self) -> bool:
        """Whether the bot can run inside this process (reference and python bots can)."""
        return self.language in ("reference", "python")


def load_spec(argument: str) -> BotSpec:
    """A reference bot name (``random``) or a bot folder (``./mybot``, with a ``bot.toml``)."""
    if argument in REFERENCE_BOTS and not Path(argument).is_dir():
        return BotSpec(argument, "1", "reference", ())
    folder = Path(argument)
    manifest = folder / MANIFEST
    if not folder.is_dir():
        known = ", ".join(sorted(REFERENCE_BOTS))
        raise BotSpecError(f"{argument!r} is neither a reference bot ({known}) nor a bot folder")
    if not manifest.is_file():
        raise BotSpecError(f"{folder}: no {MANIFEST} (create one with `durak new NAME`)")
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BotSpecError(f"{manifest}: not valid TOML: {error}") from None
    _check_keys(manifest, data)

    def text(field: str, default: str | None = None) -> str:
        value = data.get(field, default)
        if not isinstance(value, str) or not value:
            raise BotSpecError(f"{manifest}: {field}: {value!r} is not a non-empty string")
        return value

    name = text("name")
    if not NAME_PATTERN.match(name):
        raise BotSpecError(f"{manifest}: name: {name!r} may hold only letters, digits, - and _")
    version = str(data.get("version", "1"))
    language = text("language", "python")
    if language == "python":
        entry_file = text("entry", "bot.py")
        if not (folder / entry_file).resolve().is_relative_to(folder.resolve()):
            raise BotSpecError(f"{manifest}: entry: {entry_file!r} lies outside the bot folder")
        if not (folder / entry_file).is_file():
            raise BotSpecError(f"{manifest}: entry: {entry_file!r} does not exist in {folder}")
        entry: tuple[str, ...] = (entry_file,)
    elif language == "command":
        argv = data.get("entry")
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) and a for a in argv):
            raise BotSpecError(f"{manifest}: entry: a command bot needs an argv list, e.g. [\"node\", \"bot.js\"]")
        entry = tuple(argv)
    else:
        raise BotSpecError(f"{manifest}: language: {language!r} is not 'python' or 'command'")
    return BotSpec(name, version, language, entry, folder.resolve())


def _check_keys(manifest: Path, data: dict[str, object]) -> None:
    """Refuse a key ``bot.toml`` does not know, naming the closest known one: a misspelt ``requirments``
    would otherwise build a bot without its requirements and fail far from the cause."""
    for key in data:
        if key in MANIFEST_KEYS:
            continue
        close = difflib.get_close_matches(key, MANIFEST_KEYS, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"the known keys are {', '.join(MANIFEST_KEYS)}"
        raise BotSpecError(f"{manifest}: unknown key {key!r}; {hint}")


def load_bot(spec: BotSpec, seed: int | None = None) -> Bot:
    """An in-process instance: a reference bot, or the one ``Bot`` subclass a python bot's entry defines."""
    if spec.language == "reference":
        return make_bot(spec.name, seed)
    if spec.language != "python" or spec.folder is None:
        raise BotSpecError(f"{spec.name}: a {spec.language} bot runs only as its own process (use --grpc)")
    path = spec.folder / spec.entry[0]
    module_name = f"durak_bot_{spec.name.replace('-', '_')}_{abs(hash(path))}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise BotSpecError(f"{path}: cannot be imported")
    module = importlib.util.module_from_spec(loader_spec)
    sys.path.insert(0, str(spec.folder))
    try:
        loader_spec.loader.exec_module(module)
    except Exception as error:
        raise BotSpecError(f"{path}: importing it failed: {type(error).__name__}: {error}") from error
    finally:
        sys.path.remove(str(spec.folder))
    classes = [
        obj for obj in vars(module).values()
        if inspect.isclass(obj) and issubclass(obj, Bot) and obj is not Bot and obj.__module__ == module_name
    ]
    if len(classes) != 1:
        found = ", ".join(c.__name__ for c in classes) or "none"
        raise BotSpecError(f"{path}: define exactly one Bot subclass to play in-process (found {found})")
    try:
        bot = classes[0]()
    except TypeError as error:
        raise BotSpecError(f"{path}: {classes[0].__name__}() must work without arguments: {error}") from None
    if bot.name == "bot":
        bot.name = spec.name  # type: ignore[misc]
    return bot
