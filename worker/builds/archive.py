"""Unpacking an uploaded bot (a zip or a tar.gz) without trusting a single byte of it.

An upload is hostile until proven otherwise, so ``unpack``:

* detects the format by content (zip: central directory; tar.gz: gzip magic),
  never by the file name;
* scans every entry *before* writing anything: no absolute path, no ``..``, no
  backslash or NUL, at most ``depth`` components, only regular files and
  directories (links of any kind, devices, fifos are refused: a bot has no use
  for them and each is a classic escape), no duplicate or file/directory
  clash, and the declared sizes and entry count within the limits;
* extracts by hand (never ``extractall``): every file is created with
  ``O_CREAT | O_EXCL | O_NOFOLLOW`` under directories it made itself, mode
  0644/0755 (only the executable bit survives), and the bytes actually written
  are counted against the declared size and the limits, which defeats lying
  headers and decompression bombs;
* builds into a hidden temp dir beside ``dest`` and renames it into place at
  the very end, so any failure leaves nothing behind.

The bot folder may be the archive's root or its single top-level folder; the
``__MACOSX/`` folder that macOS's "Compress" adds is ignored.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import os
import shutil
import stat
import tarfile
import tempfile
import tomllib
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from bots_sdk.botdir import FOLDER_IGNORED, MANIFEST, BotSpec, BotSpecError, left_out, load_spec
from worker.builds import MB, BuildError, BuildLimits

CHUNK = 64 * 1024
IGNORED_TOP = "__MACOSX"
ZIP_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA})


@dataclasses.dataclass(frozen=True)
class Entry:
    """One accepted archive entry: where it goes, what it is, and how to read it."""

    parts: tuple[str, ...]
    is_dir: bool
    size: int
    executable: bool
    open: Callable[[], IO[bytes]] | None
    """Reader of the file's data (None for a directory); only valid during the extraction pass."""


def _mb(size: int) -> str:
    return f"{size / MB:.1f} MB"


def check_name(raw: str, limits: BuildLimits, where: str = "archive entry") -> tuple[str, ...] | None:
    """The path components of an entry named ``raw``, or ``None`` for an entry to skip; ``BuildError`` if unsafe."""
    label = f"{where} {raw!r}"
    if "\x00" in raw:
        raise BuildError(f"{label}: NUL character in the path")
    if "\\" in raw:
        raise BuildError(f"{label}: backslash in the path (archives must use '/' between folders)")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":" and raw[0].isalpha()):
        raise BuildError(f"{label}: absolute path")
    parts = [part for part in raw.split("/") if part not in ("", ".")]
    if ".." in parts:
        level = 0
        for part in parts:
            level += -1 if part == ".." else 1
            if level < 0:
                raise BuildError(f"{label}: path leaves the bot folder")
        raise BuildError(f"{label}: '..' is not allowed in a path")
    if not parts:
        return None
    if parts[0] == IGNORED_TOP:
        return None
    if len(parts) > limits.depth:
        raise BuildError(f"{label}: path is {len(parts)} levels deep (limit {limits.depth})")
    for part in parts:
        if len(part.encode()) > limits.name_chars:
            raise BuildError(f"{label}: a name longer than {limits.name_chars} bytes")
    return tuple(parts)


class _Scan:
    """The running checks over a sequence of entries: count, sizes, clashes."""

    def __init__(self, limits: BuildLimits, where: str) -> None:
        self.limits = limits
        self.where = where
        self.count = 0
        self.total = 0
        self.kinds: dict[tuple[str, ...], bool] = {}
        """parts -> is_dir, for every entry and every implied parent."""

    def count_entry(self, raw: str) -> None:
        self.count += 1
        if self.count > self.limits.entries:
            raise BuildError(f"{self.where}: more than {self.limits.entries} entries (at {raw!r})")

    def add(self, raw: str, parts: tuple[str, ...], is_dir: bool, size: int) -> None:
        label = f"{self.where} entry {raw!r}"
        for cut in range(1, len(parts)):
            parent = parts[:cut]
            if self.kinds.get(parent) is False:
                raise BuildError(f"{label}: its folder {'/'.join(parent)!r} is also a file in the archive")
            self.kinds[parent] = True
        known = self.kinds.get(parts)
        if known is not None and not (known and is_dir):
            raise BuildError(f"{label}: the path appears twice in the archive")
        self.kinds[parts] = is_dir
        if is_dir:
            return
        if size > self.limits.file_bytes:
            raise BuildError(f"{label}: {_mb(size)} uncompressed, over the {_mb(self.limits.file_bytes)} limit "
                             "for one file")
        self.total += size
        if self.total > self.limits.total_bytes:
            raise BuildError(f"{self.where}: unpacks to more than {_mb(self.limits.total_bytes)} "
                             f"(limit reached at {raw!r})")


def _zip_entries(archive: zipfile.ZipFile, scan: _Scan) -> Iterator[tuple[str, Entry]]:
    for info in archive.infolist():
        raw = info.filename
        scan.count_entry(raw)
        label = f"archive entry {raw!r}"
        parts = check_name(raw, scan.limits)
        if parts is None:
            continue
        mode = (info.external_attr >> 16) & 0xFFFF if info.create_system == 3 else 0
        if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):  # 0: no type recorded (Python's writestr)
            raise BuildError(f"{label}: {_kind(mode)}: only regular files and folders are allowed")
        if info.flag_bits & 0x1:
            raise BuildError(f"{label}: encrypted entries are not supported")
        if info.compress_type not in ZIP_METHODS:
            raise BuildError(f"{label}: unsupported compression method {info.compress_type}")
        is_dir = info.is_dir() or stat.S_ISDIR(mode)
        scan.add(raw, parts, is_dir, info.file_size)

        def opener(info: zipfile.ZipInfo = info) -> IO[bytes]:
            return archive.open(info)

        yield raw, Entry(parts, is_dir, info.file_size, bool(mode & 0o111), None if is_dir else opener)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "symbolic link"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device file"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    return f"file type {stat.filemode(mode)[0]!r}"


def _tar_entries(archive: tarfile.TarFile, scan: _Scan) -> Iterator[tuple[str, Entry]]:
    """The members of a tar opened in stream mode (``r|gz``): each header is checked before the next is read,
    so a bomb is given up on after at most ``total_bytes`` of decompression."""
    for member in archive:
        raw = member.name
        scan.count_entry(raw)
        label = f"archive entry {raw!r}"
        parts = check_name(raw, scan.limits)
        if member.issym():
            raise BuildError(f"{label}: symbolic link (to {member.linkname!r}): links are not allowed")
        if member.islnk():
            raise BuildError(f"{label}: hard link (to {member.linkname!r}): links are not allowed")
        if member.ischr() or member.isblk():
            raise BuildError(f"{label}: device file: only regular files and folders are allowed")
        if member.isfifo():
            raise BuildError(f"{label}: fifo: only regular files and folders are allowed")
        if not (member.isreg() or member.isdir()):
            raise BuildError(f"{label}: unsupported entry type {member.type!r}")
        if parts is None:
            continue
        scan.add(raw, parts, member.isdir(), member.size)

        def opener(member: tarfile.TarInfo = member) -> IO[bytes]:
            reader = archive.extractfile(member)
            if reader is None:
                raise BuildError(f"archive entry {member.name!r}: no data")
            return reader

        yield raw, Entry(parts, member.isdir(), member.size, bool(member.mode & 0o111),
                         None if member.isdir() else opener)


@contextlib.contextmanager
def _open_archive(path: Path, scan: _Scan) -> Iterator[Iterator[tuple[str, Entry]]]:
    """The entries of ``path``, whichever supported format its content is."""
    with open(path, "rb") as raw_file:
        magic = raw_file.read(4)
    if magic[:2] == b"\x1f\x8b":
        with tarfile.open(path, mode="r|gz") as tar:
            yield _tar_entries(tar, scan)
    elif zipfile.is_zipfile(path):
        _check_zip_entry_count(path, scan.limits)
        with zipfile.ZipFile(path) as zipped:
            yield _zip_entries(zipped, scan)
    else:
        raise BuildError(f"{path.name}: not a zip or tar.gz archive")


def _check_zip_entry_count(path: Path, limits: BuildLimits) -> None:
    """Read the entry count from the end-of-central-directory record before ``ZipFile`` parses the directory:
    a 50 MB central directory of empty entries would otherwise cost ~1 GB of ``ZipInfo`` objects first."""
    with open(path, "rb") as file:
        file.seek(0, os.SEEK_END)
        size = file.tell()
        file.seek(max(0, size - (65536 + 22)))
        tail = file.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) < at + 12:
        return  # zipfile will report it
    count = int.from_bytes(tail[at + 10: at + 12], "little")
    if count > limits.entries:  # 0xFFFF (zip64) included: a bot never needs that many
        raise BuildError(f"archive: more than {limits.entries} entries ({count} in its directory)")


def _write_file(entry: Entry, raw: str, target: Path, scan: _Scan, written_total: list[int]) -> None:
    """Copy one entry's data into the new file ``target``, counting what is really written."""
    assert entry.open is not None
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o755 if entry.executable else 0o644)
    written = 0
    with os.fdopen(fd, "wb") as out, entry.open() as source:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            written_total[0] += len(chunk)
            if written > entry.size or written > scan.limits.file_bytes:
                raise BuildError(f"{scan.where} entry {raw!r}: holds more data than its header says "
                                 f"({entry.size} bytes)")
            if written_total[0] > scan.limits.total_bytes:
                raise BuildError(f"{scan.where}: unpacks to more than {_mb(scan.limits.total_bytes)}")
            out.write(chunk)
    if written != entry.size:
        raise BuildError(f"{scan.where} entry {raw!r}: holds {written} bytes, its header says {entry.size}")


def _extract(archive: Path, into: Path, limits: BuildLimits) -> dict[tuple[str, ...], bool]:
    """Scan every entry, then (a second pass over the same checks) write them under ``into``."""
    try:
        scan = _Scan(limits, "archive")
        with _open_archive(archive, scan) as entries:
            for _ in entries:
                pass
        written_total = [0]
        scan = _Scan(limits, "archive")
        with _open_archive(archive, scan) as entries:
            for raw, entry in entries:
                target = into.joinpath(*entry.parts)
                if entry.is_dir:
                    target.mkdir(mode=0o755, parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
                _write_file(entry, raw, target, scan, written_total)
        return scan.kinds
    except BuildError:
        raise
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, gzip.BadGzipFile, EOFError, NotImplementedError,
            RuntimeError) as error:
        raise BuildError(f"{archive.name}: corrupt archive: {error}") from None
    except OSError as error:
        raise BuildError(f"{archive.name}: cannot unpack: {error}") from None


def _bot_root(base: Path, kinds: dict[tuple[str, ...], bool]) -> Path:
    """The folder holding bot.toml: the archive root, or its single top-level folder."""
    if kinds.get((MANIFEST,)) is False:
        return base
    top = sorted({parts[0] for parts in kinds})
    if len(top) == 1 and kinds.get((top[0],)) and kinds.get((top[0], MANIFEST)) is False:
        return base / top[0]
    found = ", ".join(f"{name}/" if kinds.get((name,)) else name for name in top[:10]) or "nothing"
    raise BuildError(f"archive: no {MANIFEST} at its root or in a single top-level folder (found: {found})")


def check_manifest(folder: Path, label: str, *, built: bool = True) -> tuple[BotSpec, str | None]:
    """``load_spec`` on the unpacked folder, plus what a stored bot needs on top: entry and requirements inside.

    ``built=False``: the sources of a bot whose build is yet to make its entry. Returns the spec and the
    requirements file (relative to the folder), if the manifest names one."""
    try:
        spec = load_spec(str(folder), built=built)
    except BotSpecError as error:
        raise BuildError(str(error).replace(str(folder), label)) from None
    manifest = f"{label}/{MANIFEST}"
    if spec.language == "python":
        _inside(folder, spec.entry[0], f"{manifest}: entry")
    data = tomllib.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    requirements = data.get("requirements")
    if requirements is None:
        return spec, None
    if not isinstance(requirements, str) or not requirements:
        raise BuildError(f"{manifest}: requirements: {requirements!r} is not a non-empty string")
    path = _inside(folder, requirements, f"{manifest}: requirements")
    if not path.is_file():
        raise BuildError(f"{manifest}: requirements: {requirements!r} does not exist in the bot folder")
    return spec, requirements


def _inside(folder: Path, relative: str, label: str) -> Path:
    path = (folder / relative).resolve()
    if PurePosixPath(relative).is_absolute() or not path.is_relative_to(folder.resolve()):
        raise BuildError(f"{label}: {relative!r} is outside the bot folder")
    return path


def _opener(path: Path) -> Callable[[], IO[bytes]]:
    def open_file() -> IO[bytes]:
        return open(path, "rb")

    return open_file


def _fresh_dir_beside(dest: Path, what: str) -> Path:
    if dest.exists() or dest.is_symlink():
        raise BuildError(f"{dest}: already exists")
    dest.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{dest.name}.{what}-", dir=dest.parent))


def unpack(archive: Path, dest: Path, limits: BuildLimits | None = None) -> Path:
    """Unpack the bot ``archive`` (zip or tar.gz) into the new folder ``dest`` and validate its bot.toml.

    Returns ``dest``, which then holds bot.toml at its root. Raises ``BuildError`` naming the problem (and
    the entry) and leaves nothing behind: neither ``dest`` nor a temp dir."""
    limits = limits or BuildLimits()
    archive = Path(archive)
    try:
        size = archive.stat().st_size
    except OSError as error:
        raise BuildError(f"{archive}: cannot read: {error.strerror}") from None
    if not archive.is_file():
        raise BuildError(f"{archive}: not a file")
    if size > limits.archive_bytes:
        raise BuildError(f"{archive.name}: {_mb(size)}, over the {_mb(limits.archive_bytes)} limit for an upload")
    work = _fresh_dir_beside(dest, "unpack")
    try:
        work.chmod(0o755)
        kinds = _extract(archive, work, limits)
        root = _bot_root(work, kinds)
        check_manifest(root, archive.name if root == work else f"{archive.name}:{root.name}", built=False)
        os.rename(root, dest)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return dest


def copy_folder(folder: Path, dest: Path, limits: BuildLimits | None = None) -> Path:
    """Copy a bot folder into the new folder ``dest`` under the same rules as an archive (links, devices and
    fifos refused, same limits); caches, VCS folders and the language's build outputs (``left_out``: what
    ``durak submit`` leaves out, such as ``node_modules``) are skipped. Returns ``dest``."""
    limits = limits or BuildLimits()
    folder = Path(folder)
    if not folder.is_dir():
        raise BuildError(f"{folder}: not a folder, zip or tar.gz")
    work = _fresh_dir_beside(dest, "copy")
    try:
        work.chmod(0o755)
        scan = _Scan(limits, f"bot folder {folder}")
        top_skipped = left_out(folder)
        for root, dirs, files in os.walk(folder, followlinks=False):
            skipped = top_skipped if Path(root) == folder else FOLDER_IGNORED
            dirs[:] = sorted(d for d in dirs if d not in skipped)
            base = Path(root)
            for name in [*dirs, *sorted(files)]:
                path = base / name
                relative = str(path.relative_to(folder))
                scan.count_entry(relative)
                parts = check_name(relative, limits, where="bot folder entry")
                info = path.lstat()
                if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
                    raise BuildError(f"bot folder entry {relative!r}: {_kind(info.st_mode)}: "
                                     "only regular files and folders are allowed")
                if parts is None:
                    continue
                is_dir = stat.S_ISDIR(info.st_mode)
                scan.add(relative, parts, is_dir, info.st_size)
                target = work.joinpath(*parts)
                if is_dir:
                    target.mkdir(mode=0o755)
                    continue
                entry = Entry(parts, False, info.st_size, bool(info.st_mode & 0o111), _opener(path))
                _write_file(entry, relative, target, scan, [scan.total - info.st_size])
        check_manifest(work, folder.name, built=False)
        os.rename(work, dest)
    except OSError as error:
        raise BuildError(f"{folder}: cannot copy: {error}") from None
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return dest
