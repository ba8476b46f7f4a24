"""The referee's end of a ``Play`` stream: gRPC over HTTP/2, spoken in the calling thread.

grpcio's Python API hands each message of a stream between threads (the caller,
the request reader, the channel's poller), and these switches were most of a
decision's cost (docs/protocol.md section 10). Here the thread that asks writes
the message's frames to the socket and reads the answer's frames itself, with the
deadline as the socket's timeout: no thread, no queue. Only what a client of one
stream at a time needs is spoken (RFC 9113): the settings, flow control both
ways, PING, RST_STREAM, GOAWAY, headers through ``hpack``, the gRPC message
framing and status trailers. The frames are read and written through
bots_sdk/http2_frames.py, as the bot's server (bots_sdk/http2_server.py) does.
The health check and Hello are calls of one message each way on the same
machinery (``unary``); the game calls of a bot that does not offer the stream
stay on grpcio (``bots_sdk/remote.py``).
"""

from __future__ import annotations

import socket
import struct
import time
from typing import NoReturn
from urllib.parse import unquote

import grpc
import hpack

from bots_sdk.grpc_wire import MAX_MESSAGE, WINDOW, prefixed
from bots_sdk.http2_frames import (
    ACK,
    CANCEL,
    CONTINUATION,
    DATA,
    DEFAULT_WINDOW,
    END_HEADERS,
    END_STREAM,
    GOAWAY,
    HEADERS,
    MAX_FRAME,
    PING,
    PREFACE,
    PUSH_PROMISE,
    RECV_BYTES,
    RST_STREAM,
    SETTINGS,
    SETTINGS_ENABLE_PUSH,
    SETTINGS_INITIAL_WINDOW_SIZE,
    SETTINGS_MAX_FRAME_SIZE,
    WINDOW_UPDATE,
    HeaderBlock,
    Http2Error,
    frame,
    goaway,
    read_frame,
    reset_code,
    settings,
    unpadded,
    window_increment,
)

STATUS = {code.value[0]: code for code in grpc.StatusCode}
HTTP_STATUS = {400: grpc.StatusCode.INTERNAL, 401: grpc.StatusCode.UNAUTHENTICATED,
               403: grpc.StatusCode.PERMISSION_DENIED, 404: grpc.StatusCode.UNIMPLEMENTED,
               429: grpc.StatusCode.UNAVAILABLE, 502: grpc.StatusCode.UNAVAILABLE,
               503: grpc.StatusCode.UNAVAILABLE, 504: grpc.StatusCode.UNAVAILABLE}
"""gRPC's documented mapping of an HTTP status that is not 200 to a status code, as its clients apply it."""


MAX_STREAM_ID = (1 << 31) - 1
"""The highest stream id HTTP/2 allows: a connection that has used them all takes no next call."""


class StreamError(Exception):
    """The call ended without an answer: ``code`` and ``details`` as gRPC would report them."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code
        self.details = details


class StreamTimeout(Exception):
    """No answer by the deadline (the stream is cancelled)."""


class StreamEnded(Exception):
    """The bot closed the stream with status OK instead of answering."""


def connect(address: str, timeout: float) -> socket.socket:
    """A socket to ``address``: a gRPC target (``unix:PATH`` or ``host:port``, as ``grpc_target`` gives)."""
    if address.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(address[5:])
        except OSError:
            sock.close()
            raise
        return sock
    host, _, port = address.rpartition(":")
    sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class Http2Stream:
    """One gRPC call at a time with a stream each way, on a connection that ``next_call`` keeps for the next one.

    ``send`` writes a message (waiting for the bot's flow-control window if it is
    full), ``receive`` reads the next one; both by an absolute ``time.monotonic``
    deadline. Any failure ends the call and the connection for good: later calls raise again.

    The referee plays a rotation's games with a bot on one connection, one call per game
    (bots_sdk/remote.py): a new connection cost the bot an accept, the settings both ways and a
    header block decoded from nothing, a third of a game's start. Nothing is written until the
    first message: the preface and the stream's headers go out with it, in one write.
    """

    def __init__(self, target: str, path: str, timeout: float) -> None:
        self._sock = connect(target, timeout)
        self._sock.settimeout(None)  # waits are bounded by the kernel's timeouts (``_wait_until``)
        self._timeout_us = 0
        self._encoder = hpack.Encoder()
        self._header_block = HeaderBlock(hpack.Decoder())
        self._input = bytearray()
        self._send_window = DEFAULT_WINDOW
        self._peer_initial_window = DEFAULT_WINDOW
        self._max_frame = MAX_FRAME
        self._window_left = WINDOW
        self._consumed = 0
        """Bytes read on the connection since its window was last given back."""
        self._going_away = False
        self._failure: Exception | None = None
        self._stream = -1
        self._outbox = (
            PREFACE
            + frame(SETTINGS, 0, 0, struct.pack(">HIHI", SETTINGS_ENABLE_PUSH, 0, SETTINGS_INITIAL_WINDOW_SIZE, WINDOW))
            + frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", WINDOW - DEFAULT_WINDOW))
        )
        """What goes out ahead of the next write."""
        self._begin(path)

    def _begin(self, path: str) -> None:
        """The next stream's state, and its headers in the outbox."""
        self._stream += 2
        self._stream_window = self._peer_initial_window
        self._stream_consumed = 0
        self._messages = bytearray()
        self._headers: list[tuple[str, str]] = []
        self._ended = False
        self._outbox += frame(HEADERS, END_HEADERS, self._stream, self._encoder.encode([
            (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
            ("content-type", "application/grpc"), ("te", "trailers"), ("user-agent", "durak-referee"),
        ]))

    def next_call(self, path: str) -> bool:
        """Start the next call on this connection, once the last one is over (``finish``); False where the
        connection cannot take one (it failed or was closed, or the bot said it is going away)."""
        if self._failure is not None or self._going_away or self._stream >= MAX_STREAM_ID - 2:
            return False
        self._begin(path)
        return True

    def finish(self) -> None:
        """End a call whose answers are all in, as ``cancel`` does, and keep the connection for ``next_call``.

        Written ahead of the next call's first message, not now: the bot is told when it next hears from us."""
        if self._failure is None:
            self._outbox += frame(RST_STREAM, 0, self._stream, struct.pack(">I", CANCEL))

    # -------------------------------------------------------------- the call

    def send(self, message: bytes, deadline: float, last: bool = False) -> None:
        """Write ``message``; with ``last``, the referee's side of the stream ends with it (a unary call's request)."""
        data = memoryview(prefixed(message))
        while data:
            self._raise_failure()
            room = min(self._send_window, self._stream_window, self._max_frame)
            if room <= 0:
                self._read(deadline)
                continue
            chunk, data = data[:room], data[room:]
            self._send_window -= len(chunk)
            self._stream_window -= len(chunk)
            self._write(frame(DATA, END_STREAM if last and not data else 0, self._stream, bytes(chunk)), deadline)

    def receive(self, deadline: float) -> bytes:
        """The bot's next message (``StreamEnded``, ``StreamError``, ``StreamTimeout`` if there is none)."""
        while True:
            if len(self._messages) >= 5:
                size = int.from_bytes(self._messages[1:5], "big")
                if self._messages[0]:
                    self._fail(StreamError(grpc.StatusCode.INTERNAL, "a compressed message, no encoding agreed"))
                if size > MAX_MESSAGE:
                    self._fail(StreamError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                           f"received message larger than max ({size} vs. {MAX_MESSAGE})"))
                if len(self._messages) >= 5 + size:
                    message = bytes(self._messages[5:5 + size])
                    del self._messages[:5 + size]
                    self._acknowledge(5 + size, deadline)
                    return message
            self._raise_failure()
            if self._ended:
                self._fail(self._status())
            self._read(deadline)

    def cancel(self) -> None:
        """End the call from our side, as gRPC cancels one (RST_STREAM CANCEL), and close the connection."""
        if self._failure is None:
            self._failure = StreamError(grpc.StatusCode.CANCELLED, "cancelled by the referee")
        if not self._outbox:  # else the call was never written: closing says it all
            try:
                self._sock.settimeout(0.05)
                self._sock.sendall(frame(RST_STREAM, 0, self._stream, struct.pack(">I", CANCEL)))
            except OSError:
                pass
        self._sock.close()

    def close(self) -> None:
        """Close the connection of a call that has ended (``cancel`` one that has not)."""
        if self._failure is None:
            self._failure = StreamError(grpc.StatusCode.CANCELLED, "the call is over")
        self._sock.close()

    # -------------------------------------------------------------- frames

    def _status(self) -> Exception:
        """What the trailers (or a trailers-only answer) say ended the call."""
        fields = dict(self._headers)
        if fields.get(":status", "200") != "200":
            status = int(fields[":status"])
            return StreamError(HTTP_STATUS.get(status, grpc.StatusCode.UNKNOWN), f"HTTP status {status}")
        if "grpc-status" not in fields:
            return StreamError(grpc.StatusCode.INTERNAL, "the stream ended without a gRPC status")
        code = STATUS.get(int(fields["grpc-status"]) if fields["grpc-status"].isdigit() else -1,
                          grpc.StatusCode.UNKNOWN)
        if code == grpc.StatusCode.OK:
            return StreamEnded()
        return StreamError(code, unquote(fields.get("grpc-message", "")))

    def _fail(self, failure: Exception) -> NoReturn:
        self._failure = failure
        self.cancel()
        raise failure

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure

    def _wait_until(self, deadline: float) -> None:
        """Bound the socket's next blocking send or receive by ``deadline`` (``TimeoutError`` if it is past).

        The kernel's timeouts (``SO_RCVTIMEO``, ``SO_SNDTIMEO``) are whole milliseconds, rounded down, until the
        last one: a game's calls share a limit, so they are set when it changes, not per call. Python's own
        socket timeout polls before every send and receive and switches the socket's blocking mode each time
        it is set, four system calls a decision more."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        timeout_us = int(left * 1000) * 1000 or max(1, int(left * 1_000_000))
        if timeout_us != self._timeout_us:
            self._timeout_us = timeout_us
            limit = struct.pack("@ll", timeout_us // 1_000_000, timeout_us % 1_000_000)
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, limit)
            self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, limit)

    def _write(self, data: bytes, deadline: float) -> None:
        if self._outbox:
            data, self._outbox = self._outbox + data, b""
        view = memoryview(data)
        try:
            while view:
                self._wait_until(deadline)
                try:
                    view = view[self._sock.send(view):]
                except BlockingIOError:  # the kernel's timeout: ``_wait_until`` says whether the deadline is past
                    continue
        except TimeoutError:
            self._fail(StreamTimeout())
        except OSError as error:
            self._fail(StreamError(grpc.StatusCode.UNAVAILABLE, f"sending: {error.strerror or error}"))

    def _read(self, deadline: float) -> None:
        """Read from the socket until at least one whole frame is handled."""
        while True:
            try:
                parsed = read_frame(self._input)
                if parsed is not None:
                    kind, flags, stream, payload, end = parsed
                    del self._input[:end]
                    self._handle(kind, flags, stream, payload, deadline)
                    return
            except Http2Error as error:  # the bot broke HTTP/2
                self._fail(StreamError(grpc.StatusCode.INTERNAL, str(error)))
            try:
                self._wait_until(deadline)
                data = self._sock.recv(RECV_BYTES)
            except BlockingIOError:  # the kernel's timeout, up to a millisecond early: wait out the rest
                continue
            except TimeoutError:
                self._fail(StreamTimeout())
            except OSError as error:
                self._fail(StreamError(grpc.StatusCode.UNAVAILABLE, f"reading: {error.strerror or error}"))
            if not data:
                self._fail(StreamError(grpc.StatusCode.UNAVAILABLE, "the bot closed the connection"))
            self._input += data

    def _handle(self, kind: int, flags: int, stream: int, payload: bytes, deadline: float) -> None:
        if self._header_block.stream or kind in (HEADERS, CONTINUATION):
            fields = self._header_block.add(kind, flags, stream, payload)
            if fields is not None and stream == self._stream:
                self._headers += [(name.decode(errors="replace"), value.decode(errors="replace"))
                                  for name, value in fields]
                self._ended = self._ended or self._header_block.ends_stream
        elif kind == DATA:
            self._window_left -= len(payload)
            if self._window_left < 0:
                self._fail(StreamError(grpc.StatusCode.INTERNAL, "the bot sent past its flow-control window"))
            if stream != self._stream:
                return  # not given back: a bot that sends on streams we did not open (or ended) fills its window
            data = unpadded(kind, flags, payload)
            self._acknowledge(len(payload) - len(data), deadline)  # the padding; the rest once read as messages
            self._messages += data
            self._ended = self._ended or bool(flags & END_STREAM)
        elif kind == SETTINGS:
            if not flags & ACK:
                self._settings(payload)
                self._write(frame(SETTINGS, ACK, 0), deadline)
        elif kind == PING:
            if not flags & ACK:
                self._write(frame(PING, ACK, 0, payload), deadline)
        elif kind == WINDOW_UPDATE:
            increment = window_increment(payload)
            if stream == 0:
                self._send_window += increment
            elif stream == self._stream:
                self._stream_window += increment
        elif kind == RST_STREAM:
            code = reset_code(payload)
            if stream == self._stream:
                self._fail(StreamError(grpc.StatusCode.INTERNAL, f"the bot reset the stream (HTTP/2 error {code})"))
        elif kind == GOAWAY:
            last, code, debug = goaway(stream, payload)
            if last < self._stream or code:
                said = debug.decode(errors="replace")
                self._fail(StreamError(grpc.StatusCode.UNAVAILABLE, f"the bot went away (HTTP/2 error {code}) {said}"))
            self._going_away = True
        elif kind == PUSH_PROMISE:
            self._fail(StreamError(grpc.StatusCode.INTERNAL, "the bot pushed, which was not enabled"))

    def _settings(self, payload: bytes) -> None:
        for key, value in settings(payload):
            if key == SETTINGS_INITIAL_WINDOW_SIZE:
                self._stream_window += value - self._peer_initial_window
                self._peer_initial_window = value
            elif key == SETTINGS_MAX_FRAME_SIZE:
                self._max_frame = value

    def _acknowledge(self, size: int, deadline: float) -> None:
        """Give the windows back for what is read, once half of one is: a WINDOW_UPDATE per 8 MiB.

        Only bytes read as messages (or padding) on the call's stream count, so a bot that sends more than it
        is asked fills the connection's window, not the referee's memory.
        """
        self._consumed += size
        self._stream_consumed += size
        updates = b""
        if self._consumed >= WINDOW // 2:
            self._window_left += self._consumed
            updates += frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", self._consumed))
            self._consumed = 0
        if self._stream_consumed >= WINDOW // 2:
            updates += frame(WINDOW_UPDATE, 0, self._stream, struct.pack(">I", self._stream_consumed))
            self._stream_consumed = 0
        if updates:
            self._write(updates, deadline)


def unary(target: str, path: str, request: bytes, timeout: float) -> bytes:
    """One unary call on a connection of its own, answered within ``timeout`` seconds: the health check and Hello.

    Through grpcio they cost a channel, its connection and its threads' hand-offs at every bot start, all
    before the first game (whose stream is ours anyway). Raises what ``Http2Stream`` raises, ``OSError`` if
    the bot cannot be reached, and ``StreamError`` INTERNAL for an answer that is not exactly one message.
    """
    deadline = time.monotonic() + timeout
    call = Http2Stream(target, path, timeout)
    try:
        call.send(request, deadline, last=True)
        try:
            answer = call.receive(deadline)
        except StreamEnded:
            raise StreamError(grpc.StatusCode.INTERNAL, "the call ended with no answer") from None
        try:
            call.receive(deadline)
        except StreamEnded:
            call.close()
            return answer
        raise StreamError(grpc.StatusCode.INTERNAL, "more than one answer to a unary call")
    except BaseException:
        call.cancel()
        raise
