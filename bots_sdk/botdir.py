"""A bot on disk (docs/authors.md, ``bot.toml``): a folder with a ``bot.toml``, or a reference bot's name.

``bot.toml`` names the bot, its language and its entry: ``python`` (a file
that calls ``bots_sdk.serve()``), ``command`` (an argv list), or one of the
languages the arena builds (``LANGUAGES``: a file the bot's run argv names, which
for a compiled language exists only once built). Errors name the file and the
field, since this is the first thing a new author gets wrong.

A built bot in the arena's store (``<store>/<name>/<version>-<hash>/``, as
``python -m worker.build`` prints) is accepted too: its ``src/`` is the folder.
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
STORED_SRC = "src"
"""The folder of a built bot's store entry that holds the bot as it runs (worker/build.py)."""
"""Every key ``bot.toml`` may hold (``requirements`` is read by the arena's build step); any other is a typo."""


class BotSpecError(ValueError):
    """A bot argument or manifest that does not describe a runnable bot."""


@dataclasses.dataclass(frozen=True)
class Language:
    """How a bot of a language the arena builds starts, from its folder once built.

    The build itself (fetching dependencies, compiling in the sandbox) is the arena's recipe for the same
    name, in worker/builds/languages.py; this half lives in the SDK because ``durak check`` and
    ``durak play`` start bots too."""

    name: str
    """``language`` in ``bot.toml``."""
    entry: str
    """The default ``entry``: a file relative to the bot folder."""
    run: tuple[str, ...]
    """The argv that starts the bot, run in its folder; ``{entry}`` stands for the entry."""
    built: bool
    """Whether the entry is made by the build (and so absent from the sources an author uploads)."""
    build_hint: str
    """How an author builds the folder by hand, for the error when the entry is missing."""
    outputs: tuple[str, ...] = ()
    """Top-level folders the build makes: never uploaded (``durak submit``), copied (``durak new``) or built from."""
    required: tuple[str, ...] = ()
    """Files an upload must hold (a lock file: the arena installs exactly what it names)."""
    required_hint: str = ""
    """How an author makes them, for the error when one is missing."""

    def argv(self, entry: str) -> tuple[str, ...]:
        return tuple(part.replace("{entry}", entry) for part in self.run)


NPM_FILES = ("package.json", "package-lock.json")
NPM_HINT = "`npm install` writes the lock file"
LANGUAGES: dict[str, Language] = {
    language.name: language for language in (
        Language("javascript", "bot.js", ("node", "{entry}"), built=False, build_hint="npm ci",
                 outputs=("node_modules",), required=NPM_FILES, required_hint=NPM_HINT),
        Language("typescript", "dist/bot.js", ("node", "{entry}"), built=True, build_hint="npm ci && npm run build",
                 outputs=("node_modules", "dist"), required=NPM_FILES, required_hint=NPM_HINT),
        # The compiled kits: their Makefile builds build/durak-bot with Debian's toolchain and gRPC library.
        *(Language(name, "build/durak-bot", ("./{entry}",), built=True, build_hint="make", outputs=("build",))
          for name in ("go", "cpp", "java")),
    )
}
"""The languages the arena builds, besides ``python`` and ``command`` (docs/authors.md, "Languages")."""
LANGUAGE_NAMES = ("python", *LANGUAGES, "command")
"""Every value ``language`` may take in ``bot.toml``."""


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """Where a bot comes from and how to start it."""

    name: str
    version: str
    language: str
    """``reference``, or one of ``LANGUAGE_NAMES``."""
    entry: tuple[str, ...]
    """The python file, or the argv of any other bot (run in its folder); empty for a reference bot."""
    folder: Path | None = None
    venv: Path | None = None
    """A built environment for the bot (worker/build.py), used instead of the shared runtime."""

    @property
    def in_process(self) -> bool:
        """Whether the bot can run inside this process (reference and python bots can)."""
        return self.language in ("reference", "python")


def language_of(folder: Path) -> Language | None:
    """The built language ``folder``'s ``bot.toml`` names, if any (None for python, command, or no valid manifest)."""
    try:
        language = tomllib.loads((folder / MANIFEST).read_text(encoding="utf-8")).get("language")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return LANGUAGES.get(language) if isinstance(language, str) else None


def left_out(folder: Path) -> frozenset[str]:
    """The top-level names of ``folder`` that are not part of the bot: caches, version control, build outputs."""
    language = language_of(folder)
    return FOLDER_IGNORED | frozenset(language.outputs if language is not None else ())


def load_spec(argument: str, *, built: bool = True) -> BotSpec:
    """A reference bot name (``random``), a bot folder (``./mybot``, with a ``bot.toml``) or a built bot's store entry.

    ``built=False`` accepts the sources of a compiled bot, whose entry the build has yet to make (the arena
    checks an upload so, before building it)."""
    if argument in REFERENCE_BOTS and not Path(argument).is_dir():
        return BotSpec(argument, "1", "reference", ())
    folder = Path(argument)
    if not (folder / MANIFEST).is_file() and (folder / STORED_SRC / MANIFEST).is_file():
        folder = folder / STORED_SRC
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
        entry: tuple[str, ...] = (_entry_file(folder, manifest, text("entry", "bot.py")),)
    elif language == "command":
        argv = data.get("entry")
        if not isinstance(argv, list) or not argv or not all(isinstance(a, str) and a for a in argv):
            raise BotSpecError(f"{manifest}: entry: a command bot needs an argv list, e.g. [\"node\", \"bot.js\"]")
        entry = tuple(argv)
    elif language in LANGUAGES:
        kind = LANGUAGES[language]
        hint = (f" (build it first: `{kind.build_hint}`, or as the arena does: `python -m worker.build {folder} "
                "--store DIR`)") if kind.built else ""
        entry_file = _entry_file(folder, manifest, text("entry", kind.entry), built or not kind.built, hint)
        entry = kind.argv(entry_file)
    else:
        raise BotSpecError(f"{manifest}: language: {language!r} is not one of {', '.join(LANGUAGE_NAMES)}")
    return BotSpec(name, version, language, entry, folder.resolve())


def _entry_file(folder: Path, manifest: Path, entry: str, must_exist: bool = True, hint: str = "") -> str:
    """``entry``, checked to lie inside ``folder`` (and to exist there, unless a build is yet to make it)."""
    if Path(entry).is_absolute() or not (folder / entry).resolve().is_relative_to(folder.resolve()):
        raise BotSpecError(f"{manifest}: entry: {entry!r} lies outside the bot folder")
    if must_exist and not (folder / entry).is_file():
        raise BotSpecError(f"{manifest}: entry: {entry!r} does not exist in {folder}{hint}")
    return entry


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
