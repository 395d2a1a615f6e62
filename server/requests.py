"""Each connection's read loop: a frame decoded, checked against the connection's rate, handed to
its handler, and any refusal answered as an ``error`` for that request.

The loop is the one place a request can fail: a handler refuses by raising
(``ProtocolError``, or an engine's ``IllegalAction``), and the loop turns that
into the ``error`` the protocol documents, counts it, and closes a connection
that keeps sending bad requests (``abuse_limit``). A fault of the server's own
is logged and answered ``internal_error``, and the connection reads on. A
connection's frames are handled strictly one after another (``Connection``
queues them), so a handler may await the lobby without a second request of
the same player overtaking it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from cardavia.games.errors import CardaviaError, IllegalAction
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client
from cardavia.protocol.errors import ProtocolError
from cardavia.server.connection import CLOSE_POLICY, Connection
from cardavia.server.services import STORAGE_RETRY_SECONDS, NodeServices

log = logging.getLogger("cardavia.server")

ABUSE_CODES = frozenset(
    {"bad_frame", "too_large", "too_deep", "unknown_type", "invalid_field", "rate_limited", "unknown_room"}
)
"""Errors that count toward a connection's ``abuse_limit``: malformed or excessive requests, and
room ids or codes that name no room (so one connection cannot go on guessing private codes)."""


class ErrorReplies:
    """The ``error`` messages the node sends, each counted by its code (``cardavia_errors_total``)."""

    def __init__(self, shared: NodeServices) -> None:
        self._shared = shared

    def send(
        self,
        conn: Connection,
        rid: int | None,
        code: str,
        message: str,
        reason: str | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        """Answer request ``rid`` of ``conn`` with an error."""
        self._shared.metrics.errors.labels(code).inc()
        conn.send(m.Error(id=rid, code=code, message=message, reason=reason, retry_after=retry_after))

    def room_moving(self, conn: Connection, rid: int | None, room: str) -> None:
        """Tell ``conn`` that ``room``'s node is gone (``node_unavailable``): ``retry_after`` covers
        the rest of that node's heartbeat and the adopter's next beats, by when the room runs again."""
        retry = self._shared.config.node_ttl + 2 * self._shared.config.heartbeat_seconds
        message = f"room {room} is moving to another node; retry in {retry:g} s"
        self.send(conn, rid, "node_unavailable", message, retry_after=retry)


class RequestLoop:
    """Reads one connection's frames: ``hello`` goes to the handshake, every other request to
    its handler in the dispatch table."""

    def __init__(
        self,
        shared: NodeServices,
        *,
        replies: ErrorReplies,
        hello: Callable[[Connection, m.Hello], Awaitable[None]],
        dispatch: Callable[[Connection, m.Request], Awaitable[None]],
    ) -> None:
        self._shared = shared
        self._replies = replies
        self._hello = hello
        self._dispatch = dispatch

    async def receive(self, conn: Connection, frame: bytes | str) -> None:
        """Handle one frame; a connection's frames are handled strictly one after another."""
        started = time.perf_counter()
        rid: int | None = None
        act = False
        try:
            allowed = conn.bucket.take()
            try:
                message = decode_client(frame, self._shared.config.max_frame)
            except ProtocolError as exc:
                rid = exc.request_id
                raise
            rid = message.id
            if not allowed:
                raise ProtocolError("rate_limited", "too many messages; slow down")
            act = isinstance(message, m.Act)
            if isinstance(message, m.Hello):
                await self._hello(conn, message)
            else:
                await self._dispatch(conn, message)
        except IllegalAction as exc:
            code = exc.reason if exc.reason in ("not_your_turn", "game_over") else "illegal_action"
            self._replies.send(conn, rid, code, exc.message, exc.reason)
        except CardaviaError as exc:
            retry_after = None
            if exc.code == "storage_unavailable":  # the archive's database is away: ask again later
                self._shared.storage_failed()
                retry_after = STORAGE_RETRY_SECONDS
            self._replies.send(conn, rid, exc.code, exc.message, retry_after=retry_after)
            if exc.code == "unknown_room":  # a guessed code or id: counted per address as well
                self._shared.limits.failed_lookup(conn.address)
            if exc.code in ABUSE_CODES:
                conn.abuse += 1
                if conn.abuse > self._shared.config.abuse_limit:
                    conn.close(CLOSE_POLICY, "too many bad messages")
        except Exception:  # never let one bad request take the connection's handler down
            log.exception(
                "event=request_failed session=%s room=%s", conn.session, conn.room.id if conn.room else "-"
            )
            self._replies.send(conn, rid, "internal_error", "the request failed on the server")
        else:
            if act:  # an accepted move: every recipient's delta is queued
                self._shared.metrics.action_latency.observe(time.perf_counter() - started)
