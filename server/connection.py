"""One client connection as the server keeps it: its messages in, its writes, rate limits, the handshake.

Rooms and the server only ever ``send`` to a connection, which never waits:
the frame is framed at once by the connection's wire (``wire.py``) and every
frame a connection was given during one turn of the event loop goes to the
socket in one write at the end of that turn, so a slow reader never holds up a
room. A reader that leaves more than ``send_buffer`` bytes unread is closed.

Messages in are handled strictly one after another. While a connection sends
nothing it has no task at all; its first message starts one, which handles
that message and any that arrived meanwhile, and ends. A client whose messages
pile up (``INBOX_HIGH``) is not read from until they are down to
``INBOX_LOW``: its own backlog, not the node's memory, holds it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator

from websockets.protocol import OPEN

from cardavia.protocol import messages as m
from cardavia.protocol.codec import encode
from cardavia.server.config import ServerConfig
from cardavia.server.limits import UNKNOWN_ADDRESS, TokenBucket
from cardavia.server.lobby import SessionEntry
from cardavia.server.room import Room
from cardavia.server.wire import Wire

log = logging.getLogger("cardavia.server")

CLOSE_POLICY = 1008
"""Closed for what the client did: bad messages, idleness, reading too slowly, a newer connection."""
CLOSE_RESTART = 1012
CLOSE_TRY_LATER = 1013
"""Closed for what the client's address is doing: too many connections or new sessions at once."""
CHAT_PER_SECOND, CHAT_BURST = 1.0, 5
INBOX_HIGH, INBOX_LOW = 16, 4
"""Messages waiting to be handled at which a connection stops being read, and resumes."""


class Connection:
    """One client connection as rooms see it: ``send`` writes without waiting."""

    def __init__(
        self,
        wire: Wire,
        config: ServerConfig,
        address: str = UNKNOWN_ADDRESS,
        handle: Callable[[Connection, bytes | str], Awaitable[None]] | None = None,
    ) -> None:
        self.wire = wire
        self.address = address
        """The client's address as ``limits.client_address`` keys it: behind a trusted proxy, the client's."""
        self.session = ""
        self.token_hash = ""
        self.name = ""
        """The player's name: the one chosen, or a guest's English fallback ("Player 563")."""
        self.guest: int | None = None
        """The guest number of a player who chose no name (``name`` is its fallback); None: a name."""
        self.lang = "en"
        self.player: m.PlayerInfo | None = None
        """The profile this connection plays as (a hello's player key, or one made or taken over on
        it); None: anonymous. Set through ``SessionKeeper.set_player``, which indexes it."""
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
        self._handle = handle
        self._inbox: deque[bytes | str] = deque()
        self._reader: asyncio.Task[None] | None = None
        self._paused = False
        self._gone: Callable[[], None] | None = None
        self._handshaking = False
        self._close_after_handshake: tuple[int, str] | None = None

    def session_entry(self, room: str | None = None, seat: int | None = None) -> SessionEntry:
        """The lobby's entry for this connection's session, in ``room`` and ``seat`` (None: none),
        with its current token and profile, so a resume finds both."""
        player = self.player.id if self.player is not None else None
        return SessionEntry(self.session, self.name, self.token_hash, room, seat, player, self.guest)

    def received(self, data: bytes | str) -> None:
        """A message from the client: handled after those before it (see the module's docstring)."""
        self.last_seen = time.monotonic()
        if self.closing or self._handle is None:
            return  # once closing, read on (and drop) so that the close handshake completes
        self._inbox.append(data)
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read())
        elif len(self._inbox) >= INBOX_HIGH and not self._paused:
            self._paused = True
            self.wire.pause_reading()

    async def _read(self) -> None:
        assert self._handle is not None
        inbox = self._inbox
        try:
            while inbox and not self.closing:
                await self._handle(self, inbox.popleft())
                if self._paused and len(inbox) <= INBOX_LOW:
                    self._resume()
        finally:
            self._reader = None
            self._resume()  # closing, the peer's close frame must still be read
            if self._gone is not None:
                self._gone()

    def _resume(self) -> None:
        if self._paused:
            self._paused = False
            self.wire.resume_reading()

    def lost(self, gone: Callable[[], None]) -> None:
        """The socket is gone: nothing waiting is handled any more, and ``gone`` runs once the
        message being handled, if any, is done (a move under way is finished, never cut short)."""
        self._inbox.clear()
        self.closing = True
        if self._reader is None:
            gone()
        else:
            self._gone = gone

    def send(self, message: m.Reply | bytes) -> None:
        """Frame a message now, behind those sent before; it is written at the end of the
        event loop's turn, with the others of that turn. Never waits."""
        wire = self.wire
        if self.closing or wire.protocol.state is not OPEN:
            return
        if wire.buffered() > self.send_buffer:
            log.warning("event=slow_client session=%s action=close", self.session)
            self.close(CLOSE_POLICY, "too slow to read")
            return
        wire.send(message if isinstance(message, bytes) else encode(message))

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
        self._inbox.clear()
        self._resume()
        self.wire.close(code, reason)  # a peer that does not answer the close is dropped (wire.CLOSE_TIMEOUT)

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
