"""``durak dataset --url URL --ladder classic-2 --out FILE``: download an arena's games as gzipped JSON lines.

The arena streams the games (``GET /api/dataset``, docs/datasets.md) as gzip
members of whole lines, oldest id first; this command writes the bytes as they
come, so FILE is the arena's own ``.jsonl.gz``. Given a FILE that already holds
part of a download, it keeps the complete members, cuts off a broken tail, and
asks only for the games after the last id it holds; a connection that breaks
mid-way is resumed the same way, a few times, before giving up. Standard library
only. Exit 0: FILE holds every game asked for; 2: the arena refused or could not
be reached (FILE keeps what arrived, and the same command resumes it).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from bots_sdk.cli.progress import Progress

GZIP_WBITS = 31
CHUNK = 1 << 16
ATTEMPTS = 4
"""Connections tried per run: a download that breaks resumes after the last complete member."""


class DatasetError(ValueError):
    """The arena refused or could not be reached; ``durak`` prints the message and exits 2."""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("dataset", help="download an arena's games as gzipped JSON lines",
                                 description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=os.environ.get("DURAK_ARENA_URL"),
                        help="the arena, e.g. https://durak.example.org (default: $DURAK_ARENA_URL)")
    parser.add_argument("--ladder", help="a ladder's rated games, e.g. classic-2")
    parser.add_argument("--bot", help="the games a bot played (any version, any kind of match)")
    parser.add_argument("--since", help="games finished at or after this time (ISO 8601, e.g. 2026-01-31)")
    parser.add_argument("--until", help="games finished before this time (ISO 8601)")
    parser.add_argument("--limit", type=int, help="at most this many games (in all, with what FILE holds)")
    parser.add_argument("--out", type=Path, required=True,
                        help="the .jsonl.gz file; if it holds part of this download, the rest is added")
    parser.set_defaults(run=run)


class Members:
    """Reads a stream of gzip members as it arrives: counts the lines of each complete member and keeps
    the id of its last line, and where the last complete member ends."""

    def __init__(self) -> None:
        self.games = 0
        self.last_id = 0
        self.complete_bytes = 0
        """Bytes up to the end of the last complete member: what a resumed download keeps."""
        self._inflate = zlib.decompressobj(GZIP_WBITS)
        self._text = b""
        self._fed = 0

    @property
    def partial(self) -> bool:
        """Whether the bytes fed so far end inside a member (the stream was cut off)."""
        return self._fed > self.complete_bytes

    def drop_partial(self) -> None:
        """Forget a member that was cut off (the file is truncated to ``complete_bytes`` with it)."""
        self._inflate = zlib.decompressobj(GZIP_WBITS)
        self._text = b""
        self._fed = self.complete_bytes

    def feed(self, data: bytes) -> int:
        """Take the next bytes of the stream; returns the games completed by them."""
        before = self.games
        while data:
            self._fed += len(data)
            self._text += self._inflate.decompress(data)
            if not self._inflate.eof:
                break
            data = self._inflate.unused_data
            self._fed -= len(data)
            self._finish_member()
        return self.games - before

    def _finish_member(self) -> None:
        lines = self._text.splitlines()
        if lines:
            self.last_id = _line_id(lines[-1])
        self.games += len(lines)
        self.complete_bytes = self._fed
        self.drop_partial()


def _line_id(line: bytes) -> int:
    try:
        found = json.loads(line)["id"]
    except (ValueError, KeyError, TypeError):
        found = None
    if not isinstance(found, int):
        raise DatasetError(f"a line without an integer id: {line[:80]!r}... (is this a durak dataset file?)")
    return found


def held(path: Path) -> Members:
    """What ``path`` already holds of a download; a broken last member is not counted."""
    members = Members()
    if path.exists():
        with path.open("rb") as file:
            try:
                for chunk in iter(lambda: file.read(CHUNK), b""):
                    members.feed(chunk)
            except zlib.error as error:
                raise DatasetError(f"{path}: not a gzip file of a dataset ({error}); choose another --out") from None
    return members


def dataset_url(args: argparse.Namespace, after: int, limit: int | None) -> str:
    query = {key: value for key, value in (("ladder", args.ladder), ("bot", args.bot), ("since", args.since),
                                            ("until", args.until)) if value}
    query["after"] = str(after)
    if limit is not None:
        query["limit"] = str(limit)
    return f"{args.url.rstrip('/')}/api/dataset?{urllib.parse.urlencode(query)}"


def _open(url: str) -> http.client.HTTPResponse:
    try:
        response: http.client.HTTPResponse = urllib.request.urlopen(url, timeout=60)
    except urllib.error.HTTPError as error:
        try:
            detail = json.loads(error.read()).get("detail", "")
        except (ValueError, AttributeError):
            detail = ""
        raise DatasetError(f"the arena answered {error.code}: {_words(detail) or error.reason}") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        raise DatasetError(f"cannot reach {url}: {reason}") from None
    return response


def _words(detail: Any) -> str:
    """The arena's ``detail``: a sentence, or the API's list of invalid fields (``since: ...``)."""
    if isinstance(detail, list):
        return "; ".join(f"{'.'.join(str(p) for p in item.get('loc', [])[1:])}: {item.get('msg', '')}"
                         for item in detail if isinstance(item, dict))
    return str(detail)


def _chunks(response: http.client.HTTPResponse) -> Iterator[bytes]:
    while chunk := response.read1(CHUNK):
        yield chunk


def run(args: argparse.Namespace) -> int:
    if not args.url:
        raise DatasetError("--url is missing (or set DURAK_ARENA_URL)")
    if args.limit is not None and args.limit < 1:
        raise DatasetError(f"--limit: {args.limit} is not 1 or more")
    members = held(args.out)
    if members.games:
        print(f"{args.out}: resuming after game {members.last_id} ({members.games} games held)", file=sys.stderr)
    for attempt in range(ATTEMPTS):
        limit = None if args.limit is None else args.limit - members.games
        if limit is not None and limit <= 0:
            break
        response = _open(dataset_url(args, members.last_id, limit))  # refused: FILE stays as it was
        try:
            with args.out.open("ab") as out:
                out.truncate(members.complete_bytes)  # a broken member from an earlier try goes
                members.drop_partial()
                if _fetch(response, out, members):
                    break
        finally:
            response.close()
        if attempt + 1 < ATTEMPTS:
            print(f"the connection broke after game {members.last_id}; resuming", file=sys.stderr)
            time.sleep(min(2.0 ** attempt, 10.0))
    else:
        with args.out.open("ab") as out:
            out.truncate(members.complete_bytes)
        raise DatasetError(f"the connection broke {ATTEMPTS} times; {args.out} holds {members.games} games, "
                           "and the same command resumes after them")
    print(f"{args.out}: {members.games} games")
    return 0


def _fetch(response: http.client.HTTPResponse, out: BinaryIO, members: Members) -> bool:
    """Append the answer to ``out``; whether it arrived whole (False: the connection broke)."""
    total = int(response.headers.get("X-Games") or 0)
    with Progress(total, "games") as progress:
        try:
            for chunk in _chunks(response):
                out.write(chunk)
                if games := members.feed(chunk):
                    progress.advance(games)
        except (OSError, http.client.HTTPException):
            return False
        except zlib.error as error:
            raise DatasetError(f"the arena sent a broken gzip stream: {error}") from None
    return progress.done >= total and not members.partial
