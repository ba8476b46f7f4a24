"""Why a bot could not be built, in the reader's language, recognised from the English the worker wrote.

A build error (``worker.builds.BuildError``) is written by the worker and the SDK, which have no Django: the
archive's checks (``worker/builds/archive.py``), the install and build steps (``worker/builds/``,
``worker/build.py``) and ``bot.toml``'s checks (``bots_sdk/botdir.py``). The upload form, the API and the version's
page word it when they show it, through the machinery of ``arena.recognised``: paths, file names, what the author
wrote and the tools' own output (pip's, npm's, a compiler's) are kept as they came.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from arena.recognised import Parameters, decimal, shapes, worded

_W = r"(?P<where>.+?)"
_MB = r"\d+(?:\.\d+)?"
_QUOTED = r"(?:'.*'|\".*\")"

LABELS = shapes([
    (rf"archive entry (?P<name>{_QUOTED})", _("archive entry %(name)s")),
    (rf"bot folder entry (?P<name>{_QUOTED})", _("bot folder entry %(name)s")),
    (rf"bot folder (?P<folder>.+) entry (?P<name>{_QUOTED})", _("bot folder %(folder)s, entry %(name)s")),
    (r"bot folder (?P<folder>.+)", _("bot folder %(folder)s")),
    (r"archive", _("archive")),
    (r"venv", _("the bot's environment (venv)")),
])
"""Where a message points, when the worker names it in words rather than by a path."""

KINDS = shapes([
    (r"symbolic link", _("symbolic link")),
    (r"device file", _("device file")),
    (r"fifo", _("named pipe (fifo)")),
    (r"socket", _("socket")),
    (r"file type (?P<type>'.')", _("file type %(type)s")),
    (r"a symbolic link", _("a symbolic link")),
    (r"a special file", _("a special file")),
])
"""Kinds of file a bot may not hold."""


TOML = shapes([
    (r"Invalid value", _("an invalid value")),
    (r"Invalid statement", _("an invalid statement")),
    (r"Unterminated string", _("an unterminated string")),
    (r"Unclosed array", _("an unclosed array")),
    (r"Unclosed inline table", _("an unclosed inline table")),
    (r"Cannot overwrite a value", _("a value is set twice")),
    (r"Cannot declare (?P<key>.+) twice", _("%(key)s is declared twice")),
    (r"Expected '=' after a key in a key/value pair", _("'=' expected after a key")),
    (r"Expected newline or end of document after a statement", _("a new line expected after a statement")),
    (r"Expected ']' at the end of a table declaration", _("']' expected at the end of a table's name")),
    (r"Expected (?P<what>'.*')", _("%(what)s expected")),
    (r"Invalid initial character for a key part", _("a key may not start with this character")),
    (r"(?:Illegal|Found invalid) character (?P<char>'.*'|\".*\")", _("an invalid character %(char)s")),
    (r"Unescaped '\\' in a string", _("an unescaped '\\' in a string")),
    (r"Duplicate inline table key (?P<key>.*)", _("the key %(key)s appears twice in an inline table")),
])
"""What Python's TOML parser says of a broken ``bot.toml`` (``tomllib``), the commonest of its messages."""

TOML_AT = shapes([
    (r"(?P<what>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)",
     _("%(what)s (line %(line)s, column %(column)s)")),
    (r"(?P<what>.*) \(at end of document\)", _("%(what)s (at the end of the file)")),
])
"""Where the parser stopped."""


def _toml(text: str) -> str:
    return worded(TOML_AT, text, {"what": lambda what: worded(TOML, what, {}) or what}) or text


def _label(text: str) -> str:
    return worded(LABELS, text, {}) or text


def _kind(text: str) -> str:
    return worded(KINDS, text, {}) or text


def _found(text: str) -> str:
    return str(_("nothing")) if text == "nothing" else text


PARAMETERS: Parameters = {
    "where": _label, "kind": _kind, "found": _found, "toml": _toml,
    "size": decimal, "limit": decimal, "runtime": decimal,
}

BUILD = shapes([
    # the archive's names and entries (worker/builds/archive.py)
    (rf"{_W}: NUL character in the path", _("%(where)s: a NUL character in the path")),
    (rf"{_W}: backslash in the path \(archives must use '/' between folders\)",
     _("%(where)s: a backslash in the path (archives must use '/' between folders)")),
    (rf"{_W}: absolute path", _("%(where)s: an absolute path")),
    (rf"{_W}: path leaves the bot folder", _("%(where)s: the path leaves the bot folder")),
    (rf"{_W}: '\.\.' is not allowed in a path", _("%(where)s: '..' is not allowed in a path")),
    (rf"{_W}: path is (?P<depth>\d+) levels deep \(limit (?P<limit>\d+)\)",
     _("%(where)s: the path is %(depth)s levels deep (the limit is %(limit)s)")),
    (rf"{_W}: a name longer than (?P<limit>\d+) bytes", _("%(where)s: a name longer than %(limit)s bytes")),
    (rf"{_W}: more than (?P<limit>\d+) entries \(at (?P<name>.*)\)",
     _("%(where)s: more than %(limit)s entries (at %(name)s)")),
    (rf"{_W}: more than (?P<limit>\d+) entries \((?P<count>\d+) in its directory\)",
     _("%(where)s: more than %(limit)s entries (%(count)s in its directory)")),
    (rf"{_W}: its folder (?P<folder>.*) is also a file in the archive",
     _("%(where)s: its folder %(folder)s is also a file in the archive")),
    (rf"{_W}: the path appears twice in the archive", _("%(where)s: the path appears twice in the archive")),
    (rf"{_W}: (?P<size>{_MB}) MB uncompressed, over the (?P<limit>{_MB}) MB limit for one file",
     _("%(where)s: %(size)s MB uncompressed, over the limit of %(limit)s MB for one file")),
    (rf"{_W}: unpacks to more than (?P<limit>{_MB}) MB \(limit reached at (?P<name>.*)\)",
     _("%(where)s: unpacks to more than %(limit)s MB (the limit was reached at %(name)s)")),
    (rf"{_W}: unpacks to more than (?P<limit>{_MB}) MB", _("%(where)s: unpacks to more than %(limit)s MB")),
    (rf"{_W}: (?P<kind>symbolic link|device file|fifo|socket|file type '.'): only regular files and folders are "
     r"allowed", _("%(where)s: %(kind)s: only regular files and folders are allowed")),
    (rf"{_W}: encrypted entries are not supported", _("%(where)s: encrypted entries are not supported")),
    (rf"{_W}: unsupported compression method (?P<method>\d+)",
     _("%(where)s: unsupported compression method %(method)s")),
    (rf"{_W}: symbolic link \(to (?P<target>.*)\): links are not allowed",
     _("%(where)s: a symbolic link (to %(target)s): links are not allowed")),
    (rf"{_W}: hard link \(to (?P<target>.*)\): links are not allowed",
     _("%(where)s: a hard link (to %(target)s): links are not allowed")),
    (rf"{_W}: unsupported entry type (?P<type>.*)", _("%(where)s: unsupported entry type %(type)s")),
    (rf"{_W}: no data", _("%(where)s: no data")),
    (rf"{_W}: holds more data than its header says \((?P<size>\d+) bytes\)",
     _("%(where)s: holds more data than its header says (%(size)s bytes)")),
    (rf"{_W}: holds (?P<count>\d+) bytes, its header says (?P<size>\d+)",
     _("%(where)s: holds %(count)s bytes, its header says %(size)s")),
    # the archive as a whole
    (rf"{_W}: not a zip or tar\.gz archive", _("%(where)s: not a zip or tar.gz archive")),
    (rf"{_W}: corrupt archive: (?P<said>.*)", _("%(where)s: a corrupt archive: %(said)s")),
    (rf"{_W}: cannot unpack: (?P<said>.*)", _("%(where)s: cannot be unpacked: %(said)s")),
    (r"archive: no bot\.toml at its root or in a single top-level folder \(found: (?P<found>.*)\)",
     _("archive: no bot.toml at its root or in a single top-level folder (found: %(found)s)")),
    (rf"{_W}: cannot read: (?P<said>.*)", _("%(where)s: cannot be read: %(said)s")),
    (rf"{_W}: not a file", _("%(where)s: not a file")),
    (rf"{_W}: (?P<size>{_MB}) MB, over the (?P<limit>{_MB}) MB limit for an upload",
     _("%(where)s: %(size)s MB, over the limit of %(limit)s MB for an upload")),
    (rf"{_W}: not a folder, zip or tar\.gz", _("%(where)s: not a folder, zip or tar.gz")),
    (rf"{_W}: cannot copy: (?P<said>.*)", _("%(where)s: cannot be copied: %(said)s")),
    (rf"{_W}: already exists", _("%(where)s: already exists")),
    # bot.toml (bots_sdk/botdir.py, worker/builds/archive.py)
    (r"(?P<value>.*) is neither a reference bot \((?P<known>.*)\) nor a bot folder",
     _("%(value)s is neither a reference bot (%(known)s) nor a bot folder")),
    (rf"{_W}: no bot\.toml \(create one with `durak new NAME`\)",
     _("%(where)s: no bot.toml (create one with `durak new NAME`)")),
    (rf"{_W}: not valid TOML: (?P<toml>.*)", _("%(where)s: not valid TOML: %(toml)s")),
    (rf"{_W}: unknown key (?P<key>.*); did you mean (?P<close>.*)\?",
     _("%(where)s: unknown key %(key)s; did you mean %(close)s?")),
    (rf"{_W}: unknown key (?P<key>.*); the known keys are (?P<keys>.*)",
     _("%(where)s: unknown key %(key)s; the known keys are %(keys)s")),
    (rf"{_W}: (?P<field>name|version|language|entry|requirements): (?P<value>.*) is not a non-empty string",
     _("%(where)s: %(field)s: %(value)s is not a non-empty string")),
    (rf"{_W}: name: (?P<value>.*) may hold only letters, digits, - and _",
     _("%(where)s: name: %(value)s may hold only letters, digits, - and _")),
    (rf"{_W}: entry: (?P<value>.*) lies outside the bot folder",
     _("%(where)s: entry: %(value)s lies outside the bot folder")),
    (rf"{_W}: entry: (?P<value>.*) does not exist in (?P<folder>.+?) \(build it first: `(?P<build>.*)`, or as the "
     r"arena does: `(?P<arena>.*)`\)",
     _("%(where)s: entry: %(value)s does not exist in %(folder)s (build it first: `%(build)s`, or as the arena "
       "does: `%(arena)s`)")),
    (rf"{_W}: entry: (?P<value>.*) does not exist in (?P<folder>.+)",
     _("%(where)s: entry: %(value)s does not exist in %(folder)s")),
    (rf"{_W}: entry: a command bot needs an argv list, e\.g\. \[\"node\", \"bot\.js\"\]",
     _("%(where)s: entry: a command bot needs an argv list, e.g. [\"node\", \"bot.js\"]")),
    (rf"{_W}: language: (?P<value>.*) is not 'python' or 'command'",
     _("%(where)s: language: %(value)s is not 'python' or 'command'")),
    (rf"{_W}: language: (?P<value>.*) is not one of (?P<names>.*)",
     _("%(where)s: language: %(value)s is not one of %(names)s")),
    (rf"{_W}: requirements: (?P<value>.*) does not exist in the bot folder",
     _("%(where)s: requirements: %(value)s does not exist in the bot folder")),
    (rf"{_W}: (?P<value>{_QUOTED}) is outside the bot folder", _("%(where)s: %(value)s is outside the bot folder")),
    (r"the build changed bot\.toml; the arena stores the bot the uploaded bot\.toml describes",
     _("the build changed bot.toml; the arena stores the bot the uploaded bot.toml describes")),
    # requirements and their install (worker/builds/install.py)
    (rf"{_W}: larger than (?P<limit>\d+) bytes", _("%(where)s: larger than %(limit)s bytes")),
    (rf"{_W} line (?P<line>\d+): (?P<text>.*): only plain requirements \(name, extras, version, markers, "
     r"--hash=sha256:\.\.\.\) are allowed, not options, URLs or paths",
     _("%(where)s, line %(line)s: %(text)s: only plain requirements (name, extras, version, markers, "
       "--hash=sha256:...) are allowed, not options, URLs or paths")),
    (rf"{_W}: more than (?P<limit>\d+) requirements", _("%(where)s: more than %(limit)s requirements")),
    (r"downloading the requirements took longer than (?P<seconds>\d+) s",
     _("downloading the requirements took longer than %(seconds)s s")),
    (rf"requirements: the wheels weigh more than the (?P<limit>{_MB}) MB download limit; the download stopped "
     r"there:\n(?P<log>.*)",
     _("requirements: the wheels weigh more than the download limit of %(limit)s MB; the download stopped "
       "there:\n%(log)s")),
    (r"requirements: no binary wheel for this Python and platform \(only wheels are installed, sdists are never "
     r"built\), or no such package or version:\n(?P<log>.*)",
     _("requirements: no binary wheel for this Python and platform (only wheels are installed, sdists are never "
       "built), or no such package or version:\n%(log)s")),
    (r"pip download failed \(exit (?P<code>-?\d+)\):\n(?P<log>.*)",
     _("pip download failed (exit code %(code)s):\n%(log)s")),
    (r"pip download fetched something that is not a wheel: (?P<files>.*)",
     _("pip download fetched something that is not a wheel: %(files)s")),
    (rf"requirements: the wheels weigh (?P<size>{_MB}) MB, over the (?P<limit>{_MB}) MB limit",
     _("requirements: the wheels weigh %(size)s MB, over the limit of %(limit)s MB")),
    (r"the worker has no pip to download and install requirements with",
     _("the worker has no pip to download and install requirements with")),
    (r"installing the requirements took longer than (?P<seconds>\d+) s:\n(?P<log>.*)",
     _("installing the requirements took longer than %(seconds)s s:\n%(log)s")),
    (rf"requirements: the installed venv would weigh more than the (?P<limit>{_MB}) MB limit \(the runtime's "
     rf"(?P<runtime>{_MB}) MB included\); the install stopped there:\n(?P<log>.*)",
     _("requirements: the installed environment would weigh more than the limit of %(limit)s MB (the runtime's "
       "%(runtime)s MB included); the install stopped there:\n%(log)s")),
    (r"installing the requirements hit the memory limit of (?P<limit>\d+) MiB and was stopped:\n(?P<log>.*)",
     _("installing the requirements hit the memory limit of %(limit)s MiB and was stopped:\n%(log)s")),
    (r"pip install failed in the sandbox \(exit (?P<code>-?\d+)\):\n(?P<log>.*)",
     _("pip install failed in the sandbox (exit code %(code)s):\n%(log)s")),
    (rf"{_W}: unexpected special file (?P<path>.*)", _("%(where)s: an unexpected special file %(path)s")),
    (rf"{_W}: (?P<size>{_MB}) MB, over the (?P<limit>{_MB}) MB limit",
     _("%(where)s: %(size)s MB, over the limit of %(limit)s MB")),
    # a language's build step (worker/builds/compile.py)
    (r"the (?P<language>\w+) build took longer than (?P<seconds>\d+) s:\n(?P<log>.*)",
     _("the %(language)s build took longer than %(seconds)s s:\n%(log)s")),
    (rf"the (?P<language>\w+) build would weigh more than the (?P<limit>{_MB}) MB limit; it stopped "
     r"there:\n(?P<log>.*)",
     _("the %(language)s build would weigh more than the limit of %(limit)s MB; it stopped there:\n%(log)s")),
    (r"the (?P<language>\w+) build hit its memory limit of (?P<limit>\d+) MiB and was stopped:\n(?P<log>.*)",
     _("the %(language)s build hit its memory limit of %(limit)s MiB and was stopped:\n%(log)s")),
    (r"the (?P<language>\w+) build failed in the sandbox \(exit (?P<code>-?\d+)\):\n(?P<log>.*)",
     _("the %(language)s build failed in the sandbox (exit code %(code)s):\n%(log)s")),
    (r"the build left (?P<kind>a symbolic link|a special file) at (?P<path>.*); a stored bot holds regular files "
     r"and folders only",
     _("the build left %(kind)s at %(path)s; a stored bot holds regular files and folders only")),
    # the Go build cache a worker makes once (worker/builds/gocache.py)
    (r"compiling Debian's Go gRPC libraries took longer than (?P<seconds>\d+) s",
     _("compiling Debian's Go gRPC libraries took longer than %(seconds)s s")),
    (r"this worker cannot compile Debian's Go gRPC libraries \(a package of the go recipe is missing or "
     r"broken\):\n(?P<log>.*)",
     _("this worker cannot compile Debian's Go gRPC libraries (a package of the go recipe is missing or "
       "broken):\n%(log)s")),
    # npm's lock file and install (worker/builds/languages.py)
    (r"package\.json: missing \(a JavaScript or TypeScript bot declares its dependencies there\)",
     _("package.json: missing (a JavaScript or TypeScript bot declares its dependencies there)")),
    (rf"{_W}: missing; run `npm install` and upload the lock file it writes \(the arena installs exactly the "
     r"versions it names, with `npm ci`\)",
     _("%(where)s: missing; run `npm install` and upload the lock file it writes (the arena installs exactly the "
       "versions it names, with `npm ci`)")),
    (rf"{_W}: not valid JSON: (?P<said>.*)", _("%(where)s: not valid JSON: %(said)s")),
    (rf"{_W}: lockfileVersion 2 or 3 needed \(npm 7 or later writes it\)",
     _("%(where)s: lockfileVersion 2 or 3 needed (npm 7 or later writes it)")),
    (rf"{_W}: no \"packages\" map", _("%(where)s: no \"packages\" map")),
    (rf"{_W}: (?P<value>.*): the arena installs packages from (?P<registry>\S+) only \(no git, file, link or "
     r"other registry dependencies\)",
     _("%(where)s: %(value)s: the arena installs packages from %(registry)s only (no git, file, link or other "
       "registry dependencies)")),
    (rf"{_W}: no integrity hash \(run `npm install` again to write one\)",
     _("%(where)s: no integrity hash (run `npm install` again to write one)")),
    (r"npm: fetching the dependencies took longer than (?P<seconds>\d+) s",
     _("npm: fetching the dependencies took longer than %(seconds)s s")),
    (rf"npm: the dependencies weigh more than the (?P<limit>{_MB}) MB download limit:\n(?P<log>.*)",
     _("npm: the dependencies weigh more than the download limit of %(limit)s MB:\n%(log)s")),
    (r"npm ci failed fetching the dependencies of (?P<file>\S+) \(exit (?P<code>-?\d+)\):\n(?P<log>.*)",
     _("npm ci failed fetching the dependencies of %(file)s (exit code %(code)s):\n%(log)s")),
])
"""Every shape of build error; the first that matches the whole message words it (the specific before the
general: a message of two known shapes is worded by the one listed first)."""


def build_text(error: str) -> str:
    """A build error in the reader's words; a message of no known shape as the worker wrote it."""
    return worded(BUILD, error, PARAMETERS) or error
