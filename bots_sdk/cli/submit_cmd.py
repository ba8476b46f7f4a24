"""``durak submit BOT --url URL --token T``: upload a bot folder to an arena and follow its admission.

It packs the folder as the arena expects (a tar.gz with ``bot.toml`` at its
root; caches, version control and the language's build outputs such as
``node_modules/`` left out: the arena builds the bot itself, from the sources and
the lock file, which must be there), posts it to the arena's REST API
(``POST /api/versions``, the same call the web form makes) and, unless
``--no-wait``, polls the version until it is admitted or rejected, printing each
status change. Standard library only: a bot author needs nothing more.
Exit 0: uploaded (and, when waiting, admitted); 1: rejected; 2: the arena
refused the upload (too large, over a quota...) or could not be reached.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import tarfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from bots_sdk.botdir import FOLDER_IGNORED, language_of, left_out, load_spec

FINAL = ("active", "rejected", "retired")
CUT_OFF = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)
"""The connection ended under the upload (``http.client.RemoteDisconnected`` is a reset too)."""


class SubmitError(ValueError):
    """The arena refused the upload or could not be reached; ``durak`` prints the message and exits 2."""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("submit", help="upload a bot folder to an arena", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bot", help="the bot folder (with bot.toml)")
    parser.add_argument("--url", default=os.environ.get("DURAK_ARENA_URL"), help="the arena, e.g. http://127.0.0.1:8000"
                        " (default: $DURAK_ARENA_URL)")
    parser.add_argument("--token", default=os.environ.get("DURAK_TOKEN"),
                        help="your API token from the arena's account page (default: $DURAK_TOKEN)")
    parser.add_argument("--description", help="replace the bot's description on the arena")
    parser.add_argument("--no-wait", dest="wait", action="store_false", help="do not wait for the admission")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the admission")
    parser.set_defaults(run=run)


def pack(folder: Path) -> bytes:
    """The folder as a tar.gz whose top level is the folder's content (``bot.toml`` at the root), without
    what ``left_out`` names; refuses a folder without the files its language requires (the lock file)."""
    language = language_of(folder)
    if language is not None:
        for required in language.required:
            if not (folder / required).is_file():
                raise SubmitError(f"{folder / required}: missing; a {language.name} bot is uploaded with it (the "
                                  f"arena builds the bot from it): {language.required_hint}")
    skipped = left_out(folder)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for root, dirs, files in os.walk(folder, followlinks=False):
            dirs[:] = sorted(d for d in dirs if d not in (skipped if Path(root) == folder else FOLDER_IGNORED))
            for name in sorted([*files, *(d for d in dirs if (Path(root) / d).is_symlink())]):
                path = Path(root) / name
                if path.is_symlink():
                    raise SubmitError(f"{path}: a symbolic link; the arena takes regular files and folders only, "
                                      "and builds the bot itself: replace the link by a copy of what it points "
                                      "to, or move it out of the bot folder")
                archive.add(path, arcname=str(path.relative_to(folder)), recursive=False)
    return buffer.getvalue()


def _multipart(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="archive"; filename="{filename}"\r\n'
        "Content-Type: application/gzip\r\n\r\n".encode()
    )
    parts.append(data + f"\r\n--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _call(request: urllib.request.Request) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            body: dict[str, Any] = json.loads(response.read())
            return body
    except urllib.error.HTTPError as error:
        try:
            detail = json.loads(error.read()).get("detail", "")
        except (ValueError, AttributeError):
            detail = ""
        if error.code == 413:
            raise SubmitError(f"too large ({_limit_text(request)}): {detail or error.reason}") from None
        hint = " (check --token: create one on the arena's account page)" if error.code == 401 else ""
        if error.code == 429:
            hint = f" (retry after {error.headers.get('Retry-After', '?')} s)"
        raise SubmitError(f"the arena answered {error.code}: {detail or error.reason}{hint}") from None
    except (urllib.error.URLError, ConnectionError, http.client.HTTPException) as error:
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        if isinstance(request.data, bytes) and isinstance(reason, CUT_OFF):
            # A server refusing an oversized body often answers early and closes the connection while the
            # body is still being sent: the client sees a reset, not the 413.
            size = len(request.data)
            limit = _upload_limit(request)
            if limit is None or size > limit[0]:
                raise SubmitError(f"too large ({_limit_text(request, limit)}): the arena closed the connection "
                                  f"during the {size / 1e6:.1f} MB upload") from None
            raise SubmitError(f"the arena closed the connection during the upload: {reason}") from None
        raise SubmitError(f"cannot reach {request.full_url}: {reason}") from None


def _upload_limit(request: urllib.request.Request) -> tuple[int, str] | None:
    """The arena's upload limit in bytes and as its form states it (``GET /api/limits``), if it answers."""
    url = request.full_url.rsplit("/api/", 1)[0] + "/api/limits"
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            limits = json.loads(response.read())
            return int(limits["upload_bytes"]), str(limits["upload_limit"])
    except (OSError, ValueError, KeyError, TypeError, http.client.HTTPException):
        return None


def _limit_text(request: urllib.request.Request, limit: tuple[int, str] | None = None) -> str:
    """``limit 5 MB`` (or ``limit unknown``, from an arena that does not say)."""
    limit = limit or _upload_limit(request)
    return f"limit {limit[1]}" if limit else "limit unknown"


def upload(url: str, token: str, folder: Path, description: str | None = None) -> dict[str, Any]:
    """Upload ``folder``; the arena's answer (the new version: id, bot, number, status, url)."""
    spec = load_spec(str(folder), built=False)
    fields = {} if description is None else {"description": description}
    body, content_type = _multipart(fields, f"{spec.name}.tar.gz", pack(folder))
    request = urllib.request.Request(
        url.rstrip("/") + "/api/versions", data=body, method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": content_type},
    )
    return _call(request)


def version_status(url: str, token: str, version_id: int) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{url.rstrip('/')}/api/versions/{version_id}", headers={"Authorization": f"Bearer {token}"}
    )
    return _call(request)


def run(args: argparse.Namespace) -> int:
    if not args.url:
        raise SubmitError("--url is missing (or set DURAK_ARENA_URL)")
    if not args.token:
        raise SubmitError("--token is missing (or set DURAK_TOKEN); create a token on the arena's account page")
    version = upload(args.url, args.token, Path(args.bot), args.description)
    page = args.url.rstrip("/") + version["url"]
    print(f"uploaded {version['bot']} v{version['number']}: {version['status']} ({page})")
    if not args.wait:
        return 0
    deadline = time.monotonic() + args.timeout
    status = version["status"]
    while status not in FINAL and time.monotonic() < deadline:
        time.sleep(1.0)
        version = version_status(args.url, args.token, version["id"])
        if version["status"] != status:
            status = version["status"]
            print(f"  {status}")
    if status == "rejected":
        print(f"rejected: {version.get('error') or 'see ' + page}")
        return 1
    if status not in FINAL:
        print(f"still {status} after {args.timeout:.0f} s; follow it at {page}")
        return 2
    print(f"admitted: {page}")
    return 0
