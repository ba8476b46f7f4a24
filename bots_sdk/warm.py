"""``python -m bots_sdk.warm``: the stub of a pooled sandbox, a Python that has paid a bot's imports before its bot.

The worker starts it in a full sandbox ahead of any bot (worker/sandbox/warm.py,
docs/sandbox.md section 3): what a Python bot spends most of its start on, importing
protobuf, hpack and the engine, is done here while no match waits. Its stdin is a
socket to the worker: it says ``ready`` once imported, then waits for the one line
that assigns it a bot, ``{"argv": [...], "cwd": "..."}``, the arguments a cold start
would give ``python`` (``-m bots_sdk.bots NAME`` or ``ENTRY``) and its directory.
It acknowledges with ``go``, gives up the socket (stdin becomes ``/dev/null``, as a
cold start's), and runs the bot as ``python`` would have: from then on it is the bot.
The socket closed without a line ends it.
"""

from __future__ import annotations

import json
import os
import runpy
import sys

import bots_sdk.bots.gentle
import bots_sdk.bots.random_bot
import bots_sdk.bots.strong
import bots_sdk.server  # noqa: F401

CONTROL_FD = 0


def read_line(fd: int) -> bytes:
    """Bytes up to the first newline, read one at a time so nothing after it is taken from the socket."""
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            return b""
        line += byte
    return line


def run(argv: list[str]) -> None:
    """Run ``python ARGV`` in this process: ``-m MODULE ARGS`` or ``SCRIPT ARGS`` (the forms a cold start uses)."""
    if argv[0] == "-m":
        sys.argv = [argv[0], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
    runpy.run_path(argv[0], run_name="__main__")


def main() -> None:
    os.write(CONTROL_FD, b"ready\n")
    line = read_line(CONTROL_FD)
    if not line:
        sys.exit(0)
    order = json.loads(line)
    os.write(CONTROL_FD, b"go\n")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, CONTROL_FD)
    os.close(null)
    os.chdir(order["cwd"])
    run(order["argv"])


if __name__ == "__main__":
    main()
