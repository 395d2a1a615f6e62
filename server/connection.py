"""One client connection as the server keeps it: its writes, rate limits, the handshake.

Rooms and the server only ever ``send`` to a connection, which never waits:
the frame is framed at once by the connection's websockets protocol (its
sans-I/O core), and every frame a connection was given during one turn of
the event loop goes to the socket in one write at the end of that turn, so
a slow reader never holds up a room. An action sends its player several
frames (the delta, a bot's delta, ``your_turn``): one system call instead of
one each. A reader that leaves more than ``send_buffer`` bytes unread is
closed. Before, each frame went through a queue to a writer task of the
connection's own: two task switches and a drain per frame, 10% of a loaded
server's time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator

from websockets.asyncio.server import ServerConnection
from websockets.protocol import OPEN

from cardavia.protocol import messages as m
from cardavia.protocol.codec import encode
from cardavia.server.config import ServerConfig
from cardavia.server.limits import UNKNOWN_ADDRESS, TokenBucket
from cardavia.server.room import Room

log = logging.getLogger("cardavia.server")

CLOSE_POLICY = 1008
"""Closed for what the client did: bad messages, idleness, reading too slowly, a newer connection."""
CLOSE_RESTART = 1012
CLOSE_TRY_LATER = 1013
"""Closed for what the client's address is doing: too many connections or new sessions at once."""
CHAT_PER_SECOND, CHAT_BURST = 1.0, 5


class Connection:
    """One client connection as rooms see it: ``send`` writes without waiting."""

    def __init__(self, ws: ServerConnection, config: ServerConfig, address: str = UNKNOWN_ADDRESS) -> None:
        self.ws = ws
        self.address = address
        """The client's address as ``limits.client_address`` keys it: behind a trusted proxy, the client's."""
        self.session = ""
        self.token_hash = ""
        self.name = ""
        self.lang = "en"
        self.room: Room | None = None
        self.seat: int | None = None
        self.created: set[str] = set()
        """Rooms this connection created (those still open count against ``max_rooms_per_connection``)."""
        self.abuse = 0
        self.last_seen = time.monotonic()
        """When the client last sent a frame (for the idle sweep)."""
        self.bucket = TokenBucket(config.rate_per_second, config.rate_burst)
        self.chat_bucket = TokenBucket(CHAT_PER_SECOND, CHAT_BURST)
        self.send_buffer = config.send_buffer
        self.closing = False
        self.close_reason = ""
        """Why the server closed the connection (for logs and tests); empty until it does."""
        self.closed: asyncio.Task[None] | None = None
        """The closing handshake, once ``close`` has started it."""
        self._handshaking = False
        self._close_after_handshake: tuple[int, str] | None = None
        self._flush_due = False

    def send(self, message: m.Reply | bytes) -> None:
        """Frame a message now, behind those sent before; it is written at the end of the
        event loop's turn, with the others of that turn. Never waits."""
        if self.closing or self.ws.protocol.state is not OPEN:
            return
        if self.ws.transport.get_write_buffer_size() > self.send_buffer:
            log.warning("event=slow_client session=%s action=close", self.session)
            self.close(CLOSE_POLICY, "too slow to read")
            return
        self.ws.protocol.send_binary(message if isinstance(message, bytes) else encode(message))
        if not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Write what the turn's frames made, in one piece. websockets writes its own frames
        (pings, the closing handshake) through the same protocol, after draining it: its
        order is kept, and whatever it already wrote is not here any more."""
        self._flush_due = False
        chunks = self.ws.protocol.data_to_send()
        transport = self.ws.transport
        if chunks:
            transport.write(b"".join(chunks))
        if b"" in chunks:  # the end of the stream (closing drains the protocol itself, so rarely here)
            if transport.can_write_eof():
                with contextlib.suppress(Exception):
                    transport.write_eof()
            else:
                transport.close()

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already sent (so an error that explains the close arrives first).

        During the handshake the close waits for its end: the lobby has then rotated the
        resume token, and a welcome lost to the close would lock the player out of its seat.
        """
        if self.closing:
            return
        if self._handshaking:
            self._close_after_handshake = self._close_after_handshake or (code, reason)
            return
        self.closing = True
        self.close_reason = reason
        # websockets gives a peer that does not answer the close ``close_timeout``, then drops it.
        self.closed = asyncio.get_running_loop().create_task(self.ws.close(code, reason))

    @contextlib.contextmanager
    def handshake(self) -> Iterator[None]:
        """While the hello is handled: a close asked for meanwhile comes after the welcome."""
        self._handshaking = True
        try:
            yield
        finally:
            self._handshaking = False
            if self._close_after_handshake is not None:
                self.close(*self._close_after_handshake)
