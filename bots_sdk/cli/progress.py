"""A progress line on stderr for long runs (matches, benchmarks).

Written here rather than taken from a library because ``bots_sdk`` must work
with only grpcio and protobuf installed. On a terminal it redraws one line; in
a log (not a tty) it prints a line at every tenth, so CI logs stay short.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``with Progress(1000, "games") as bar: ... bar.advance()``"""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(total, 0)
        self.label = label
        self.done = 0
        self._stream = stream or sys.stderr
        self._tty = self._stream.isatty()
        self._started = time.perf_counter()
        self._last_draw = 0.0
        self._next_tenth = 1

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def advance(self, count: int = 1, note: str = "") -> None:
        self.done += count
        now = time.perf_counter()
        if self._tty:
            if now - self._last_draw >= 0.1 or self.done >= self.total:
                self._last_draw = now
                self._stream.write("\r" + self._line(now, note) + "\x1b[K")
                self._stream.flush()
        elif self.total and self.done * 10 >= self._next_tenth * self.total:
            while self.done * 10 >= self._next_tenth * self.total:
                self._next_tenth += 1
            self._stream.write(self._line(now, note) + "\n")
            self._stream.flush()

    def close(self) -> None:
        if self._tty:
            self._stream.write("\r" + self._line(time.perf_counter(), "") + "\x1b[K\n")
            self._stream.flush()

    def _line(self, now: float, note: str) -> str:
        elapsed = now - self._started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        width = 28
        filled = width * self.done // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        text = f"{self.label} [{bar}] {self.done}/{self.total} {rate:,.1f}/s"
        if self.done < self.total:
            text += f" ETA {int(left) // 60}:{int(left) % 60:02d}"
        return text + (f" {note}" if note else "")
