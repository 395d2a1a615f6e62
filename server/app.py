"""The WebSocket server: its lifecycle, the read loop of each connection, the handshake, and the node's rooms.

A thin asyncio shell: decoding and validation are the protocol package's,
rules are the engines', and each room (``room.py``) owns its game. The server
reads each connection's frames in order and hands every request but ``hello``
to its handler (``handlers.py``); a connection's queue and limits are
``connection.py``'s, and the node's heartbeat and the adoption of rooms are
``nodes.py``'s. Here: start and shutdown, ``/healthz`` and ``/metrics``, the
handshake (sessions and resume tokens), and creating, closing and recording
the rooms this node runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import secrets
import signal
import time
from collections.abc import Coroutine
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.http11 import Request, Response

from cardavia import __version__
from cardavia.bots.base import Bot
from cardavia.bots.registry import levels_for
from cardavia.bots.registry import make_bot as registered_bot
from cardavia.games.errors import CardaviaError, IllegalAction, UnknownGameError
from cardavia.games.registry import get_game
from cardavia.games.rules import LANGUAGES, rules_text
from cardavia.games.traditions import default_tradition, get_tradition
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client
from cardavia.protocol.errors import ProtocolError
from cardavia.protocol.i18n import served_catalogue
from cardavia.server.bot_runner import BotRunner
from cardavia.server.config import ServerConfig
from cardavia.server.connection import CLOSE_POLICY, CLOSE_RESTART, CLOSE_TRY_LATER, Connection
from cardavia.server.gc_pacer import GcPacer
from cardavia.server.handlers import RequestHandlers
from cardavia.server.limits import AddressLimits, client_address, parse_networks
from cardavia.server.lobby import (
    LobbyStore,
    LobbyUnavailable,
    MemoryLobby,
    RoomEntry,
    SeatEntry,
    SessionEntry,
)
from cardavia.server.metrics import Metrics
from cardavia.server.nodes import NodeKeeper
from cardavia.server.records import RecordStore
from cardavia.server.room import Room
from cardavia.server.web_assets import Asset, WebAssets, is_websocket_request, make_asset
from cardavia.server.wire import Listener, Wire

log = logging.getLogger("cardavia.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Capital letters and digits without the look-alikes I, O, 0 and 1: easy to read aloud and type."""
CODE_LENGTH = 8
"""32**8 ≈ 1.1e12 codes: at the default 20 failed lookups a minute, one address would need about
a century on average to hit one of a thousand open private rooms (SECURITY.md has the figures)."""


ABUSE_CODES = frozenset(
    {"bad_frame", "too_large", "too_deep", "unknown_type", "invalid_field", "rate_limited", "unknown_room"}
)
"""Errors that count toward a connection's ``abuse_limit``: malformed or excessive requests, and
room ids or codes that name no room (so one connection cannot go on guessing private codes)."""


def make_bot(game: str, level: str, seed: str) -> Bot:
    """A bot for a seat. Rooms ask for levels the catalogue offers; a stand-in for a player
    who is gone (or out of time) asks for ``basic``, the weakest level that plays sensibly,
    and gets ``random`` in a game that has no ``basic`` bot yet."""
    if level not in levels_for(game):
        level = "random"
    return registered_bot(game, level, seed)


def make_lobby(config: ServerConfig) -> LobbyStore:
    """The Redis lobby when a URL is configured, else the embedded in-memory one."""
    if config.redis_url:
        from cardavia.server.lobby_redis import RedisLobby

        return RedisLobby(config.redis_url, prefix=config.redis_prefix)
    return MemoryLobby()


@functools.cache
def _catalogue_asset(lang: str) -> Asset:
    """A language's served catalogue as an asset: encoded and compressed once per process."""
    body = json.dumps(served_catalogue(lang), ensure_ascii=False, separators=(",", ":")).encode()
    return make_asset(f"{lang}.json", body)


def _respond(wire: Wire, status: HTTPStatus, body: str, content_type: str) -> Response:
    """An HTTP answer with ``content_type`` as its only Content-Type (``respond`` sets text/plain)."""
    response = wire.respond(status, body)
    del response.headers["Content-Type"]
    response.headers["Content-Type"] = content_type
    return response


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class CardaviaServer:
    def __init__(self, config: ServerConfig, lobby: LobbyStore | None = None) -> None:
        self.config = config
        self.lobby = lobby or make_lobby(config)
        self.metrics = Metrics()
        self.runner = BotRunner(config.bot_workers, think_seconds=self.metrics.bot_think)
        self.records = RecordStore(config.records_path(), keep_days=config.records_keep_days)
        self.limits = AddressLimits(
            max_connections=config.max_connections_per_ip,
            sessions_per_minute=config.sessions_per_minute,
            lookups_per_minute=config.failed_lookups_per_minute,
        )
        self._trusted_proxies = parse_networks(config.trusted_proxies)
        self.rooms: dict[str, Room] = {}
        self.sessions: dict[str, Connection] = {}
        self.connections: set[Connection] = set()
        self._server: Listener | None = None
        self._stopping = asyncio.Event()
        self._background: set[asyncio.Task[None]] = set()
        self._port = config.port
        self.node_keeper = NodeKeeper(self)
        self.handlers = RequestHandlers(self)
        self.web = WebAssets.load(config.web_dir, public_url=config.public_url)

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> Listener:
        """Bind, heartbeat, take back this node's rooms from its last run, then serve.

        Until its rooms are rebuilt the node refuses connections (and /healthz),
        so nobody meets a room of its that is not there yet.
        """
        self.config.records_path().mkdir(parents=True, exist_ok=True)
        self._server = Listener(
            self, max_size=max(65536, self.config.max_frame * 4), ping_interval=self.config.ping_interval
        )
        await self._server.bind(self.config.host, self.config.port)
        self._port = self._server.port
        self.spawn(self.node_keeper.heartbeat())
        self.spawn(self._close_idle())
        await self.node_keeper.reclaim_own_rooms()
        await self._server.start_serving()
        return self._server

    @property
    def listener(self) -> Listener | None:
        """The node's listening socket and its connections' wires, once ``start`` has bound it."""
        return self._server

    @property
    def port(self) -> int:
        """The port this node listens on (the real one when configured as 0)."""
        return self._port

    @property
    def public_url(self) -> str:
        """Where clients reach this node: the configured URL, else the address it really listens on."""
        return self.config.public_url or f"ws://{self.config.host}:{self.port}/"

    async def serve_forever(self) -> None:
        server = await self.start()
        # The collector is paced for the whole process, so only here and not in start():
        # a server embedded in tests or another program leaves it as it found it.
        pacer = GcPacer(
            self.config.gc_freeze_seconds, self.config.gc_full_seconds, pauses=self.metrics.gc_pause
        )
        self.spawn(pacer.run())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, self._stopping.set)
        log.info("event=serving version=%s url=%s node=%s", __version__, self.public_url, self.config.node_id)
        await self._stopping.wait()
        await self.shutdown(server)

    async def shutdown(self, server: Listener | None = None) -> None:
        """Stop accepting, tell every client with close code 1012, and end."""
        server = server or self._server
        if server is None:
            return
        for task in list(self._background):  # no heartbeat or adoption while going down
            task.cancel()
        for room in self.rooms.values():  # and no new move: once the heartbeat stops, another node may adopt
            room.freeze()
        server.close()
        for conn in list(self.connections):
            conn.close(CLOSE_RESTART, "server restarting")
        await server.wait_closed()
        for task in list(self._background):
            task.cancel()
        for room in list(self.rooms.values()):
            await room.settle()  # a move under way is journaled and applied whole
            room.close()
        self.runner.close()
        await self.records.drain()  # every finished game's record is on disk before the process ends
        self.records.close()

    def stop(self) -> None:
        self._stopping.set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ----------------------------------------------------------------- HTTP
    def http(self, wire: Wire, request: Request) -> Response | None:
        """Every HTTP request: ``/healthz``, ``/metrics``, the rules, the catalogues, the page;
        None accepts a WebSocket handshake (on any path)."""
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return wire.respond(HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            self._refresh_gauges()
            body = self.metrics.render().decode()
            return _respond(wire, HTTPStatus.OK, body, "text/plain; version=0.0.4; charset=utf-8")
        if path.startswith("/rules/"):
            return self._rules_page(wire, path.removeprefix("/rules/"), request.path)
        if path.startswith("/i18n/") and path.endswith(".json"):
            lang = path.removeprefix("/i18n/").removesuffix(".json")
            return self._catalogue_page(wire, request, lang)
        if is_websocket_request(request):
            return None  # the game's WebSocket, on any path
        return self.web.respond(request)  # the browser page: its files, or 404

    def _catalogue_page(self, wire: Wire, request: Request, lang: str) -> Response:
        """``GET /i18n/<lang>.json``: every word of the clients in ``lang``, English filling any gap;
        gzipped, with an ETag, so a page that has it already gets a 304.

        Only the six languages' own tags are served (``pl``, not ``pl-PL``): a client picks
        one of ``languages``, and a tag it made up is told so rather than given English."""
        if lang not in LANGUAGES:
            return wire.respond(
                HTTPStatus.NOT_FOUND, f"no catalogue {lang!r}; languages: {', '.join(LANGUAGES)}\n"
            )
        return self.web.send(request, _catalogue_asset(lang), [("Content-Language", lang)])

    @staticmethod
    def _rules_page(wire: Wire, game: str, target: str) -> Response:
        """``GET /rules/<game>?lang=xx``: the game's rules as Markdown, for pages and other clients."""
        query = parse_qs(urlsplit(target).query)
        lang = (query.get("lang") or ["en"])[0]
        try:
            text = rules_text(game, lang)
        except UnknownGameError:
            return wire.respond(HTTPStatus.NOT_FOUND, f"no game {game!r}\n")
        response = _respond(wire, HTTPStatus.OK, text.markdown, "text/markdown; charset=utf-8")
        response.headers["Content-Language"] = text.lang
        return response

    def _refresh_gauges(self) -> None:
        self.metrics.connections.set(len(self.connections))
        for table, size in self.table_sizes().items():
            self.metrics.table_size.labels(table).set(size)
        self.metrics.rooms.clear()
        counts: dict[tuple[str, str], int] = {}
        for room in self.rooms.values():
            key = (room.entry.game, room.entry.state)
            counts[key] = counts.get(key, 0) + 1
        for (game, state), count in counts.items():
            self.metrics.rooms.labels(game, state).set(count)

    def table_sizes(self) -> dict[str, int]:
        """Entries in every table this node keeps: each goes back to its idle size when play stops."""
        rooms = list(self.rooms.values())
        return {
            "rooms": len(rooms),
            "connections": len(self.connections),
            "sessions": len(self.sessions),
            "spectators": sum(len(r.spectators) for r in rooms),
            "room_tasks": sum(r.task_count() for r in rooms),
            "background_tasks": len(self._background),
            "records_in_memory": self.records.pending,
            **self.limits.sizes(),
            **self.lobby.table_sizes(),
        }

    # ---------------------------------------------------------- connections
    def opened(self, wire: Wire, request: Request) -> None:
        """A WebSocket is open: a connection, unless its address has too many already."""
        peer = wire.remote_address
        address = client_address(peer[0] if peer else None, request.headers, self._trusted_proxies)
        if not self.limits.connect(address):
            self.metrics.limited.labels("connections").inc()
            log.info("event=refused reason=connections_per_ip address=%s", address)
            wire.close(CLOSE_TRY_LATER, "too many connections from your address")
            return
        conn = Connection(wire, self.config, address, self._receive)
        self.connections.add(conn)
        wire.on_message = conn.received
        wire.on_lost = lambda: conn.lost(lambda: self._gone(conn))

    def _gone(self, conn: Connection) -> None:
        """A connection's socket is closed and its last message handled: forget it."""
        self.connections.discard(conn)
        self.limits.disconnect(conn.address)
        self._disconnected(conn)

    async def _close_idle(self) -> None:
        """Close connections outside any room that have been silent for ``idle_timeout``.

        One sweep a quarter of the timeout (at most every 15 s) instead of a timer
        around every read: a timer per frame cost the server 4% of its time per action.
        """
        timeout = self.config.idle_timeout
        while True:
            await asyncio.sleep(min(timeout / 4, 15.0))
            self.limits.sweep()
            limit = time.monotonic() - timeout
            for conn in list(self.connections):
                if conn.room is None and conn.last_seen < limit and not conn.closing:
                    log.info("event=idle_close session=%s", conn.session or "-")
                    conn.close(CLOSE_POLICY, "idle for too long")

    async def _receive(self, conn: Connection, frame: bytes | str) -> None:
        """Handle one frame; a connection's frames are handled strictly one after another."""
        started = time.perf_counter()
        rid: int | None = None
        act = False
        try:
            allowed = conn.bucket.take()
            try:
                message = decode_client(frame, self.config.max_frame)
            except ProtocolError as exc:
                rid = exc.request_id
                raise
            rid = message.id
            if not allowed:
                raise ProtocolError("rate_limited", "too many messages; slow down")
            act = isinstance(message, m.Act)
            if isinstance(message, m.Hello):
                await self._on_hello(conn, message)
            else:
                await self.handlers.dispatch(conn, message)
        except IllegalAction as exc:
            code = exc.reason if exc.reason in ("not_your_turn", "game_over") else "illegal_action"
            self._error(conn, rid, code, exc.message, exc.reason)
        except CardaviaError as exc:
            self._error(conn, rid, exc.code, exc.message)
            if exc.code == "unknown_room":  # a guessed code or id: counted per address as well
                self.limits.failed_lookup(conn.address)
            if exc.code in ABUSE_CODES:
                conn.abuse += 1
                if conn.abuse > self.config.abuse_limit:
                    conn.close(CLOSE_POLICY, "too many bad messages")
        except Exception:  # never let one bad request take the connection's handler down
            log.exception(
                "event=request_failed session=%s room=%s", conn.session, conn.room.id if conn.room else "-"
            )
            self._error(conn, rid, "internal_error", "the request failed on the server")
        else:
            if act:  # an accepted move: every recipient's delta is queued
                self.metrics.action_latency.observe(time.perf_counter() - started)

    def _error(
        self,
        conn: Connection,
        rid: int | None,
        code: str,
        message: str,
        reason: str | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        self.metrics.errors.labels(code).inc()
        conn.send(m.Error(id=rid, code=code, message=message, reason=reason, retry_after=retry_after))

    def _disconnected(self, conn: Connection) -> None:
        log.info(
            "event=disconnected session=%s room=%s", conn.session or "-", conn.room.id if conn.room else "-"
        )
        if self.sessions.get(conn.session) is conn:
            del self.sessions[conn.session]
            if conn.seat is None:  # a seated session lives as long as its room (see _close_room)
                self.spawn(self._expire_session(conn.session))
        if conn.room is None:
            return
        room = conn.room
        room.unwatch(conn)
        if conn.seat is not None:
            room.dropped(conn.seat, conn)
        self.close_if_abandoned(room)

    def close_if_abandoned(self, room: Room, *, waited: bool = False) -> None:
        """A room nobody is in closes: before its game at once; after its match once the grace
        period has passed, so a player who drops at the end can still come back to the result, or
        after ``result_seconds`` if a player dropped before the end and has not been back since.
        A room every person has left for good closes at once, mid-match too: bots do not play on
        for nobody (nor count against the room limit of the player who left)."""
        if room.id not in self.rooms or room.connected():
            return
        if room.state is None or room.deserted() or (room.finished and waited):
            self._close_room(room)
        elif room.finished:
            wait = self.config.grace_seconds
            if room.absent_at_end:
                wait = max(wait, self.config.result_seconds)
            loop = asyncio.get_running_loop()
            loop.call_later(wait, lambda: self.close_if_abandoned(room, waited=True))

    # ------------------------------------------------------------ handshake
    async def _on_hello(self, conn: Connection, msg: m.Hello) -> None:
        if msg.version not in m.SUPPORTED_VERSIONS:
            self._error(
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
        conn.name, conn.lang = msg.name, msg.lang
        with conn.handshake():
            await self._handshake(conn, msg)

    async def _handshake(self, conn: Connection, msg: m.Hello) -> None:
        session = None
        if msg.resume:
            session = await self.lobby.session_by_token(_token_hash(msg.resume))
            if session is None:
                self._error(conn, msg.id, "bad_resume_token", "that resume token is unknown or was replaced")
        if session is None:
            if not self.limits.new_session(conn.address):
                self.metrics.limited.labels("sessions").inc()
                self._error(
                    conn, msg.id, "rate_limited", "too many new sessions from your address; retry later"
                )
                conn.close(CLOSE_TRY_LATER, "too many new sessions from your address")
                return
            session = SessionEntry("s-" + secrets.token_hex(12), msg.name, "")
        token = secrets.token_urlsafe(24)
        session.token_hash = _token_hash(token)
        session.name = msg.name
        await self.lobby.save_session(session)
        conn.session = session.session
        conn.token_hash = session.token_hash
        old = self.sessions.get(session.session)
        self.sessions[session.session] = conn
        room = self.rooms.get(session.room or "")
        if room is not None and not room.holds(session.seat, session.session):
            room = None  # the session left that room (or its seat was never taken): nothing to resume
        conn.send(
            m.Welcome(
                id=msg.id,
                session=session.session,
                resume=token,
                server=f"cardavia/{__version__}",
                room=room.id if room else None,
            )
        )
        log.info(
            "event=hello session=%s resumed=%s room=%s",
            session.session,
            bool(msg.resume),
            room.id if room else "-",
        )
        if old is not None and old is not conn:
            old.room = None
            old.send(m.Left(reason="replaced by a newer connection"))
            old.close(CLOSE_POLICY, "replaced by a newer connection")
        if room is not None and session.seat is not None:
            conn.room, conn.seat = room, session.seat
            room.sit(session.seat, conn, msg.name, last_seq=msg.last_seq)
        elif session.room and session.room not in self.rooms:
            await self._send_home(conn, msg.id, session)

    async def _send_home(self, conn: Connection, rid: int, session: SessionEntry) -> None:
        """A resumed player whose room this node does not run: redirected to the node that does;
        told ``node_unavailable`` (retry shortly) while that node is gone and its rooms are being
        adopted, or while this node is still rebuilding it. A room nobody runs any more, or one
        whose seat is no longer the session's, is simply not resumed.

        A node counts as gone from its first missed heartbeat (``fresh_nodes``), well before
        its heartbeat expires and the room is adopted: sent to a node that was killed, the
        player would only find nothing listening there."""
        assert session.room is not None
        entry = await self.lobby.get_room(session.room)
        if entry is None or session.seat is None or entry.seats[session.seat].session != session.session:
            return
        url = None
        if entry.node != self.config.node_id:
            url = (await self.lobby.fresh_nodes(self.config.heartbeat_seconds)).get(entry.node)
        if url is not None:
            conn.send(m.Redirect(id=rid, url=url, room=session.room))
            return
        self.room_moving(conn, rid, session.room)

    def room_moving(self, conn: Connection, rid: int, room: str) -> None:
        """Tell ``conn`` that ``room``'s node is gone (``node_unavailable``): ``retry_after`` covers
        the rest of that node's heartbeat and the adopter's next beats, by when the room runs again."""
        retry = self.config.node_ttl + 2 * self.config.heartbeat_seconds
        message = f"room {room} is moving to another node; retry in {retry:g} s"
        self._error(conn, rid, "node_unavailable", message, retry_after=retry)

    # ---------------------------------------------------------------- rooms
    async def new_room(
        self,
        conn: Connection,
        game_id: str,
        *,
        deck: str | None,
        options: dict[str, Any],
        public: bool,
        humans: int,
        bot_level: str,
        turn_seconds: float | None,
        fill_after: float | None = None,
    ) -> Room:
        """A room on this node, created by ``conn`` and listed in the lobby; refuses what it may not ask."""
        if conn.room is not None and conn.seat is not None and not conn.room.finished:
            raise ProtocolError("already_in_room", "leave your room first")
        if self._rooms_held(conn) >= self.config.max_rooms_per_connection:
            raise ProtocolError(
                "too_many_rooms",
                f"at most {self.config.max_rooms_per_connection} rooms of yours may be open at once; "
                "leave one or let its match end",
            )
        game = get_game(game_id)
        checked = game.options(options)
        tradition = get_tradition(deck) if deck else default_tradition(game_id)
        if game_id not in tradition.games:
            raise ProtocolError("unknown_deck", f"the {tradition.id} pack is not used for {game_id}")
        if humans > game.players:
            raise ProtocolError("invalid_field", f"{game_id} has {game.players} seats")
        if bot_level not in levels_for(game_id):
            offered = ", ".join(levels_for(game_id))
            raise ProtocolError("invalid_field", f"bot_level: {game_id} has {offered} bots, not {bot_level}")
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        entry = RoomEntry(
            room="r-" + secrets.token_hex(8),
            code=code,
            game=game_id,
            deck=tradition.id,
            options=checked,
            public=public,
            seats=[SeatEntry() for _ in range(game.players)],
            humans=humans,
            bot_level=bot_level,
            owner=conn.session,
            node=self.config.node_id,
            turn_seconds=self._turn_seconds(turn_seconds, public),
            fill_after=fill_after,
        )
        room = self.make_room(entry)
        await self.lobby.create_room(entry)
        self.rooms[entry.room] = room
        log.info(
            "event=room_created room=%s game=%s public=%s session=%s",
            entry.room,
            entry.game,
            public,
            conn.session,
        )
        conn.created.add(entry.room)
        return room

    def _rooms_held(self, conn: Connection) -> int:
        """Rooms ``conn`` created that are open now: waiting or playing, and not left to other people
        (a room it left where others play on is theirs). Finished and closed ones are forgotten."""
        held = 0
        for room_id in list(conn.created):
            room = self.rooms.get(room_id)
            if room is None or room.finished:
                conn.created.discard(room_id)
                continue
            others = any(s.kind == "human" and s.session != conn.session for s in room.seats)
            if conn.room is room or not others:
                held += 1
        return held

    def make_room(self, entry: RoomEntry) -> Room:
        """The room for ``entry`` on this node: a new one, or one to rebuild from its journal."""
        return Room(
            entry,
            runner=self.runner,
            make_bot=make_bot,
            bot_delay=self.config.bot_delay,
            grace_seconds=self.config.grace_seconds,
            on_finish=self._record,
            journal=self.lobby,
        )

    def _turn_seconds(self, asked: float | None, public: bool) -> float | None:
        """The creator's timer; else the server default for public rooms; private rooms: off."""
        if asked is not None:
            return asked
        return (self.config.default_turn_seconds or None) if public else None

    def _close_room(self, room: Room) -> None:
        room.close()
        self.rooms.pop(room.id, None)
        log.info("event=room_closed room=%s game=%s matches=%s", room.id, room.entry.game, room.matches)
        self.spawn(self.lobby.delete_room(room.id))
        for slot in room.seats:  # its players' sessions hold no seat any more
            if slot.session is not None and slot.session not in self.sessions:
                self.spawn(self._expire_session(slot.session, room=room.id))

    async def _expire_session(self, session: str, *, room: str | None = None) -> None:
        """A session that holds no seat and has no connection here expires after ``session_seconds``."""
        try:
            await self.lobby.expire_session(session, self.config.session_seconds, room=room)
        except LobbyUnavailable:
            log.warning("event=session_expiry_skipped session=%s reason=lobby_unavailable", session)

    # -------------------------------------------------------------- records
    def _record(self, room: Room, record: dict[str, Any]) -> str:
        record_id = f"{room.id}-{room.matches}"
        self.records.save(record_id, record)  # written by a thread: no room waits on the disk
        log.info("event=match_over room=%s game=%s record=%s", room.id, room.entry.game, record_id)
        self.spawn(self.lobby.set_state(room.id, "finished"))
        asyncio.get_running_loop().call_soon(self.close_if_abandoned, room)
        return record_id
