"""Games as a dataset: gzipped JSON lines, one game a line, streamed (docs/datasets.md).

The stream is a series of gzip members, each holding whole lines of a batch of
games. A gzip reader sees one file (members concatenate), while a client that was
cut off keeps every complete member, drops the broken tail, and asks again with
``after`` set to the last id it holds: ``durak dataset`` resumes that way. Batches
are read by id (keyset), so a long download never holds a cursor or a
transaction open while the client is slow.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any, Final

from django.db.models import QuerySet

from arena.matches.models import Game
from arena.matches.selectors import dataset_seats

FORMAT: Final = "durak-dataset/1"
GZIP_WBITS: Final = 31
"""zlib's window bits for a gzip header and trailer."""


def game_line(game: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """One line of the dataset: where the game comes from, who played it, and its ``durak-game/1`` record."""
    return {
        "id": game["pk"], "match": game["match_id"], "kind": game["match__kind"], "rated": game["rated"],
        "ladder": f"{game['preset']}-{game['players']}", "finished": game["finished"].isoformat(),
        "seats": seats, "record": game["record"],
    }


def gzip_lines(games: QuerySet[Game], batch: int, limit: int | None = None) -> Iterator[bytes]:
    """``games`` (ordered by id) as gzip members of at most ``batch`` lines each, ``limit`` games in all."""
    fields = ("pk", "match_id", "match__kind", "rated", "preset", "players", "finished", "record")
    last, sent = 0, 0
    while limit is None or sent < limit:
        size = batch if limit is None else min(batch, limit - sent)
        rows = list(games.filter(pk__gt=last).values(*fields)[:size])
        if not rows:
            return
        seats = dataset_seats([row["pk"] for row in rows])
        text = "".join(json.dumps(game_line(row, seats[row["pk"]]), separators=(",", ":")) + "\n" for row in rows)
        member = zlib.compressobj(6, zlib.DEFLATED, GZIP_WBITS)
        yield member.compress(text.encode()) + member.flush()
        last, sent = rows[-1]["pk"], sent + len(rows)
