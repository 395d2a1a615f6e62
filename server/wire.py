"""The node's sockets: HTTP requests and WebSocket frames, read by websockets' sans-I/O protocol.

Theory of operation. Each TCP connection is one ``Wire``, an ``asyncio.Protocol``
that feeds what arrives to websockets' ``ServerProtocol`` (its sans-I/O core:
HTTP parsing, the opening handshake, framing, masking, size limits, close
codes) and writes what that protocol has to send. Nothing else of websockets
runs: no task, future or queue per connection, and none per frame. The first
event on a connection is its HTTP request, which the node answers itself
(``Handler.http``: the page, ``/healthz``, ``/metrics``) or accepts as a
WebSocket; from then on every complete message goes to the connection's
``on_message`` the moment its last byte is read, in order.

Writes are the node's to time: ``send`` frames a message at once and the wire
writes everything framed during one turn of the event loop in one piece at the
end of that turn (an action sends its player several frames: one system call
for them all). Control frames websockets answers by itself (pong, the close
reply) go out at once.

What websockets' asyncio layer did per connection with tasks and timers is done
here by one sweep over every wire (``Listener``), once a ``SWEEP_SECONDS``:
a socket that has sent nothing (or was let in only to be told it is over its
address's limit) is dropped after ``IDLE_OPEN_TIMEOUT``, and a request not
finished within ``OPEN_TIMEOUT``; a connection
silent for ``ping_interval`` is pinged and dropped (close code 1011) if it
stays silent for another ``ping_interval``; a close the peer does not complete
within ``CLOSE_TIMEOUT`` ends by dropping the socket. An idle connection thus
costs its socket, this object and websockets' parser, and nothing on the loop.

Every socket is shown to the node the moment it is accepted (``Handler.admit``),
before its first byte, so that sockets which never finish their request count
against their address like open connections; the node hears of each socket's
end (``Handler.released``) whatever became of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import Protocol

from websockets.frames import Frame, Opcode
from websockets.http11 import SERVER, Request, Response
from websockets.protocol import CONNECTING, OPEN
from websockets.server import ServerProtocol

log = logging.getLogger("cardavia.server")

OPEN_TIMEOUT = 5.0
"""Seconds a client has to send a whole HTTP request: a browser, a bot or a load balancer sends
its few hundred bytes at once, so only a client holding sockets open on purpose needs more."""
IDLE_OPEN_TIMEOUT = 2.0
"""Seconds a socket may stay open without sending a byte, and a refused socket (``Wire.refused``)
may take to send its request: neither does anything useful meanwhile."""
CLOSE_TIMEOUT = 10.0
"""Seconds a peer has to complete a closing handshake before its socket is dropped."""
SWEEP_SECONDS = 1.0
"""How often the timeouts above and keepalive pings are looked at: each is late by at most this."""
CLOSE_KEEPALIVE = 1011
_WS_LOGGER = logging.getLogger("websockets.server")
NOSNIFF = ("X-Content-Type-Options", "nosniff")
"""On every HTTP answer: a browser takes a body for what its Content-Type says, never sniffs a script."""
DATA_CSP = ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
"""The policy of every HTTP answer that is data or text, not the page (which sends its own):
nothing in it may load anything, and no page may frame it."""


def _secure(response: Response) -> Response:
    """``response`` with ``nosniff`` and, unless it has its own policy, the data policy."""
    headers = response.headers
    for name, value in (NOSNIFF, DATA_CSP):
        if name not in headers:
            headers[name] = value
    return response


class _ServerProtocol(ServerProtocol):
    """websockets' protocol, whose own refusals (a header too long, a bad upgrade) carry
    the headers every HTTP answer of the node carries."""

    def reject(self, status: HTTPStatus | int, text: str) -> Response:
        return _secure(super().reject(status, text))


class Handler(Protocol):
    """What a wire asks of the node."""

    def admit(self, wire: Wire) -> bool:
        """A socket is accepted, nothing read yet: False drops it at once."""

    def released(self, wire: Wire) -> None:
        """A socket is gone, whether it was admitted, answered, opened or dropped."""

    def http(self, wire: Wire, request: Request) -> Response | None:
        """The answer to an HTTP request, or None to accept it as a WebSocket."""

    def opened(self, wire: Wire, request: Request) -> None:
        """A WebSocket is open: set ``wire.on_message`` and ``wire.on_lost``."""


def _ignore_message(data: bytes | str) -> None:
    return None


def _ignore_lost() -> None:
    return None


class Wire(asyncio.Protocol):
    """One TCP connection: its HTTP request, then its WebSocket messages."""

    __slots__ = (
        "_flush_due",
        "_fragments",
        "_text",
        "address",
        "heard",
        "last_received",
        "listener",
        "on_lost",
        "on_message",
        "ping_sent",
        "protocol",
        "refused",
        "since",
        "transport",
    )

    def __init__(self, listener: Listener) -> None:
        self.listener = listener
        self.protocol = _ServerProtocol(max_size=listener.max_size, logger=_WS_LOGGER)
        self.transport: asyncio.Transport | None = None
        self.on_message: Callable[[bytes | str], None] = _ignore_message
        self.on_lost: Callable[[], None] = _ignore_lost
        now = time.monotonic()
        self.since = now
        """When the connection was made; once a close is under way, when it started."""
        self.last_received = now
        self.heard = False
        """Whether any byte has arrived."""
        self.ping_sent: float | None = None
        self.address: str | None = None
        """The client address this socket counts against, once the node has counted it."""
        self.refused = False
        """Let in only to be told why it cannot stay: it has ``IDLE_OPEN_TIMEOUT`` to ask."""
        self._fragments: list[bytes] | None = None
        self._text = False
        self._flush_due = False

    # ------------------------------------------------------------ asyncio
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.listener.wires.add(self)
        if not self.listener.handler.admit(self):
            transport.abort()  # connection_lost follows, and with it `released`

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        protocol.receive_data(data)
        events = protocol.events_received()
        self.last_received = time.monotonic()
        self.heard = True
        self.ping_sent = None  # any sign of life will do: a busy client is not pinged
        if protocol.writes and not (events and isinstance(events[0], Request)):
            self.flush()  # websockets' own answers (pong, the close reply, a refused request)
        # After a request, what websockets has to write (the end of the stream, when bytes follow
        # the request: a second, pipelined one) goes after the request's answer.
        for event in events:
            if isinstance(event, Frame):
                self._frame(event)
            else:
                assert isinstance(event, Request)
                self._request(event)
        if protocol.close_expected():
            self._closing()

    def eof_received(self) -> None:
        self.protocol.receive_eof()
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self.protocol.receive_eof()  # idempotent: the protocol is CLOSED from here on
        self.listener.lost(self)
        on_lost, self.on_lost = self.on_lost, _ignore_lost
        self.on_message = _ignore_message
        on_lost()
        self._release_cycles()

    def _release_cycles(self) -> None:
        """Break the reference cycles a closed socket's objects form, so that reference counting frees
        them the moment the node forgets the connection.

        ``cardavia serve`` leaves cyclic garbage to a full collection, which its pacer runs every
        15 s to an hour (``gc_pacer.py``), and each of these cycles holds a few kilobytes:

        * websockets' sans-I/O protocol keeps its parser, a generator whose frame holds the
          protocol (``self``), suspended in ``protocol.parser`` to the end; closing it clears
          that frame. With the parser go the frames it read last and the protocol's buffers;
        * a connection that ended without a closing handshake (the peer dropped, or sent something
          invalid) keeps the parser's exception in ``protocol.parser_exc``, whose traceback holds
          the parser's frame and so the protocol again: the exception is kept, its frames are not;
        * on CPython before 3.12 the socket's transport keeps a bound method of its own in
          ``_read_ready_cb`` (CPython gh-100348, released on close from 3.12 on): cleared here,
          as 3.12 clears it. The transport has already let go of its socket and protocol.

        Every socket, whatever it was (a page's request, a refused one, a WebSocket), once it is
        gone: nothing is read from it any more.
        """
        protocol = self.protocol
        protocol.parser.close()
        failure: BaseException | None = protocol.parser_exc
        seen: set[int] = set()
        while failure is not None and id(failure) not in seen:
            seen.add(id(failure))
            failure.__traceback__ = None
            failure = failure.__cause__ or failure.__context__
        if self.transport is not None:
            own = vars(self.transport)
            if own.get("_read_ready_cb") is not None:
                own["_read_ready_cb"] = None

    # ------------------------------------------------------------ reading
    def _request(self, request: Request) -> None:
        protocol = self.protocol
        try:
            response = self.listener.handler.http(self, request)
        except Exception:
            log.exception("event=http_failed path=%s", request.path)
            response = protocol.reject(HTTPStatus.INTERNAL_SERVER_ERROR, "the request failed on the server\n")
        if response is None:
            response = protocol.accept(request)
        if response.status_code == HTTPStatus.SWITCHING_PROTOCOLS and not self.listener.serving:
            response = protocol.reject(HTTPStatus.SERVICE_UNAVAILABLE, "Server is shutting down.\n")
        response.headers["Server"] = SERVER
        upgrade = response.status_code == HTTPStatus.SWITCHING_PROTOCOLS
        if not upgrade:
            _secure(response)
            if request.method == "HEAD":
                response.body = b""  # the headers of GET, Content-Length included, and no body
        if protocol.eof_sent:
            # Bytes followed the request on its connection that websockets could not read (a second,
            # pipelined request): it reads no further and has ended the stream.
            # A plain answer is sent before that end, which its `Connection: close` announces;
            # a WebSocket cannot open, so its socket is closed without one.
            if upgrade or self.transport is None or self.transport.is_closing():
                self.abort()
                return
            log.info("event=http_pipelined peer=%s", self.remote_address)
            self.transport.write(response.serialize())
            self.flush()
            return
        protocol.send_response(response)
        self.flush()
        if protocol.state is OPEN:
            self.listener.handler.opened(self, request)

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.BINARY or opcode is Opcode.TEXT:
            if not frame.fin:
                self._fragments = [bytes(frame.data)]
                self._text = opcode is Opcode.TEXT
                return
            data = frame.data  # bytes as websockets parses it; typed wider
            self._deliver(data if type(data) is bytes else bytes(data), opcode is Opcode.TEXT)
        elif opcode is Opcode.CONT and self._fragments is not None:
            self._fragments.append(bytes(frame.data))
            if frame.fin:
                data, self._fragments = b"".join(self._fragments), None
                self._deliver(data, self._text)
        # PING and CLOSE are answered by the protocol; a PONG is a sign of life like any frame

    def _deliver(self, data: bytes, text: bool) -> None:
        if not text:
            self.on_message(data)
            return
        try:
            decoded = data.decode()
        except UnicodeDecodeError as exc:
            self.fail(1007, f"invalid UTF-8: {exc.reason}")
            return
        self.on_message(decoded)

    # ------------------------------------------------------------ writing
    def send(self, data: bytes) -> None:
        """Frame ``data`` now; it is written with the others of this turn of the loop."""
        self.protocol.send_binary(data)
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self.flush)

    def buffered(self) -> int:
        """Bytes written but not yet taken by the peer."""
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def flush(self) -> None:
        """Write what the protocol has to send, in one piece; an empty chunk is the end of the stream."""
        self._flush_due = False
        chunks = self.protocol.data_to_send()
        transport = self.transport
        if not chunks or transport is None or transport.is_closing():
            return
        if b"" in chunks:
            data = b"".join(chunks)
            if data:
                transport.write(data)
            if transport.can_write_eof():
                with contextlib.suppress(Exception):
                    transport.write_eof()
            else:
                transport.close()
        else:
            transport.write(b"".join(chunks) if len(chunks) > 1 else chunks[0])

    def close(self, code: int, reason: str) -> None:
        """Start the closing handshake after the frames already sent; the peer has ``CLOSE_TIMEOUT``."""
        if self.protocol.state is OPEN:
            self.protocol.send_close(code, reason)
            self.flush()
            self._closing()
        elif self.protocol.state is CONNECTING and self.transport is not None:
            self.transport.close()

    def fail(self, code: int, reason: str) -> None:
        """Close at once for a fault of the peer's (no further frame of its is read)."""
        self.protocol.fail(code, reason)
        self.flush()
        self._closing()

    def pause_reading(self) -> None:
        if self.transport is not None:
            self.transport.pause_reading()

    def resume_reading(self) -> None:
        if self.transport is not None:
            self.transport.resume_reading()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    def _closing(self) -> None:
        if self.listener.closing_wires.get(self) is None:
            self.listener.closing_wires[self] = time.monotonic()

    def respond(self, status: HTTPStatus, text: str) -> Response:
        """A short plain-text HTTP answer (sent by returning it from ``Handler.http``)."""
        return self.protocol.reject(status, text)

    @property
    def remote_address(self) -> tuple[str, int] | None:
        peer = self.transport.get_extra_info("peername") if self.transport is not None else None
        return peer if isinstance(peer, tuple) else None

    @property
    def peer_host(self) -> str | None:
        """The connecting address alone (the peer's, never a forwarded one), if it can be read."""
        peer = self.remote_address
        return peer[0] if peer else None

    def __repr__(self) -> str:
        return f"<Wire {self.remote_address} {self.protocol.state.name}>"


class Listener:
    """The node's listening socket, its open wires, and the one sweep that keeps their timeouts."""

    def __init__(self, handler: Handler, *, max_size: int, ping_interval: float) -> None:
        self.handler = handler
        self.max_size = max_size
        self.ping_interval = ping_interval
        self.wires: set[Wire] = set()
        self.closing_wires: dict[Wire, float] = {}
        """Wires whose close is under way, and since when."""
        self.serving = False
        self._server: asyncio.Server | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._all_gone: asyncio.Future[None] | None = None

    async def bind(self, host: str, port: int) -> None:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: Wire(self), host, port, start_serving=False)

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def start_serving(self) -> None:
        assert self._server is not None
        self.serving = True
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        await self._server.start_serving()

    def close(self) -> None:
        """Stop accepting; open wires stay open (the node closes them with a reason of its own)."""
        self.serving = False
        if self._server is not None:
            self._server.close()

    async def wait_closed(self) -> None:
        """Until every wire is gone."""
        if self.wires:
            self._all_gone = asyncio.get_running_loop().create_future()
            await self._all_gone
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        if self._server is not None:
            await self._server.wait_closed()

    def lost(self, wire: Wire) -> None:
        self.wires.discard(wire)
        self.closing_wires.pop(wire, None)
        self.handler.released(wire)
        if not self.wires and self._all_gone is not None and not self._all_gone.done():
            self._all_gone.set_result(None)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.sweep(time.monotonic())

    def sweep(self, now: float) -> None:
        """Drop handshakes and closes that took too long; ping the silent, drop the unanswering."""
        for wire, since in list(self.closing_wires.items()):
            if now - since > CLOSE_TIMEOUT:
                log.info("event=close_timeout peer=%s", wire.remote_address)
                wire.abort()
        interval = self.ping_interval
        for wire in list(self.wires):
            state = wire.protocol.state
            if state is CONNECTING:
                quick = wire.refused or not wire.heard
                timeout = IDLE_OPEN_TIMEOUT if quick else OPEN_TIMEOUT
                if now - wire.since > timeout and wire not in self.closing_wires:
                    wire.abort()
            elif state is OPEN and interval and wire not in self.closing_wires:
                if wire.ping_sent is not None:
                    if now - wire.ping_sent > interval:
                        wire.fail(CLOSE_KEEPALIVE, "keepalive ping timeout")
                elif now - wire.last_received > interval:
                    wire.ping_sent = now
                    wire.protocol.send_ping(b"")
                    wire.flush()
