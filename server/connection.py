"""One client connection as the server keeps it: a send queue, its writer task, rate limits, the handshake.

Rooms and the server only ever ``send`` to a connection, which queues the
frame; the connection's own writer task drains the queue into the socket, so
a slow reader never holds up a room. A reader too slow to keep the queue below
``MAX_SEND_QUEUE`` frames is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from cardavia.protocol import messages as m
from cardavia.protocol.codec import encode
from cardavia.server.config import ServerConfig
from cardavia.server.room import Room

log = logging.getLogger("cardavia.server")

CLOSE_POLICY = 1008
CLOSE_RESTART = 1012
MAX_SEND_QUEUE = 256
CHAT_PER_SECOND, CHAT_BURST = 1.0, 5


class TokenBucket:
    """About ``rate`` events a second, with bursts of up to ``burst``: a connection's message budget."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One client connection as rooms see it: ``send`` only queues."""

    def __init__(self, ws: ServerConnection, config: ServerConfig) -> None:
        self.ws = ws
        self.session = ""
        self.token_hash = ""
        self.name = ""
        self.lang = "en"
        self.room: Room | None = None
        self.seat: int | None = None
        self.rooms_created = 0
        self.abuse = 0
        self.last_seen = time.monotonic()
        """When the client last sent a frame (for the idle sweep)."""
        self.bucket = TokenBucket(config.rate_per_second, config.rate_burst)
        self.chat_bucket = TokenBucket(CHAT_PER_SECOND, CHAT_BURST)
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(MAX_SEND_QUEUE)
        self.closing = False
        self.close_code, self.close_reason = 1000, ""
        self._handshaking = False
        self._close_after_handshake: tuple[int, str] | None = None
        self.writer_task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self.writer())

    def send(self, message: m.Reply | bytes) -> None:
        if self.closing:
            return
        try:
            self.queue.put_nowait(message if isinstance(message, bytes) else encode(message))
        except asyncio.QueueFull:
            log.warning("event=slow_client session=%s action=close", self.session)
            self.close(CLOSE_POLICY, "too slow to read")

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued (so an error that explains the close arrives first).

        During the handshake the close waits for its end: the lobby has then rotated the
        resume token, and a welcome lost to the close would lock the player out of its seat.
        """
        if self.closing:
            return
        if self._handshaking:
            self._close_after_handshake = self._close_after_handshake or (code, reason)
            return
        self.closing = True
        self.close_code, self.close_reason = code, reason
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        if self.queue.full():  # a stalled reader: no room for the sentinel, close at once
            self.writer_task.cancel()

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

    async def writer(self) -> None:
        try:
            while (frame := await self.queue.get()) is not None:
                await self.ws.send(frame)
        except ConnectionClosed:
            return
        finally:
            if self.closing:
                await asyncio.shield(self.ws.close(self.close_code, self.close_reason))
