"""What both ends of our HTTP/2 gRPC share (bots_sdk/http2.py, the referee's; bots_sdk/http2_server.py, the bot's):
the message framing and the limits, so the two cannot drift apart; the HTTP/2 frames beneath are shared the same way
(bots_sdk/http2_frames.py). Nothing here imports grpc."""

from __future__ import annotations

import struct

MAX_MESSAGE = 4 * 1024 * 1024
"""The largest message read, either way: grpcio's default, which both ends applied when they ran on grpcio."""
WINDOW = 1 << 24
"""What the other end may send before we say we read it (each stream, and the connection)."""


def prefixed(message: bytes) -> bytes:
    """``message`` as gRPC sends it over HTTP/2: uncompressed, after its four-byte length."""
    return b"\0" + struct.pack(">I", len(message)) + message
