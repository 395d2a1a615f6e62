"""The ``hello`` handshake: a new session or a resumed one, its resume token, and the way back
to the player's room, here or on the node that runs it now.

A player is known by a session, and comes back to it with the resume token of
its last ``welcome``; every ``hello`` hands out a fresh token, and only its
hash is kept (in the lobby, so any node can resume any session). A resumed
session sits down again in its room if this node runs it; if another node
does, the player is redirected there, and told to retry shortly while that
node is gone and its rooms are being adopted. A newer connection of a session
replaces the older one, which is told so and closed.

A hello may also carry a player key, the secret of a profile (``profiles.py``):
the welcome then names the profile, and the session remembers it, so a resume
without the key keeps it. A key that names no profile, or one that cannot be
checked now, never refuses the hello: the player starts anonymous and is told
why (``welcome.player_error``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping

from cardavia import __version__
from cardavia.protocol import messages as m
from cardavia.protocol.errors import ProtocolError
from cardavia.protocol.names import GUEST_MAX, GUEST_MIN, fallback_guest_name
from cardavia.server.connection import CLOSE_POLICY, CLOSE_TRY_LATER, Connection
from cardavia.server.lobby import SessionEntry
from cardavia.server.profiles import is_player_key, key_hash, player_info
from cardavia.server.requests import ErrorReplies
from cardavia.server.room import Room
from cardavia.server.services import NodeServices
from cardavia.server.sessions import SessionKeeper, token_hash
from cardavia.server.store import StorageUnavailable

log = logging.getLogger("cardavia.server")


class Handshake:
    """Answers ``hello``: the session, its token, and the player's room if it has one."""

    def __init__(
        self,
        shared: NodeServices,
        *,
        sessions: SessionKeeper,
        rooms: Mapping[str, Room],
        replies: ErrorReplies,
    ) -> None:
        self._shared = shared
        self._sessions = sessions
        self._rooms = rooms
        self._replies = replies

    async def hello(self, conn: Connection, msg: m.Hello) -> None:
        """A connection's ``hello``: the protocol version checked, then the handshake, once."""
        if msg.version not in m.SUPPORTED_VERSIONS:
            self._replies.send(
                conn,
                msg.id,
                "unsupported_version",
                f"protocol version {msg.version} is not supported; this server speaks "
                f"{', '.join(map(str, sorted(m.SUPPORTED_VERSIONS)))}",
            )
            conn.close(CLOSE_POLICY, "unsupported protocol version")
            return
        if conn.session:
            raise ProtocolError("invalid_field", "hello was already sent on this connection")
        conn.lang = msg.lang
        with conn.handshake():
            await self._handshake(conn, msg)

    async def _handshake(self, conn: Connection, msg: m.Hello) -> None:
        session = None
        if msg.resume:
            session = await self._shared.lobby.session_by_token(token_hash(msg.resume))
            if session is None:
                self._replies.send(
                    conn, msg.id, "bad_resume_token", "that resume token is unknown or was replaced"
                )
        if session is None:
            if not self._shared.limits.new_session(conn.address):
                self._shared.metrics.limited.labels("sessions").inc()
                self._replies.send(
                    conn, msg.id, "rate_limited", "too many new sessions from your address; retry later"
                )
                conn.close(CLOSE_TRY_LATER, "too many new sessions from your address")
                return
            session = SessionEntry("s-" + secrets.token_hex(12), "", "")
        conn.name, conn.guest = _name_of(msg, session)
        player, player_error = await self._player(msg.player, session.player if msg.resume else None)
        token = secrets.token_urlsafe(24)
        session.token_hash = token_hash(token)
        session.name, session.guest = conn.name, conn.guest
        session.player = player.id if player is not None else None
        await self._shared.lobby.save_session(session)
        conn.session = session.session
        conn.token_hash = session.token_hash
        self._sessions.set_player(conn, player)
        old = self._sessions.attach(conn, session.session)
        room = self._rooms.get(session.room or "")
        if room is not None and not room.holds(session.seat, session.session):
            room = None  # the session left that room (or its seat was never taken): nothing to resume
        conn.send(
            m.Welcome(
                id=msg.id,
                session=session.session,
                resume=token,
                server=f"cardavia/{__version__}",
                room=room.id if room else None,
                player=player,
                player_error=player_error,
                guest=conn.guest,
            )
        )
        log.info(  # never the key: a log line must not let its reader sign in as anyone
            "event=hello session=%s resumed=%s room=%s player=%s player_error=%s",
            session.session,
            bool(msg.resume),
            room.id if room else "-",
            player.id if player else "-",
            player_error or "-",
        )
        if old is not None and old is not conn:
            old.room = None
            old.send(m.Left(reason="replaced by a newer connection"))
            old.close(CLOSE_POLICY, "replaced by a newer connection")
        if room is not None and session.seat is not None:
            conn.room, conn.seat = room, session.seat
            room.sit(session.seat, conn, conn.name, last_seq=msg.last_seq, guest=conn.guest)
        elif session.room and session.room not in self._rooms:
            await self._send_home(conn, msg.id, session)

    async def _player(self, key: str | None, held: str | None) -> tuple[m.PlayerInfo | None, str | None]:
        """The profile a hello signs in as, and why not when it does not: the profile of the
        player ``key`` (only its hash is looked up), else the one the resumed session ``held``.

        A key not of the form the server gives out is not looked up at all
        (``malformed_player_key``); an unknown one (never given, or its profile deleted) is
        ``unknown_player``; a database that does not answer, ``storage_unavailable``. In each
        case the session goes on anonymous and nothing else changes. A resumed session whose
        profile was deleted meanwhile (on another device) simply goes on without it."""
        if key is None and held is None:
            return None, None
        if key is not None and not is_player_key(key):
            return None, "malformed_player_key"
        archive = self._shared.archive
        try:
            if key is not None:
                found = await archive.player_by_key(key_hash(key))
            else:
                found = await archive.player(held or "")
        except StorageUnavailable:
            self._shared.storage_failed()
            return None, "storage_unavailable"
        if found is None:
            return None, "unknown_player" if key is not None else None
        if key is not None:
            self._shared.metrics.profiles.labels("signed_in").inc()
        return player_info(found), None

    async def _send_home(self, conn: Connection, rid: int | None, session: SessionEntry) -> None:
        """A resumed player whose room this node does not run: redirected to the node that does;
        told ``node_unavailable`` (retry shortly) while that node is gone and its rooms are being
        adopted, or while this node is still rebuilding it. A room nobody runs any more, or one
        whose seat is no longer the session's, is simply not resumed.

        A node counts as gone from its first missed heartbeat, or as soon as its port refuses
        connections (``NodeServices.node_to_send_to``), well before its heartbeat expires and
        the room is adopted: sent to a node that was killed, the player would only find nothing
        listening there."""
        assert session.room is not None
        entry = await self._shared.lobby.get_room(session.room)
        if entry is None or session.seat is None or entry.seats[session.seat].session != session.session:
            return
        config, url = self._shared.config, None
        if entry.node != config.node_id:
            url = await self._shared.node_to_send_to(entry.node)
        if url is not None:
            conn.send(m.Redirect(id=rid, url=url, room=session.room))
            return
        self._replies.room_moving(conn, rid, session.room)


def _name_of(msg: m.Hello, session: SessionEntry) -> tuple[str, int | None]:
    """The name a hello's player plays under, and its guest number when it chose no name.

    A name given wins over a guest number; without a name, the hello's guest number, else the
    one the resumed session was seated under, else a number drawn here. A guest's ``name`` is
    the English fallback ("Player 563") for clients that do not render guests themselves."""
    if msg.name is not None:
        return msg.name, None
    guest = msg.guest if msg.guest is not None else session.guest
    if guest is None:
        guest = GUEST_MIN + secrets.randbelow(GUEST_MAX - GUEST_MIN + 1)
    return fallback_guest_name(guest), guest
