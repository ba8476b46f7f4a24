"""The bot's end of the contract: a gRPC server over HTTP/2 in one thread, on ``h2``.

grpcio's server reads a connection in its poller thread and hands each message to
a handler thread, and back: two thread switches a decision, most of what a ``Play``
stream's decision cost once the referee's side spoke HTTP/2 itself
(docs/protocol.md section 10). Here one thread waits on the listening sockets and
the connections (``selectors``), lets ``h2`` parse the frames, calls the handler
and writes its answer: nothing is handed between threads. Calls are answered one
at a time, which the contract promises anyway.

What gRPC clients use is spoken: unary calls, streams of one answer per request,
server streams pushed later (the health service's ``Watch``), status trailers with
``grpc-status``/``grpc-message`` as grpcio's server writes them (an unknown method
is UNIMPLEMENTED, a handler's exception UNKNOWN), flow control both ways, PING and
SETTINGS (``h2``), and a graceful stop: GOAWAY, the calls under way finished for a
grace period, then the connections closed.
"""

from __future__ import annotations

import collections
import contextlib
import selectors
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn, Protocol

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings
from google.protobuf.message import DecodeError, Message

from bots_sdk.grpc_wire import MAX_MESSAGE, WINDOW, prefixed
from bots_sdk.status import StatusCode

RESPONSE_HEADERS = [(b":status", b"200"), (b"content-type", b"application/grpc")]
MAX_STREAMS = 100
"""Streams a connection may hold open at once (grpcio's servers allow 100 as well)."""


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


@dataclass
class _Call:
    method: Method | None
    context: Context
    received: bytearray = field(default_factory=bytearray)
    pending: bytearray = field(default_factory=bytearray)
    """Message bytes waiting for the client's flow-control window."""
    trailers: list[tuple[bytes, bytes]] | None = None
    """Sent once ``pending`` is out."""
    headers_sent: bool = False


@dataclass
class _Watch:
    connection: _Connection
    stream: int
    request: Message
    sent: bytes


class _Connection:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        # our headers are ours (lower case, valid): h2 need not check or normalise them at every answer
        config = h2.config.H2Configuration(client_side=False, header_encoding=None, validate_outbound_headers=False,
                                           normalize_outbound_headers=False)
        self.h2 = h2.connection.H2Connection(config)
        self.h2.local_settings = h2.settings.Settings(client=False, initial_values={
            h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: MAX_STREAMS,
            h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: WINDOW,
            h2.settings.SettingCodes.MAX_HEADER_LIST_SIZE: 16384,
        })
        self.h2.initiate_connection()
        self.h2.increment_flow_control_window(WINDOW - 65535)
        self.calls: dict[int, _Call] = {}
        self.output = bytearray()
        self.waiting = False
        """Whether ``output`` waits for the socket to be writable (the selector is asked then only)."""


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
        for listener in self._listeners:
            listener.setblocking(False)
            self._selector.register(listener, selectors.EVENT_READ, None)
        self._wake_read.setblocking(False)
        self._selector.register(self._wake_read, selectors.EVENT_READ, None)
        self._thread = threading.Thread(target=self._run, name="durak-bot-server", daemon=True)
        self._thread.start()
        return self

    def call_soon(self, task: Callable[[], None]) -> None:
        """Run ``task`` in the server's thread, between calls."""
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
                self._send_message(watch.connection, watch.stream, call, data)
                self._flush(watch.connection)

    def stop(self, grace: float) -> None:
        """Stop taking connections and calls; finish those under way within ``grace`` s, then close all."""
        if self._thread is None:
            return

        def begin() -> None:
            self._stop_by = time.monotonic() + grace
            for listener in self._listeners:
                self._selector.unregister(listener)
                listener.close()
            self.changed()
            for watch in list(self._watchers):  # a watch never ends by itself: end it now
                call = watch.connection.calls.get(watch.stream)
                if call is not None:
                    self._finish(watch.connection, watch.stream, call, StatusCode.OK, "")
            for connection in list(self._connections.values()):
                with contextlib.suppress(h2.exceptions.ProtocolError):  # already closed by the client
                    connection.h2.close_connection(last_stream_id=connection.h2.highest_inbound_stream_id)
                self._flush(connection)

        self.call_soon(begin)
        self._thread.join()
        self._thread = None

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
        """Write what ``h2`` has to send; what the socket does not take now waits for it to be writable."""
        connection.output += connection.h2.data_to_send()
        if connection.output:
            try:
                sent = connection.sock.send(connection.output)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                self._close(connection)
                return
            del connection.output[:sent]
        if bool(connection.output) != connection.waiting and connection.sock in self._connections:
            connection.waiting = bool(connection.output)
            self._selector.modify(
                connection.sock, selectors.EVENT_READ | (selectors.EVENT_WRITE if connection.waiting else 0), None
            )

    def _receive(self, connection: _Connection) -> None:
        try:
            data = connection.sock.recv(1 << 20)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._close(connection)
            return
        try:
            events = connection.h2.receive_data(data)
        except h2.exceptions.ProtocolError as error:  # the client broke HTTP/2: say why (GOAWAY) and hang up
            with contextlib.suppress(h2.exceptions.ProtocolError):
                connection.h2.close_connection(error_code=h2.errors.ErrorCodes.PROTOCOL_ERROR,
                                               additional_data=str(error).encode()[:256])
            self._flush(connection)
            self._close(connection)
            return
        for event in events:
            self._handle(connection, event)
            if connection.sock not in self._connections:
                return
        self._flush(connection)

    # ------------------------------------------------------------------ calls

    def _handle(self, connection: _Connection, event: h2.events.Event) -> None:
        call: _Call | None
        if isinstance(event, h2.events.RequestReceived):
            assert event.stream_id is not None and event.headers is not None
            fields = {bytes(k): bytes(v) for k, v in event.headers}
            path = fields.get(b":path", b"").decode(errors="replace")
            call = _Call(self._methods.get(path), Context(_deadline(fields.get(b"grpc-timeout"))))
            connection.calls[event.stream_id] = call
            if call.method is None:
                self._finish(connection, event.stream_id, call, StatusCode.UNIMPLEMENTED, "Method not found!")
            elif fields.get(b"content-type", b"").split(b";")[0].split(b"+")[0] != b"application/grpc":
                self._finish(connection, event.stream_id, call, StatusCode.UNKNOWN, "unsupported content-type")
        elif isinstance(event, h2.events.DataReceived):
            assert event.stream_id is not None and event.data is not None
            connection.h2.acknowledge_received_data(event.flow_controlled_length or 0, event.stream_id)
            call = connection.calls.get(event.stream_id)
            if call is not None and call.trailers is None:
                call.received += event.data
                self._answer(connection, event.stream_id, call)
        elif isinstance(event, h2.events.StreamEnded):
            call = connection.calls.get(event.stream_id or 0)
            if call is not None and call.trailers is None and call.method is not None:
                if call.received:
                    self._finish(connection, event.stream_id or 0, call, StatusCode.INTERNAL,
                                 "the stream ended inside a message")
                elif call.method.kind == "stream":
                    self._finish(connection, event.stream_id or 0, call, StatusCode.OK, "")
                elif call.method.kind == "unary":
                    self._finish(connection, event.stream_id or 0, call, StatusCode.INTERNAL,
                                 "the call ended without a request")
        elif isinstance(event, h2.events.StreamReset):
            self._forget(connection, event.stream_id or 0)
        elif isinstance(event, h2.events.WindowUpdated):
            streams = list(connection.calls) if not event.stream_id else [event.stream_id]
            for stream in streams:
                call = connection.calls.get(stream)
                if call is not None and (call.pending or call.trailers is not None):
                    self._drain(connection, stream, call)
        elif isinstance(event, h2.events.RemoteSettingsChanged):
            for stream, call in list(connection.calls.items()):
                if call.pending:
                    self._drain(connection, stream, call)
        elif isinstance(event, h2.events.ConnectionTerminated):
            self._flush(connection)
            self._close(connection)

    def _answer(self, connection: _Connection, stream: int, call: _Call) -> None:
        """Call the handler on each whole message read; a unary call's one answer ends it."""
        method = call.method
        assert method is not None
        while len(call.received) >= 5 and call.trailers is None:
            size = int.from_bytes(call.received[1:5], "big")
            if call.received[0]:
                self._finish(connection, stream, call, StatusCode.UNIMPLEMENTED, "compressed messages")
                return
            if size > MAX_MESSAGE:
                self._finish(connection, stream, call, StatusCode.RESOURCE_EXHAUSTED,
                             f"Received message larger than max ({size} vs. {MAX_MESSAGE})")
                return
            if len(call.received) < 5 + size:
                return
            data = bytes(call.received[5:5 + size])
            del call.received[:5 + size]
            try:
                request = method.request.FromString(data)
            except DecodeError:
                self._finish(connection, stream, call, StatusCode.INTERNAL, "Exception deserializing request!")
                return
            try:
                answer = method.handler(request, call.context)
            except Abort as abort:
                self._finish(connection, stream, call, abort.code, abort.details)
                return
            except Exception as error:  # as grpcio's server reports a handler's bug
                traceback.print_exc(file=sys.stderr)
                doing = "calling application" if method.kind == "unary" else "iterating responses"
                self._finish(connection, stream, call, StatusCode.UNKNOWN, f"Exception {doing}: {error}")
                return
            if call.context.deadline is not None and time.monotonic() > call.context.deadline:  # the client gave up
                self._finish(connection, stream, call, StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded")
                return
            data = answer.SerializeToString()
            self._send_message(connection, stream, call, data)
            if method.kind == "unary":
                self._finish(connection, stream, call, StatusCode.OK, "")
            elif method.kind == "watch":
                self._watchers.append(_Watch(connection, stream, request, data))

    def _send_message(self, connection: _Connection, stream: int, call: _Call, data: bytes) -> None:
        call.pending += prefixed(data)
        self._drain(connection, stream, call)

    def _drain(self, connection: _Connection, stream: int, call: _Call) -> None:
        """Send what of the pending bytes the windows allow, and the trailers once all is out."""
        h2c = connection.h2
        try:
            if call.pending and not call.headers_sent:
                call.headers_sent = True
                h2c.send_headers(stream, RESPONSE_HEADERS)
            while call.pending:
                room = min(h2c.local_flow_control_window(stream), h2c.max_outbound_frame_size, len(call.pending))
                if room <= 0:
                    return
                h2c.send_data(stream, bytes(call.pending[:room]))
                del call.pending[:room]
            if call.trailers is not None:
                if not call.headers_sent:  # trailers-only: the status is all there is to say
                    call.headers_sent = True
                    call.trailers = RESPONSE_HEADERS + call.trailers
                h2c.send_headers(stream, call.trailers, end_stream=True)
                self._forget(connection, stream)
        except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError):  # reset by the client meanwhile
            self._forget(connection, stream)

    def _finish(self, connection: _Connection, stream: int, call: _Call, code: StatusCode, details: str) -> None:
        """End the call with its status: in trailers after the answers, or alone (trailers-only)."""
        call.trailers = _status_trailers(code, details)
        call.received.clear()
        self._drain(connection, stream, call)

    def _forget(self, connection: _Connection, stream: int) -> None:
        if connection.calls.pop(stream, None) is not None:
            self._watchers = [w for w in self._watchers if w.connection is not connection or w.stream != stream]


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
