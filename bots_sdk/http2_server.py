"""The bot's end of the contract: a gRPC server over HTTP/2 in one thread, its frames spoken by hand.

grpcio's server reads a connection in its poller thread and hands each message to
a handler thread, and back: two thread switches a decision, most of what a ``Play``
stream's decision cost once the referee's side spoke HTTP/2 itself
(docs/protocol.md section 10). Here one thread waits on the listening sockets and
the connections (``selectors``), reads the frames, calls the handler and writes
its answer: nothing is handed between threads. Calls are answered one at a time,
which the contract promises anyway.

The frames are read and written here, with the referee's client (bots_sdk/http2.py),
through bots_sdk/http2_frames.py and ``hpack``, not the ``h2`` package this server
was first built on: importing ``h2`` and ``hyperframe`` was about 8 ms of every
bot's start to SERVING, and what a gRPC server needs of HTTP/2 is small.

What gRPC clients use is spoken: unary calls, streams of one answer per request,
server streams pushed later (the health service's ``Watch``), status trailers with
``grpc-status``/``grpc-message`` as grpcio's server writes them (an unknown method
is UNIMPLEMENTED, a handler's exception UNKNOWN), flow control both ways, PING and
SETTINGS, and a graceful stop: GOAWAY, the calls under way finished for a grace
period, then the connections closed. A client that breaks HTTP/2 (RFC 9113) is
sent GOAWAY with the error and dropped; none can make the server hold more than
the windows it gave, or cost the other connections more than its share of the thread.
"""

from __future__ import annotations

import collections
import contextlib
import selectors
import socket
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NoReturn, Protocol

import hpack
from google.protobuf.message import DecodeError, Message

from bots_sdk import http2_frames as frames
from bots_sdk.grpc_wire import MAX_MESSAGE, WINDOW, prefixed
from bots_sdk.status import StatusCode

RESPONSE_HEADERS = [(b":status", b"200"), (b"content-type", b"application/grpc")]
MAX_STREAMS = 100
"""Streams a connection may hold open at once (grpcio's servers allow 100 as well)."""
MAX_HEADER_LIST = 16384
"""The most a request's decoded headers may take (hpack counts each field's name and value and 32 bytes)."""
OUTPUT_LIMIT = 1 << 20
"""Past this much unsent output a connection is not read until the client takes it: a client that does not
read is not answered into our memory."""
OPENING = frames.frame(frames.SETTINGS, 0, 0, struct.pack(
    ">HIHIHI", frames.SETTINGS_MAX_CONCURRENT_STREAMS, MAX_STREAMS, frames.SETTINGS_INITIAL_WINDOW_SIZE, WINDOW,
    frames.SETTINGS_MAX_HEADER_LIST_SIZE, MAX_HEADER_LIST,
)) + frames.frame(frames.WINDOW_UPDATE, 0, 0, struct.pack(">I", WINDOW - frames.DEFAULT_WINDOW))
"""The server's preface: its settings, and the connection's window raised to ours."""


class Aborting(Protocol):
    """What the SDK's handlers need of a call's context: ``Context`` here, grpcio's through
    bots_sdk/grpcio_servicers.py."""

    def abort(self, code: StatusCode, details: str) -> NoReturn: ...


class Abort(Exception):
    """Ends the call with ``code`` and ``details``, as ``grpc.ServicerContext.abort`` does."""

    def __init__(self, code: StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code
        self.details = details


class Context:
    """What a handler gets in place of ``grpc.ServicerContext``: the call's deadline (``time.monotonic``, from
    its ``grpc-timeout``) and ``abort``."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline

    def abort(self, code: StatusCode, details: str) -> NoReturn:
        raise Abort(code, details)


Handler = Callable[[Any, Context], Message]


@dataclass(frozen=True)
class Method:
    """One method of a service: ``unary`` answers its request; ``stream`` answers each request of a stream
    with one message; ``watch`` answers its request, and again after each ``Http2Server.changed`` that changes
    the answer."""

    kind: Literal["unary", "stream", "watch"]
    request: type[Message]
    handler: Handler


class _Call:
    """One stream's call. A plain class, not a dataclass: making one is a fraction of a millisecond of every
    bot's start."""

    __slots__ = ("context", "ended", "headers_sent", "method", "pending", "read", "receive_window", "received",
                 "send_window", "stream", "trailers")

    def __init__(self, stream: int, method: Method | None, context: Context, send_window: int, ended: bool) -> None:
        self.stream = stream
        self.method = method
        self.context = context
        self.send_window = send_window
        """What the client lets us send on this stream (its SETTINGS and WINDOW_UPDATEs)."""
        self.receive_window = WINDOW
        """What the client may still send on this stream before we give some back."""
        self.read = 0
        """Bytes read (handled as messages, or dropped) that the stream's window has not been given back yet."""
        self.received = bytearray()
        self.pending = bytearray()
        """Message bytes waiting for the client's flow-control window: while there are any, no request is read, so
        a client that does not take its answers holds no more than its window."""
        self.trailers: list[tuple[bytes, bytes]] | None = None
        """Sent once ``pending`` is out."""
        self.headers_sent = False
        self.ended = ended
        """The client ended its side of the stream (END_STREAM)."""


class _Watch:
    __slots__ = ("connection", "request", "sent", "stream")

    def __init__(self, connection: _Connection, stream: int, request: Message, sent: bytes) -> None:
        self.connection = connection
        self.stream = stream
        self.request = request
        self.sent = sent


class _Connection:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.input = bytearray()
        self.output = bytearray(OPENING)
        self.encoder = hpack.Encoder()
        self.headers = frames.HeaderBlock(hpack.Decoder(max_header_list_size=MAX_HEADER_LIST))
        self.calls: dict[int, _Call] = {}
        self.preface = False
        """The client's preface read."""
        self.settled = False
        """Its first SETTINGS read (RFC 9113 section 3.4: the first frame)."""
        self.last_stream = 0
        """The highest stream the client opened: a frame on a higher one is on a stream never opened."""
        self.send_window = frames.DEFAULT_WINDOW
        self.peer_window = frames.DEFAULT_WINDOW
        """The client's SETTINGS_INITIAL_WINDOW_SIZE: each new stream's ``send_window``."""
        self.peer_max_frame = frames.MAX_FRAME
        self.receive_window = WINDOW
        self.read = 0
        """Bytes read that the connection's window has not been given back yet."""
        self.going_away = False
        """We sent GOAWAY: no new streams."""
        self.closing = False
        """The client sent GOAWAY: close once its calls are answered."""
        self.events = selectors.EVENT_READ
        """What the selector is asked of the socket: to read unless ``output`` is over ``OUTPUT_LIMIT``, to write
        while there is ``output``."""


def _percent_encoded(text: str) -> bytes:
    """``grpc-message`` as gRPC over HTTP/2 specifies it: UTF-8, every byte outside space..``~`` and ``%`` itself
    as ``%XX``. Two lines rather than ``urllib.parse``, whose import was a millisecond of every bot's start."""
    return b"".join(b"%%%02X" % byte if byte < 0x20 or byte > 0x7E or byte == 0x25 else bytes((byte,))
                    for byte in text.encode())


def _status_trailers(code: StatusCode, details: str) -> list[tuple[bytes, bytes]]:
    trailers = [(b"grpc-status", str(int(code)).encode())]
    if details:
        trailers.append((b"grpc-message", _percent_encoded(details)))
    return trailers


def _deadline(timeout: bytes | None) -> float | None:
    """The absolute deadline a ``grpc-timeout`` header gives (``None`` without one, or if unreadable)."""
    if not timeout or len(timeout) < 2 or not timeout[:-1].isdigit():
        return None
    unit = {b"H": 3600.0, b"M": 60.0, b"S": 1.0, b"m": 1e-3, b"u": 1e-6, b"n": 1e-9}.get(timeout[-1:])
    return None if unit is None else time.monotonic() + int(timeout[:-1]) * unit


class Http2Server:
    """Serves ``methods`` (by path, ``/package.Service/Method``) on the given listening sockets in one thread."""

    def __init__(self, methods: dict[str, Method], listeners: list[socket.socket]) -> None:
        self._methods = methods
        self._listeners = listeners
        self._selector = selectors.DefaultSelector()
        self._wake_read, self._wake_write = socket.socketpair()
        self._tasks: collections.deque[Callable[[], None]] = collections.deque()
        self._connections: dict[socket.socket, _Connection] = {}
        self._watchers: list[_Watch] = []
        self._thread: threading.Thread | None = None
        self._stop_by: float | None = None

    # ------------------------------------------------------------------ control (any thread)

    def start(self) -> Http2Server:
        """Serve in a thread of its own (``stop`` ends it)."""
        self._register()
        self._thread = threading.Thread(target=self._run, name="durak-bot-server", daemon=True)
        self._thread.start()
        return self

    def run(self) -> None:
        """Serve in the calling thread until ``request_stop`` (from a signal handler, a task) has run its course.

        A served bot's only thread then is this one: a bot frozen between its turns (the arena's cgroup freezer)
        is woken once per thread at every freeze and thaw, and an idle main thread was half of those wake-ups."""
        self._register()
        self._run()

    def _register(self) -> None:
        for listener in self._listeners:
            listener.setblocking(False)
            self._selector.register(listener, selectors.EVENT_READ, None)
        self._wake_read.setblocking(False)
        self._wake_write.setblocking(False)  # a wake-up already waiting is enough: a full pipe is no reason to block
        self._selector.register(self._wake_read, selectors.EVENT_READ, None)

    def call_soon(self, task: Callable[[], None]) -> None:
        """Run ``task`` in the server's thread, between calls (safe from a signal handler of that thread too)."""
        self._tasks.append(task)
        with contextlib.suppress(OSError):
            self._wake_write.send(b"\0")

    def changed(self) -> None:
        """Something ``watch`` calls answer changed: ask their handlers again, send the answers that differ."""
        for watch in list(self._watchers):
            call = watch.connection.calls.get(watch.stream)
            if call is None or call.method is None:
                continue
            data = call.method.handler(watch.request, call.context).SerializeToString()
            if data != watch.sent:
                watch.sent = data
                self._send_message(watch.connection, call, data)
                self._flush(watch.connection)

    def stop(self, grace: float) -> None:
        """Stop taking connections and calls; finish those under way within ``grace`` s, then close all (for a
        server ``start`` started: this waits for its thread)."""
        if self._thread is None:
            return
        self.request_stop(grace)
        self._thread.join()
        self._thread = None

    def request_stop(self, grace: float) -> None:
        """``stop`` without waiting: the serving thread winds down by itself. A second request (a second Ctrl-C)
        changes nothing."""

        def begin() -> None:
            if self._stop_by is not None:
                return
            self._stop_by = time.monotonic() + grace
            for listener in self._listeners:
                self._selector.unregister(listener)
                listener.close()
            self.changed()
            for watch in list(self._watchers):  # a watch never ends by itself: end it now
                call = watch.connection.calls.get(watch.stream)
                if call is not None:
                    self._finish(watch.connection, call, StatusCode.OK, "")
            for connection in list(self._connections.values()):
                self._go_away(connection, frames.NO_ERROR, "")
                self._flush(connection)

        self.call_soon(begin)

    # ------------------------------------------------------------------ the loop

    def _run(self) -> None:
        try:
            while True:
                if self._stop_by is not None:
                    if not any(c.calls for c in self._connections.values()) or time.monotonic() > self._stop_by:
                        break
                    timeout: float | None = max(0.0, self._stop_by - time.monotonic())
                else:
                    timeout = None
                for key, events in self._selector.select(timeout):
                    sock: Any = key.fileobj
                    if sock is self._wake_read:
                        with contextlib.suppress(OSError):
                            sock.recv(4096)
                        while self._tasks:
                            self._tasks.popleft()()
                    elif sock in self._listeners:
                        self._accept(sock)
                    else:
                        connection = self._connections.get(sock)
                        if connection is not None:
                            self._serve(connection, events)
        finally:
            for connection in list(self._connections.values()):
                self._close(connection)
            for listener in self._listeners:
                listener.close()
            self._selector.close()
            self._wake_read.close()
            self._wake_write.close()

    def _serve(self, connection: _Connection, events: int) -> None:
        """Write what waits and read what came; a failure of ours closes this connection, not the server."""
        try:
            if events & selectors.EVENT_WRITE:
                self._flush(connection)
            if events & selectors.EVENT_READ and connection.sock in self._connections:
                self._receive(connection)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            self._close(connection)

    def _accept(self, listener: socket.socket) -> None:
        try:
            sock, _ = listener.accept()
        except OSError:  # gone before we took it, or the listener closed by a stop
            return
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        connection = _Connection(sock)
        self._connections[sock] = connection
        self._selector.register(sock, selectors.EVENT_READ, None)
        self._flush(connection)

    def _close(self, connection: _Connection) -> None:
        if self._connections.pop(connection.sock, None) is None:
            return
        self._watchers = [watch for watch in self._watchers if watch.connection is not connection]
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(connection.sock)
        connection.sock.close()

    def _flush(self, connection: _Connection) -> None:
        """Write what there is to send; what the socket does not take now waits for it to be writable."""
        if connection.sock not in self._connections:
            return
        if connection.output:
            try:
                sent = connection.sock.send(connection.output)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                self._close(connection)
                return
            del connection.output[:sent]
            if not connection.output:
                for call in list(connection.calls.values()):  # held back by OUTPUT_LIMIT
                    if call.pending:
                        self._resume(connection, call)
        if connection.closing and not connection.calls and not connection.output:
            self._close(connection)
            return
        events = ((selectors.EVENT_READ if len(connection.output) < OUTPUT_LIMIT else 0)
                  | (selectors.EVENT_WRITE if connection.output else 0))
        if events != connection.events:
            connection.events = events
            self._selector.modify(connection.sock, events, None)

    def _receive(self, connection: _Connection) -> None:
        try:
            data = connection.sock.recv(frames.RECV_BYTES)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._close(connection)
            return
        connection.input += data
        try:
            self._read_frames(connection)
        except frames.Http2Error as error:  # the client broke HTTP/2: say why (GOAWAY) and hang up
            self._go_away(connection, error.code, str(error))
            self._flush(connection)
            self._close(connection)
            return
        self._flush(connection)

    def _read_frames(self, connection: _Connection) -> None:
        buffer = connection.input
        start = 0
        if not connection.preface:
            if not frames.PREFACE.startswith(buffer[:len(frames.PREFACE)]):
                raise frames.Http2Error(frames.PROTOCOL_ERROR, "not the HTTP/2 preface")
            if len(buffer) < len(frames.PREFACE):
                return
            connection.preface = True
            start = len(frames.PREFACE)
        try:
            while connection.sock in self._connections:
                parsed = frames.read_frame(buffer, start)
                if parsed is None:
                    return
                kind, flags, stream, payload, start = parsed
                self._frame(connection, kind, flags, stream, payload)
        finally:
            del buffer[:start]

    # ------------------------------------------------------------------ frames

    def _frame(self, connection: _Connection, kind: int, flags: int, stream: int, payload: bytes) -> None:
        """Act on one frame (RFC 9113 section 6); what breaks the protocol raises ``Http2Error``. Unknown frame
        types are ignored, as section 5.5 asks."""
        if not connection.settled:
            if kind != frames.SETTINGS or flags & frames.ACK:
                raise frames.Http2Error(frames.PROTOCOL_ERROR, "the preface's SETTINGS frame is missing")
            connection.settled = True
        if connection.headers.stream or kind in (frames.HEADERS, frames.CONTINUATION):
            fields = connection.headers.add(kind, flags, stream, payload)
            if fields is not None:
                self._request(connection, stream, fields, connection.headers.ends_stream)
        elif kind == frames.DATA:
            self._data(connection, flags, stream, payload)
        elif kind == frames.WINDOW_UPDATE:
            self._window_update(connection, stream, frames.window_increment(payload))
        elif kind == frames.SETTINGS:
            if stream:
                raise frames.Http2Error(frames.PROTOCOL_ERROR, "SETTINGS on a stream")
            if flags & frames.ACK:
                if payload:
                    raise frames.Http2Error(frames.FRAME_SIZE_ERROR, "a SETTINGS acknowledgement with a payload")
            else:
                self._settings(connection, payload)
        elif kind == frames.PING:
            if len(payload) != 8:
                raise frames.Http2Error(frames.FRAME_SIZE_ERROR, f"a PING frame of {len(payload)} bytes")
            if stream:
                raise frames.Http2Error(frames.PROTOCOL_ERROR, "PING on a stream")
            if not flags & frames.ACK:
                connection.output += frames.frame(frames.PING, frames.ACK, 0, payload)
        elif kind == frames.RST_STREAM:
            frames.reset_code(payload)
            self._opened(connection, stream, "RST_STREAM")
            call = connection.calls.get(stream)
            if call is not None:
                self._forget(connection, call)
        elif kind == frames.PRIORITY:  # deprecated (section 5.3.2), but still a frame to check
            if len(payload) != 5:
                raise frames.Http2Error(frames.FRAME_SIZE_ERROR, f"a PRIORITY frame of {len(payload)} bytes")
            if not stream:
                raise frames.Http2Error(frames.PROTOCOL_ERROR, "PRIORITY on stream 0")
        elif kind == frames.GOAWAY:
            connection.closing = True
            if frames.goaway(stream, payload)[1] != frames.NO_ERROR:  # the client failed: nothing more is read
                self._close(connection)
        elif kind == frames.PUSH_PROMISE:
            raise frames.Http2Error(frames.PROTOCOL_ERROR, "a client may not push")

    def _opened(self, connection: _Connection, stream: int, kind: str) -> None:
        """Refuse a frame that needs an opened stream on one that never was (RFC 9113 section 5.1, "idle")."""
        if not stream or stream > connection.last_stream or not stream % 2:
            raise frames.Http2Error(frames.PROTOCOL_ERROR, f"{kind} on stream {stream}, which was never opened")

    def _request(self, connection: _Connection, stream: int, headers: list[tuple[bytes, bytes]], ends: bool) -> None:
        """A header block: a new call's request headers, or the trailers that end the client's side."""
        opened = connection.calls.get(stream)
        if opened is not None:
            if not ends:
                raise frames.Http2Error(frames.PROTOCOL_ERROR, f"headers inside the request on stream {stream}")
            opened.ended = True
            self._answer(connection, opened)
            return
        if not stream % 2:
            raise frames.Http2Error(frames.PROTOCOL_ERROR, f"a client opened stream {stream}, an even one")
        if stream <= connection.last_stream:
            return  # a stream already ended; its block is decoded, which is all it was needed for
        connection.last_stream = stream
        if connection.going_away or len(connection.calls) >= MAX_STREAMS:
            connection.output += frames.frame(frames.RST_STREAM, 0, stream, struct.pack(">I", frames.REFUSED_STREAM))
            return
        fields = dict(headers)
        path = fields.get(b":path", b"").decode(errors="replace")
        call = _Call(stream, self._methods.get(path), Context(_deadline(fields.get(b"grpc-timeout"))),
                     connection.peer_window, ends)
        connection.calls[stream] = call
        if call.method is None:
            self._finish(connection, call, StatusCode.UNIMPLEMENTED, "Method not found!")
        elif fields.get(b"content-type", b"").split(b";")[0].split(b"+")[0] != b"application/grpc":
            self._finish(connection, call, StatusCode.UNKNOWN, "unsupported content-type")
        elif ends:
            self._answer(connection, call)

    def _data(self, connection: _Connection, flags: int, stream: int, payload: bytes) -> None:
        """A DATA frame: counted against both windows whatever becomes of it (section 6.9), kept for its call."""
        self._opened(connection, stream, "DATA")
        connection.receive_window -= len(payload)
        if connection.receive_window < 0:
            raise frames.Http2Error(frames.FLOW_CONTROL_ERROR, "DATA past the connection's flow-control window")
        call = connection.calls.get(stream)
        if call is None:  # a stream that ended: the connection's window is given back, the data dropped
            self._read(connection, None, len(payload))
            return
        call.receive_window -= len(payload)
        if call.receive_window < 0:
            raise frames.Http2Error(frames.FLOW_CONTROL_ERROR, f"DATA past stream {stream}'s flow-control window")
        if call.ended:
            raise frames.Http2Error(frames.STREAM_CLOSED, f"DATA after the end of stream {stream}")
        data = frames.unpadded(frames.DATA, flags, payload)
        if call.trailers is None:
            self._read(connection, call, len(payload) - len(data))  # the padding; the data once read as messages
            call.received += data
        else:  # answered already: whatever else the client sends is dropped
            self._read(connection, call, len(payload))
        call.ended = bool(flags & frames.END_STREAM)
        self._answer(connection, call)

    def _read(self, connection: _Connection, call: _Call | None, size: int) -> None:
        """Give the windows back for ``size`` bytes read, once half of a window is: a WINDOW_UPDATE per 8 MiB.

        Only bytes read (as messages, padding, or dropped for a call that is over) count: a client that sends
        requests faster than its answers are taken is held by its windows.
        """
        connection.read += size
        if connection.read >= WINDOW // 2:
            connection.output += frames.frame(frames.WINDOW_UPDATE, 0, 0, struct.pack(">I", connection.read))
            connection.receive_window += connection.read
            connection.read = 0
        if call is not None and not call.ended:
            call.read += size
            if call.read >= WINDOW // 2:
                connection.output += frames.frame(frames.WINDOW_UPDATE, 0, call.stream, struct.pack(">I", call.read))
                call.receive_window += call.read
                call.read = 0

    def _window_update(self, connection: _Connection, stream: int, increment: int) -> None:
        if not increment:
            raise frames.Http2Error(frames.PROTOCOL_ERROR, f"a WINDOW_UPDATE of 0 on stream {stream}")
        if not stream:
            connection.send_window += increment
            if connection.send_window > frames.MAX_WINDOW:
                raise frames.Http2Error(frames.FLOW_CONTROL_ERROR, "the connection's window over 2^31-1")
            for call in list(connection.calls.values()):
                if call.pending:
                    self._resume(connection, call)
            return
        opened = connection.calls.get(stream)
        if opened is not None:
            opened.send_window += increment
            if opened.send_window > frames.MAX_WINDOW:
                raise frames.Http2Error(frames.FLOW_CONTROL_ERROR, f"stream {stream}'s window over 2^31-1")
            if opened.pending:
                self._resume(connection, opened)

    def _settings(self, connection: _Connection, payload: bytes) -> None:
        for key, value in frames.settings(payload):
            if key == frames.SETTINGS_INITIAL_WINDOW_SIZE:  # moves every open stream's window (section 6.9.2)
                for call in connection.calls.values():
                    call.send_window += value - connection.peer_window
                    if call.send_window > frames.MAX_WINDOW:
                        raise frames.Http2Error(frames.FLOW_CONTROL_ERROR, f"stream {call.stream}'s window over 2^31-1")
                connection.peer_window = value
            elif key == frames.SETTINGS_MAX_FRAME_SIZE:
                connection.peer_max_frame = value
            elif key == frames.SETTINGS_HEADER_TABLE_SIZE:
                connection.encoder.header_table_size = value
        connection.output += frames.frame(frames.SETTINGS, frames.ACK, 0)
        for call in list(connection.calls.values()):
            if call.pending:
                self._resume(connection, call)

    def _go_away(self, connection: _Connection, code: int, reason: str) -> None:
        if not connection.going_away or code != frames.NO_ERROR:
            connection.going_away = True
            said = struct.pack(">II", connection.last_stream, code) + reason.encode()[:256]
            connection.output += frames.frame(frames.GOAWAY, 0, 0, said)

    def _send_headers(self, connection: _Connection, stream: int, headers: list[tuple[bytes, bytes]],
                      end: bool) -> None:
        """A header block, in CONTINUATION frames after the first if it is longer than the client's frames."""
        block = connection.encoder.encode(headers)
        size = connection.peer_max_frame
        first, block = block[:size], block[size:]
        last = 0 if block else frames.END_HEADERS
        connection.output += frames.frame(frames.HEADERS, last | (frames.END_STREAM if end else 0), stream, first)
        while block:
            part, block = block[:size], block[size:]
            connection.output += frames.frame(frames.CONTINUATION, 0 if block else frames.END_HEADERS, stream, part)

    # ------------------------------------------------------------------ calls

    def _answer(self, connection: _Connection, call: _Call) -> None:
        """Call the handler on each whole message read, while the answers go out; a unary call's one answer ends
        it, and so does the client's end of the stream once its messages are answered."""
        method = call.method
        if method is None:
            return
        while len(call.received) >= 5 and call.trailers is None and not call.pending:
            size = int.from_bytes(call.received[1:5], "big")
            if call.received[0]:
                self._finish(connection, call, StatusCode.UNIMPLEMENTED, "compressed messages")
                return
            if size > MAX_MESSAGE:
                self._finish(connection, call, StatusCode.RESOURCE_EXHAUSTED,
                             f"Received message larger than max ({size} vs. {MAX_MESSAGE})")
                return
            if len(call.received) < 5 + size:
                break
            data = bytes(call.received[5:5 + size])
            del call.received[:5 + size]
            self._read(connection, call, 5 + size)
            try:
                request = method.request.FromString(data)
            except DecodeError:
                self._finish(connection, call, StatusCode.INTERNAL, "Exception deserializing request!")
                return
            try:
                answer = method.handler(request, call.context)
            except Abort as abort:
                self._finish(connection, call, abort.code, abort.details)
                return
            except Exception as error:  # as grpcio's server reports a handler's bug
                traceback.print_exc(file=sys.stderr)
                doing = "calling application" if method.kind == "unary" else "iterating responses"
                self._finish(connection, call, StatusCode.UNKNOWN, f"Exception {doing}: {error}")
                return
            if call.context.deadline is not None and time.monotonic() > call.context.deadline:  # the client gave up
                self._finish(connection, call, StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded")
                return
            data = answer.SerializeToString()
            self._send_message(connection, call, data)
            if method.kind == "unary":
                self._finish(connection, call, StatusCode.OK, "")
            elif method.kind == "watch":
                self._watchers.append(_Watch(connection, call.stream, request, data))
        if call.ended and call.trailers is None and not call.pending:
            if call.received:
                self._finish(connection, call, StatusCode.INTERNAL, "the stream ended inside a message")
            elif method.kind == "stream":
                self._finish(connection, call, StatusCode.OK, "")
            elif method.kind == "unary":
                self._finish(connection, call, StatusCode.INTERNAL, "the call ended without a request")

    def _send_message(self, connection: _Connection, call: _Call, data: bytes) -> None:
        call.pending += prefixed(data)
        self._drain(connection, call)

    def _resume(self, connection: _Connection, call: _Call) -> None:
        """Send what the windows now allow; once all is out, read the requests held back meanwhile."""
        self._drain(connection, call)
        if not call.pending and call.trailers is None and connection.calls.get(call.stream) is call:
            self._answer(connection, call)

    def _drain(self, connection: _Connection, call: _Call) -> None:
        """Send what of the pending bytes the windows allow, and the trailers once all is out."""
        if call.pending and not call.headers_sent:
            call.headers_sent = True
            self._send_headers(connection, call.stream, RESPONSE_HEADERS, end=False)
        offset = 0
        while offset < len(call.pending) and len(connection.output) < OUTPUT_LIMIT:
            room = min(connection.send_window, call.send_window, connection.peer_max_frame, len(call.pending) - offset)
            if room <= 0:
                break
            connection.output += frames.frame(frames.DATA, 0, call.stream, call.pending[offset:offset + room])
            connection.send_window -= room
            call.send_window -= room
            offset += room
        del call.pending[:offset]
        if call.trailers is not None and not call.pending:
            if not call.headers_sent:  # trailers-only: the status is all there is to say
                call.headers_sent = True
                call.trailers = RESPONSE_HEADERS + call.trailers
            self._send_headers(connection, call.stream, call.trailers, end=True)
            self._forget(connection, call)

    def _finish(self, connection: _Connection, call: _Call, code: StatusCode, details: str) -> None:
        """End the call with its status: in trailers after the answers, or alone (trailers-only)."""
        call.trailers = _status_trailers(code, details)
        self._read(connection, call, len(call.received))
        call.received.clear()
        self._drain(connection, call)

    def _forget(self, connection: _Connection, call: _Call) -> None:
        if connection.calls.pop(call.stream, None) is not None:
            self._read(connection, None, len(call.received))  # held for a call that is gone: the connection's
            call.received.clear()
            self._watchers = [w for w in self._watchers if w.connection is not connection or w.stream != call.stream]


def listen(address: str) -> list[socket.socket]:
    """Listening sockets for a gRPC target: ``unix:PATH``, or ``host:port`` (every address the host has)."""
    if address.startswith("unix:"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(address[5:])
            sock.listen(64)
        except OSError:
            sock.close()
            raise
        return [sock]
    host, _, port_text = address.rpartition(":")
    try:
        port = int(port_text)
        found = socket.getaddrinfo(host.strip("[]") or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (ValueError, socket.gaierror) as error:
        raise OSError(str(error)) from None
    listeners: list[socket.socket] = []
    failure: OSError | None = None
    for family, kind, proto, _, where in found:
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        try:
            sock.bind((where[0], port, *where[2:]))
            sock.listen(64)
        except OSError as error:
            sock.close()
            failure = error
            continue
        port = port or sock.getsockname()[1]  # port 0: the one the first address got, for all of them
        listeners.append(sock)
    if not listeners:
        raise failure or OSError(f"no address to listen on for {address!r}")
    return listeners
