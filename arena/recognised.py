"""English written by code without Django (the SDK, the workers), recognised by its shape and worded again.

The SDK and the workers write their messages in English, once, for every reader: bots, the command line, logs,
the arena's rows. A page translates one when it shows it: each shape of message is a pattern whose named groups
are its parameters, and the catalogs' words for it. Parameters are kept as they came (paths, file names, what a
bot or an author wrote), except those a ``parameters`` mapping words for the reader (a number's decimal mark, a
card, a nested label). A message of no known shape is shown as it came.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from django.utils import formats
from django.utils.functional import Promise

Shape = tuple[re.Pattern[str], Promise]
Parameters = Mapping[str, Callable[[str], str]]


def shapes(pairs: list[tuple[str, Promise]]) -> list[Shape]:
    return [(re.compile(pattern, re.S), words) for pattern, words in pairs]


def decimal(text: str) -> str:
    """``"1.0"`` with the reader's decimal mark, as many decimals as written."""
    decimals = len(text.partition(".")[2])
    return formats.number_format(float(text), decimal_pos=decimals) if decimals else text


def worded(known: list[Shape], text: str, parameters: Parameters) -> str | None:
    """``text`` in the reader's words if it has one of the ``known`` shapes, else None."""
    for pattern, words in known:
        found = pattern.fullmatch(text)
        if found:
            values = {k: parameters[k](v) if k in parameters and v is not None else (v or "")
                      for k, v in found.groupdict().items()}
            return str(words % values)
    return None
