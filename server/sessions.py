"""The node's connections and live sessions: which connection speaks for a session now, when a
session that holds no seat expires, and what a connection leaves behind when it goes.

A session outlives its connections: a player whose connection drops keeps the
session (and its resume token, kept hashed in the lobby) and may come back on
another connection, here or on another node. So this table only says which
connection is a session's *current* one; the handshake (``handshake.py``)
replaces it, and a request handler that awaited the lobby checks that its
connection is still the current one before it seats it. A session with no seat
and no connection expires after ``session_seconds``; a seated one lives as
long as its room (``RoomKeeper`` expires it when the room closes).

Knows no room beyond a connection's ``room`` attribute: what a departure does
to a room is ``rooms.py``'s.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time

from cardavia.protocol import messages as m
from cardavia.server.connection import CLOSE_POLICY, CLOSE_RESTART, Connection
from cardavia.server.lobby import LobbyUnavailable
from cardavia.server.services import NodeServices

log = logging.getLogger("cardavia.server")


def token_hash(token: str) -> str:
    """What the lobby keeps of a resume token: its SHA-256, so a copy of the lobby resumes nobody."""
    return hashlib.sha256(token.encode()).hexdigest()


class SessionKeeper:
    """The node's open connections, and the connection each live session speaks through."""

    def __init__(self, shared: NodeServices) -> None:
        self._shared = shared
        self.connections: set[Connection] = set()
        """Every open WebSocket connection of this node, with or without a session."""
        self.live: dict[str, Connection] = {}
        """Each session that has a connection here: its current one."""
        self._players: dict[str, set[Connection]] = {}
        """Each profile that has a connection here: those connections (one per device or tab)."""

    def set_player(self, conn: Connection, player: m.PlayerInfo | None) -> None:
        """``conn`` plays as ``player`` from now on (None: anonymous), and is found by its id."""
        self._unindex(conn)
        conn.player = player
        if player is not None and conn in self.connections:
            self._players.setdefault(player.id, set()).add(conn)

    def of_player(self, player: str) -> list[Connection]:
        """This node's open connections playing as profile ``player`` (to push it what concerns
        the profile: a rating change, a deletion on another device)."""
        return list(self._players.get(player, ()))

    @property
    def players(self) -> int:
        """Profiles with a connection here (the size of the index ``of_player`` reads)."""
        return len(self._players)

    def _unindex(self, conn: Connection) -> None:
        if conn.player is not None:
            held = self._players.get(conn.player.id)
            if held is not None:
                held.discard(conn)
                if not held:
                    del self._players[conn.player.id]

    def current(self, conn: Connection) -> bool:
        """Whether ``conn`` still speaks for its session (no newer connection replaced it)."""
        return self.live.get(conn.session) is conn

    def connected(self, session: str) -> bool:
        """Whether ``session`` has a connection on this node."""
        return session in self.live

    def attach(self, conn: Connection, session: str) -> Connection | None:
        """Make ``conn`` the session's current connection; the one it replaces, if any."""
        old = self.live.get(session)
        self.live[session] = conn
        return old

    def add(self, conn: Connection) -> None:
        """A connection is open (its address was allowed one)."""
        self.connections.add(conn)

    def remove(self, conn: Connection) -> None:
        """A connection's socket is closed and its last message handled: forget it and, if it was
        still its session's, the session's connection (its address's count went with its socket)."""
        self.connections.discard(conn)
        self._unindex(conn)
        log.info(
            "event=disconnected session=%s room=%s", conn.session or "-", conn.room.id if conn.room else "-"
        )
        if self.live.get(conn.session) is conn:
            del self.live[conn.session]
            if conn.seat is None:  # a seated session lives as long as its room (rooms.py expires it)
                self._shared.spawn(self.expire(conn.session))

    async def expire(self, session: str, *, room: str | None = None) -> None:
        """A session that holds no seat and has no connection here expires after ``session_seconds``."""
        try:
            await self._shared.lobby.expire_session(session, self._shared.config.session_seconds, room=room)
        except LobbyUnavailable:
            log.warning("event=session_expiry_skipped session=%s reason=lobby_unavailable", session)

    async def close_idle(self) -> None:
        """Close connections outside any room that have been silent for ``idle_timeout``.

        One sweep a quarter of the timeout (at most every 15 s) instead of a timer
        around every read: a timer per frame cost the server 4% of its time per action.
        """
        timeout = self._shared.config.idle_timeout
        while True:
            await asyncio.sleep(min(timeout / 4, 15.0))
            self._shared.limits.sweep()
            limit = time.monotonic() - timeout
            for conn in list(self.connections):
                if conn.room is None and conn.last_seen < limit and not conn.closing:
                    log.info("event=idle_close session=%s", conn.session or "-")
                    conn.close(CLOSE_POLICY, "idle for too long")

    def close_all(self) -> None:
        """Tell every client the node is going down (close code 1012: come back shortly)."""
        for conn in list(self.connections):
            conn.close(CLOSE_RESTART, "server restarting")
