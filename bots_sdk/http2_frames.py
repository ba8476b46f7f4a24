"""The HTTP/2 frame layer both ends of our gRPC speak by hand (RFC 9113): bots_sdk/http2.py, the referee's
client, and bots_sdk/http2_server.py, the bot's server.

Frames are few and simple, and a general HTTP/2 library's bookkeeping of each one cost more than the
rest of a decision (docs/protocol.md section 10), so each end keeps the state it needs and takes from
here what must be the same on both: the numbers of the protocol, a frame's bytes, reading frames out of
what a socket gave, the limits on what a peer may send (16 KiB frames, 64 KiB header blocks), and the
checks whose failure is a connection error. Headers go through ``hpack`` (grpcio's client uses Huffman
coding and the dynamic table). Nothing here imports grpc: the bot's side never does.
"""

from __future__ import annotations

import struct

import hpack

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM = ACK = 0x1
END_HEADERS, PADDED, PRIORITY_FLAG = 0x4, 0x8, 0x20
(SETTINGS_HEADER_TABLE_SIZE, SETTINGS_ENABLE_PUSH, SETTINGS_MAX_CONCURRENT_STREAMS, SETTINGS_INITIAL_WINDOW_SIZE,
 SETTINGS_MAX_FRAME_SIZE, SETTINGS_MAX_HEADER_LIST_SIZE) = range(1, 7)
(NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, FLOW_CONTROL_ERROR, SETTINGS_TIMEOUT, STREAM_CLOSED, FRAME_SIZE_ERROR,
 REFUSED_STREAM, CANCEL, COMPRESSION_ERROR) = range(10)
DEFAULT_WINDOW = 65535
"""Every window's size until a SETTINGS frame or a WINDOW_UPDATE says otherwise."""
MAX_WINDOW = (1 << 31) - 1
"""No window may grow past this: a peer's WINDOW_UPDATE or SETTINGS that would is a flow-control error."""
MAX_FRAME = 16384
"""The largest frame a peer may send us: HTTP/2's default, which neither end raises."""
MAX_HEADER_BLOCK = 65536
RECV_BYTES = 65536
"""What one ``recv`` asks for, on either side. More costs more: CPython allocates the whole size for each call
before the kernel fills any of it, and a megabyte, above glibc's threshold for its own pages, was mapped and
unmapped at every receive: 16 microseconds a call more than 64 KiB, where a decision's request is under 2 KiB
(a message larger is read in several)."""
"""The most header bytes gathered for one block (hpack's default limit of a decoded header list): past it, a
peer that sends CONTINUATION frames without end is cut off before it costs memory."""


class Http2Error(Exception):
    """The peer broke HTTP/2: a connection error (RFC 9113 section 5.4.1) with its error ``code``."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def frame(kind: int, flags: int, stream: int, payload: bytes | bytearray = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes((kind, flags)) + struct.pack(">I", stream) + payload


def read_frame(buffer: bytearray, start: int = 0) -> tuple[int, int, int, bytes, int] | None:
    """The frame at ``buffer[start:]`` as (type, flags, stream, payload, where it ends), ``None`` until it is all
    there. Its length is checked from the first nine bytes, so a peer cannot make us wait for (and buffer) a
    frame over ``MAX_FRAME``."""
    if len(buffer) - start < 9:
        return None
    length = int.from_bytes(buffer[start:start + 3], "big")
    if length > MAX_FRAME:
        raise Http2Error(FRAME_SIZE_ERROR, f"a frame of {length} bytes, over {MAX_FRAME}")
    end = start + 9 + length
    if len(buffer) < end:
        return None
    stream = int.from_bytes(buffer[start + 5:start + 9], "big") & 0x7FFFFFFF
    return buffer[start + 3], buffer[start + 4], stream, bytes(buffer[start + 9:end]), end


def unpadded(kind: int, flags: int, payload: bytes) -> bytes:
    """A DATA frame's data or a HEADERS frame's block fragment: without its padding and priority fields."""
    if flags & PADDED:
        if not payload or payload[0] >= len(payload):
            raise Http2Error(PROTOCOL_ERROR, "padding as long as the frame")
        payload = payload[1:len(payload) - payload[0]]
    if kind == HEADERS and flags & PRIORITY_FLAG:
        if len(payload) < 5:
            raise Http2Error(FRAME_SIZE_ERROR, "a HEADERS frame too short for its priority")
        payload = payload[5:]
    return payload


def settings(payload: bytes) -> list[tuple[int, int]]:
    """A SETTINGS frame's (identifier, value) pairs, each value checked as RFC 9113 section 6.5.2 requires; unknown
    identifiers are left for the caller to ignore."""
    if len(payload) % 6:
        raise Http2Error(FRAME_SIZE_ERROR, f"a SETTINGS frame of {len(payload)} bytes")
    pairs = [struct.unpack_from(">HI", payload, offset) for offset in range(0, len(payload), 6)]
    for key, value in pairs:
        if key == SETTINGS_ENABLE_PUSH and value > 1:
            raise Http2Error(PROTOCOL_ERROR, f"SETTINGS_ENABLE_PUSH of {value}")
        if key == SETTINGS_INITIAL_WINDOW_SIZE and value > MAX_WINDOW:
            raise Http2Error(FLOW_CONTROL_ERROR, f"SETTINGS_INITIAL_WINDOW_SIZE of {value}")
        if key == SETTINGS_MAX_FRAME_SIZE and not MAX_FRAME <= value < 1 << 24:
            raise Http2Error(PROTOCOL_ERROR, f"SETTINGS_MAX_FRAME_SIZE of {value}")
    return pairs


def window_increment(payload: bytes) -> int:
    """A WINDOW_UPDATE frame's increment (zero is the caller's to refuse: a stream error on a stream)."""
    if len(payload) != 4:
        raise Http2Error(FRAME_SIZE_ERROR, f"a WINDOW_UPDATE frame of {len(payload)} bytes")
    return int.from_bytes(payload, "big") & 0x7FFFFFFF


def reset_code(payload: bytes) -> int:
    """A RST_STREAM frame's error code."""
    if len(payload) != 4:
        raise Http2Error(FRAME_SIZE_ERROR, f"a RST_STREAM frame of {len(payload)} bytes")
    return int.from_bytes(payload, "big")


def goaway(stream: int, payload: bytes) -> tuple[int, int, bytes]:
    """A GOAWAY frame's last stream, error code and debug data."""
    if stream or len(payload) < 8:
        raise Http2Error(PROTOCOL_ERROR, "a malformed GOAWAY frame")
    last, code = struct.unpack_from(">II", payload)
    return last & 0x7FFFFFFF, code, payload[8:]


class HeaderBlock:
    """Gathers a header block from a HEADERS frame and its CONTINUATION frames, and decodes it.

    While a block is open, the next frame must continue it (RFC 9113 section 6.10); a block over
    ``MAX_HEADER_BLOCK`` bytes is refused before it is decoded. A block must be decoded even for a stream
    the caller ignores: the decoder's dynamic table is the connection's.
    """

    def __init__(self, decoder: hpack.Decoder) -> None:
        self.decoder = decoder
        self.stream = 0
        """The stream whose block is open (0: none)."""
        self.ends_stream = False
        self._data = bytearray()

    def add(self, kind: int, flags: int, stream: int, payload: bytes) -> list[tuple[bytes, bytes]] | None:
        """Take a frame (any frame while a block is open); the decoded headers once the block ends."""
        if self.stream and (kind != CONTINUATION or stream != self.stream):
            raise Http2Error(PROTOCOL_ERROR, f"a frame of type {kind} inside a header block")
        if kind == HEADERS:
            if not stream:
                raise Http2Error(PROTOCOL_ERROR, "HEADERS on stream 0")
            self._data = bytearray(unpadded(kind, flags, payload))
            self.ends_stream = bool(flags & END_STREAM)
            self.stream = stream
        elif not self.stream:
            raise Http2Error(PROTOCOL_ERROR, "CONTINUATION without HEADERS")
        else:
            self._data += payload
        if len(self._data) > MAX_HEADER_BLOCK:
            raise Http2Error(PROTOCOL_ERROR, f"headers over {MAX_HEADER_BLOCK} bytes")
        if not flags & END_HEADERS:
            return None
        self.stream = 0
        try:
            fields = self.decoder.decode(bytes(self._data), raw=True)
        except hpack.HPACKError as error:
            raise Http2Error(COMPRESSION_ERROR, f"unreadable headers: {error}") from None
        finally:
            self._data = bytearray()
        return [(bytes(name), bytes(value)) for name, value in fields]
