"""The WebSocket server: connections, the handshake, request dispatch, limits and shutdown.

A thin asyncio shell: decoding and validation are the protocol package's,
rules are the engines', and each room (``room.py``) owns its game. This module
only routes a connection's requests to the right room and keeps connections
within their limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import inspect
import json
import logging
import secrets
import signal
import time
from collections.abc import Coroutine, Iterator
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from cardavia import __version__
from cardavia.bots.base import Bot
from cardavia.bots.registry import catalogue as bot_catalogue
from cardavia.bots.registry import levels_for
from cardavia.bots.registry import make_bot as registered_bot
from cardavia.games.errors import CardaviaError, IllegalAction
from cardavia.games.registry import GAMES, get_game
from cardavia.games.traditions import catalogue as deck_catalogue
from cardavia.games.traditions import default_tradition, get_tradition
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_client, encode, request_id, unpack_frame
from cardavia.protocol.errors import ProtocolError
from cardavia.server.bot_runner import BotRunner
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import (
    LobbyStore,
    LobbyUnavailable,
    MemoryLobby,
    RoomEntry,
    SeatEntry,
    SessionEntry,
)
from cardavia.server.metrics import Metrics
from cardavia.server.room import Room, room_info

GC_THRESHOLDS = (50_000, 20, 100)
"""Young, middle and full collections: CPython's defaults are (700, 10, 10)."""

log = logging.getLogger("cardavia.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CLOSE_POLICY = 1008
CLOSE_RESTART = 1012
MAX_SEND_QUEUE = 256
LEASE_SECONDS = 30.0
"""How long a node may take to rebuild a room it won the lease on before another node may try."""
CHAT_PER_SECOND, CHAT_BURST = 1.0, 5


def make_bot(game: str, level: str, seed: str) -> Bot:
    """A bot for a seat. Rooms ask for levels the catalogue offers; a stand-in for a player
    who is gone (or out of time) asks for ``basic``, the weakest level that plays sensibly,
    and gets ``random`` in a game that has no ``basic`` bot yet."""
    if level not in levels_for(game):
        level = "random"
    return registered_bot(game, level, seed)


def default_level(game: str) -> str:
    """The level empty seats get when nobody chose one: ``basic`` where it exists."""
    return "basic" if "basic" in levels_for(game) else "random"


def _level(msg: m.CreateRoom | m.PlayNow, game: str) -> str:
    """The level a request asked for, or the game's default when it named none."""
    return msg.bot_level or default_level(game)


def make_lobby(config: ServerConfig) -> LobbyStore:
    """The Redis lobby when a URL is configured, else the embedded in-memory one."""
    if config.redis_url:
        from cardavia.server.lobby_redis import RedisLobby

        return RedisLobby(config.redis_url, prefix=config.redis_prefix)
    return MemoryLobby()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TokenBucket:
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

    def __init__(self, ws: ServerConnection, server: CardaviaServer) -> None:
        self.ws = ws
        self.server = server
        self.session = ""
        self.token_hash = ""
        self.name = ""
        self.lang = "en"
        self.room: Room | None = None
        self.seat: int | None = None
        self.rooms_created = 0
        self.abuse = 0
        self.bucket = TokenBucket(server.config.rate_per_second, server.config.rate_burst)
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


class CardaviaServer:
    def __init__(self, config: ServerConfig, lobby: LobbyStore | None = None) -> None:
        self.config = config
        self.lobby = lobby or make_lobby(config)
        self.metrics = Metrics()
        self.runner = BotRunner(config.bot_workers, think_seconds=self.metrics.bot_think)
        self.rooms: dict[str, Room] = {}
        self.sessions: dict[str, Connection] = {}
        self.connections: set[Connection] = set()
        self._server: Server | None = None
        self._stopping = asyncio.Event()
        self._background: set[asyncio.Task[None]] = set()
        self._port = config.port
        self._reclaimed = False
        self._reclaiming = asyncio.Lock()

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> Server:
        """Bind, heartbeat, take back this node's rooms from its last run, then serve.

        Until its rooms are rebuilt the node refuses connections (and /healthz),
        so nobody meets a room of its that is not there yet.
        """
        self.config.records_path().mkdir(parents=True, exist_ok=True)
        self._server = await serve(
            self.handle,
            self.config.host,
            self.config.port,
            process_request=self._http,
            compression=None,
            max_size=max(65536, self.config.max_frame * 4),
            ping_interval=self.config.ping_interval or None,
            ping_timeout=self.config.ping_interval or None,
            start_serving=False,
        )
        self._port = int(next(iter(self._server.sockets)).getsockname()[1])
        self._spawn(self._heartbeat())
        await self._reclaim_own_rooms()
        await self._server.start_serving()
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
        # Start-up objects (modules, models, the game tables) never become garbage:
        # freezing them keeps them out of every later full collection. A full
        # collection walks every room's states and buffers (tens of ms per thousand
        # rooms), so collections run rarely: nearly all of a room's garbage is freed
        # by reference counting, and the rare cycles can wait (see BENCHMARKS.md).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, self._stopping.set)
        log.info("event=serving version=%s url=%s node=%s", __version__, self.public_url, self.config.node_id)
        await self._stopping.wait()
        await self.shutdown(server)

    async def shutdown(self, server: Server | None = None) -> None:
        """Stop accepting, tell every client with close code 1012, and end."""
        server = server or self._server
        if server is None:
            return
        for task in list(self._background):  # no heartbeat or adoption while going down
            task.cancel()
        for room in self.rooms.values():  # and no new move: once the heartbeat stops, another node may adopt
            room.freeze()
        server.close(close_connections=False)
        for conn in list(self.connections):
            conn.close(CLOSE_RESTART, "server restarting")
        await server.wait_closed()
        for task in list(self._background):
            task.cancel()
        for room in list(self.rooms.values()):
            await room.settle()  # a move under way is journaled and applied whole
            room.close()
        self.runner.close()

    def stop(self) -> None:
        self._stopping.set()

    async def _heartbeat(self) -> None:
        """Tell the lobby this node is alive, catch up journals, and adopt rooms of nodes that died.

        While the lobby is unreachable the node retries with a growing pause; when
        it answers again, the node writes back its rooms, players and journals, in
        case the store came back empty.
        """
        failures = 0
        while True:
            try:
                await self.lobby.register_node(self.config.node_id, self.public_url, self.config.node_ttl)
                if failures:
                    await self._reregister()
                    log.info("event=lobby_back node=%s after_failures=%s", self.config.node_id, failures)
                failures = 0
                for room in list(self.rooms.values()):
                    try:
                        await room.flush()
                    except LobbyUnavailable:
                        raise
                    except Exception:  # one room's fault must not stop the heartbeat of all
                        log.exception("event=journal_flush_failed room=%s", room.id)
                if not self._reclaimed and not self._reclaiming.locked():  # the lobby was down at start
                    await self._reclaim_own_rooms()
                await self._adopt_orphans()
            except LobbyUnavailable as exc:  # games go on in memory
                failures += 1
                log.warning(
                    "event=lobby_unreachable node=%s failures=%s error=%s", self.config.node_id, failures, exc
                )
            pause = self.config.heartbeat_seconds * min(2 ** max(failures - 1, 0), 8)
            await asyncio.sleep(pause)

    async def _reregister(self) -> None:
        """Write this node's rooms, their journals and its players' sessions back into the lobby."""
        for room in list(self.rooms.values()):
            if await self.lobby.get_room(room.id) is None:
                await self.lobby.create_room(room.entry.copy())
                if room.entry.state != "waiting":
                    await self.lobby.set_state(room.id, room.entry.state)
            await room.rejournal()
        for conn in list(self.connections):
            if conn.session:
                seat_room = conn.room.id if conn.room is not None else None
                await self.lobby.save_session(
                    SessionEntry(conn.session, conn.name, conn.token_hash, seat_room, conn.seat)
                )

    async def _adopt_orphans(self) -> None:
        """Rebuild here the rooms of nodes whose heartbeat stopped; a lease makes one node win each."""
        alive = await self.lobby.nodes()
        for node in await self.lobby.known_nodes():
            if node in alive or node == self.config.node_id:
                continue
            for room_id in await self.lobby.rooms_of(node):
                if room_id in self.rooms or not await self.lobby.take_lease(
                    room_id, self.config.node_id, LEASE_SECONDS
                ):
                    continue
                await self._adopt(room_id, node)

    async def _reclaim_own_rooms(self) -> None:
        """Rebuild the rooms the lobby still lists under this node's id (before serving).

        A node restarted under the same id (a rolling update) may come back before
        the others see its heartbeat stop, and then nobody else adopts its rooms. Its
        heartbeat goes into the lobby first, so a node that takes one of their leases
        later sees it alive and leaves the room; one that took a lease earlier holds
        it, and this node waits for it: a room that node moved stays there.
        """
        node = self.config.node_id
        async with self._reclaiming:
            try:
                await self.lobby.register_node(node, self.public_url, self.config.node_ttl)
                for room_id in await self.lobby.rooms_of(node):
                    if room_id not in self.rooms and await self._wait_for_lease(room_id):
                        await self._adopt(room_id, node)
            except LobbyUnavailable as exc:  # the heartbeat tries again once the lobby is back
                log.warning("event=reclaim_postponed node=%s error=%s", node, exc)
                return
            self._reclaimed = True

    async def _wait_for_lease(self, room_id: str) -> bool:
        """This node's lease on one of its rooms, waited for while another node holds it;
        False if the room is gone or that node moved it meanwhile."""
        node = self.config.node_id
        while not await self.lobby.take_lease(room_id, node, LEASE_SECONDS):
            entry = await self.lobby.get_room(room_id)
            if entry is None or entry.node != node:
                return False
            await asyncio.sleep(self.config.heartbeat_seconds / 2)
        return True

    async def _adopt(self, room_id: str, owner: str) -> None:
        """Rebuild a room listed under ``owner`` from its journal; this node holds its lease.

        The list may be older than the lease: if the room has moved since, or
        ``owner`` (another node) is alive again, the room is left to them.
        """
        me = self.config.node_id
        entry = await self.lobby.get_room(room_id)
        if entry is None:  # expired: drop it from the list, or every lease would try it again
            await self.lobby.forget_room(room_id, owner)
            await self.lobby.release_lease(room_id, me)
            return
        if entry.node != owner or (owner != me and owner in await self.lobby.nodes()):
            await self.lobby.release_lease(room_id, me)
            return
        journal = await self.lobby.load_match(room_id)
        if journal is None:  # never started: nothing to play on
            await self.lobby.delete_room(room_id)
            await self.lobby.release_lease(room_id, me)
            return
        started = time.perf_counter()
        entry.node = me
        try:
            room = self._make_room(entry)
            room.restore(*journal)
        except Exception:  # one journal that does not replay must not stop every other adoption
            log.exception("event=adoption_failed room=%s from=%s", room_id, owner)  # its lease runs out
            return
        self.rooms[room_id] = room
        await self.lobby.move_room(room_id, me)
        log.info(
            "event=room_adopted room=%s from=%s actions=%s seconds=%.3f",
            room_id, owner, len(journal[1]), time.perf_counter() - started,
        )  # fmt: skip
        if room.finished:  # nobody may come back for it: it goes the way of every finished room
            self._close_if_abandoned(room)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ----------------------------------------------------------------- HTTP
    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return connection.respond(HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            self._refresh_gauges()
            response = connection.respond(HTTPStatus.OK, self.metrics.render().decode())
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        return None

    def _refresh_gauges(self) -> None:
        self.metrics.connections.set(len(self.connections))
        self.metrics.rooms.clear()
        counts: dict[tuple[str, str], int] = {}
        for room in self.rooms.values():
            key = (room.entry.game, room.entry.state)
            counts[key] = counts.get(key, 0) + 1
        for (game, state), count in counts.items():
            self.metrics.rooms.labels(game, state).set(count)

    # ---------------------------------------------------------- connections
    async def handle(self, ws: ServerConnection) -> None:
        conn = Connection(ws, self)
        self.connections.add(conn)
        try:
            while True:
                try:
                    async with asyncio.timeout(self.config.idle_timeout):
                        frame = await ws.recv()
                except TimeoutError:
                    conn.close(CLOSE_POLICY, "idle for too long")
                    continue
                if not conn.closing:  # once closing, read on (and drop) so the close handshake completes
                    await self._receive(conn, frame)
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(conn)
            self._disconnected(conn)
            if not conn.closing:
                conn.close(1000, "")
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await conn.writer_task

    async def _receive(self, conn: Connection, frame: bytes | str) -> None:
        """Handle one frame; a connection's frames are handled strictly one after another."""
        started = time.perf_counter()
        rid: int | None = None
        act = False
        try:
            if not conn.bucket.take():
                raise ProtocolError("rate_limited", "too many messages; slow down")
            with contextlib.suppress(ProtocolError):
                rid = request_id(unpack_frame(frame, None)) if isinstance(frame, bytes) else None
            message = decode_client(frame, self.config.max_frame)
            act = isinstance(message, m.Act)
            if isinstance(message, m.Hello):
                await self._on_hello(conn, message)
            else:
                await self._dispatch(conn, message)
        except IllegalAction as exc:
            code = exc.reason if exc.reason in ("not_your_turn", "game_over") else "illegal_action"
            self._error(conn, rid, code, exc.message, exc.reason)
        except CardaviaError as exc:
            self._error(conn, rid, exc.code, exc.message)
            if exc.code in (
                "bad_frame",
                "too_large",
                "too_deep",
                "unknown_type",
                "invalid_field",
                "rate_limited",
            ):
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
        self, conn: Connection, rid: int | None, code: str, message: str, reason: str | None = None
    ) -> None:
        self.metrics.errors.labels(code).inc()
        conn.send(m.Error(id=rid, code=code, message=message, reason=reason))

    def _disconnected(self, conn: Connection) -> None:
        if self.sessions.get(conn.session) is conn:
            del self.sessions[conn.session]
        if conn.room is None:
            return
        room = conn.room
        room.unwatch(conn)
        if conn.seat is not None:
            room.dropped(conn.seat, conn)
        self._close_if_abandoned(room)

    def _close_if_abandoned(self, room: Room, *, waited: bool = False) -> None:
        """A room nobody is in closes: before its game at once; after its match once the
        grace period has passed, so a player who drops at the end can still come back to the result."""
        if room.id not in self.rooms or room.connected():
            return
        if room.state is None or (room.finished and waited):
            self._close_room(room)
        elif room.finished:
            loop = asyncio.get_running_loop()
            loop.call_later(self.config.grace_seconds, lambda: self._close_if_abandoned(room, waited=True))

    # -------------------------------------------------------------- dispatch
    async def _dispatch(self, conn: Connection, msg: m.Request) -> None:
        if not conn.session:
            raise ProtocolError("handshake_required", "send hello first")
        handler = getattr(self, f"_on_{type(msg).model_fields['type'].default}")
        result = handler(conn, msg)
        if inspect.isawaitable(result):
            await result

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
            session = SessionEntry("s-" + secrets.token_hex(6), msg.name, "")
        token = secrets.token_urlsafe(24)
        session.token_hash = _token_hash(token)
        session.name = msg.name
        await self.lobby.save_session(session)
        conn.session = session.session
        conn.token_hash = session.token_hash
        old = self.sessions.get(session.session)
        self.sessions[session.session] = conn
        room = self.rooms.get(session.room or "")
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
        if (
            room is not None
            and session.seat is not None
            and room.seats[session.seat].session == session.session
        ):
            conn.room, conn.seat = room, session.seat
            room.sit(session.seat, conn, msg.name, last_seq=msg.last_seq)
        elif room is None and session.room:
            await self._send_home(conn, msg.id, session.room)

    async def _send_home(self, conn: Connection, rid: int, room_id: str) -> None:
        """A resumed player whose room runs on another node is redirected there."""
        entry = await self.lobby.get_room(room_id)
        if entry is None or entry.node == self.config.node_id:
            return
        url = (await self.lobby.nodes()).get(entry.node)
        if url is not None:
            conn.send(m.Redirect(id=rid, url=url, room=room_id))

    def _on_get_catalogue(self, conn: Connection, msg: m.GetCatalogue) -> None:
        games = [
            {"id": g.id, "name": g.name, "players": g.players, "options": dict(g.default_options)}
            for g in GAMES.values()
        ]
        conn.send(m.Catalogue(id=msg.id, games=games, decks=deck_catalogue(conn.lang), bots=bot_catalogue()))

    async def _on_list_rooms(self, conn: Connection, msg: m.ListRooms) -> None:
        entries = await self.lobby.list_open(msg.game, msg.limit)
        conn.send(m.Rooms(id=msg.id, rooms=[room_info(e) for e in entries]))

    async def _new_room(
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
        if conn.room is not None and conn.seat is not None and not conn.room.finished:
            raise ProtocolError("already_in_room", "leave your room first")
        if conn.rooms_created >= self.config.max_rooms_per_connection:
            raise ProtocolError(
                "too_many_rooms", f"at most {self.config.max_rooms_per_connection} rooms per connection"
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
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(5))
        entry = RoomEntry(
            room="r-" + secrets.token_hex(5),
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
        room = self._make_room(entry)
        await self.lobby.create_room(entry)
        self.rooms[entry.room] = room
        conn.rooms_created += 1
        return room

    def _make_room(self, entry: RoomEntry) -> Room:
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

    async def _claim(self, conn: Connection, room: Room) -> None:
        """Take a free human seat through the lobby (atomic there), then sit in it here."""
        seat = await self.lobby.claim_seat(room.id, conn.session, conn.name)
        room.entry.seats[seat] = SeatEntry("human", conn.name, conn.session)
        await self._seat(conn, room, seat)

    async def _seat(self, conn: Connection, room: Room, seat: int) -> None:
        if conn.room is not None and conn.room is not room:
            await self._leave(conn)
        conn.room, conn.seat = room, seat
        room.sit(seat, conn, conn.name)
        await self.lobby.save_session(SessionEntry(conn.session, conn.name, conn.token_hash, room.id, seat))

    async def _on_create_room(self, conn: Connection, msg: m.CreateRoom) -> None:
        room = await self._new_room(
            conn,
            msg.game,
            deck=msg.deck,
            options=dict(msg.options),
            public=msg.public,
            humans=msg.humans,
            bot_level=_level(msg, msg.game),
            turn_seconds=msg.turn_seconds,
            fill_after=msg.fill_after,
        )
        if msg.humans >= 1:
            await self._claim(conn, room)
        else:
            conn.room = room
            room.watch(conn)
        if msg.fill_after is not None:
            self._spawn(self._fill_later(room, msg.fill_after))

    async def _fill_later(self, room: Room, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if room.state is None and room.id in self.rooms:
            await self._start(room)

    async def _lookup(self, room_id: str | None, code: str | None) -> RoomEntry:
        """The lobby's entry for a room, whichever node runs it."""
        entry = await self.lobby.get_room(room_id) if room_id else None
        if entry is None and code:
            entry = await self.lobby.room_by_code(code)
        if entry is None or (entry.node == self.config.node_id and entry.room not in self.rooms):
            raise ProtocolError("unknown_room", "no room has that id or code")
        return entry

    async def _find_room(self, room_id: str | None, code: str | None) -> Room:
        entry = await self._lookup(room_id, code)
        room = self.rooms.get(entry.room)
        if room is None:
            raise ProtocolError("unknown_room", "that room runs on another node; join it there")
        return room

    async def _redirect(self, conn: Connection, rid: int, entry: RoomEntry, seat: int) -> None:
        """Send the client to the node that runs the room, with the seat held for it there."""
        url = (await self.lobby.nodes()).get(entry.node)
        if url is None:
            await self.lobby.set_seat(entry.room, seat, SeatEntry())
            raise ProtocolError("node_unavailable", f"the node running room {entry.room} is not reachable")
        token = "rsv-" + secrets.token_urlsafe(18)
        await self.lobby.reserve(token, entry.room, seat, conn.session, self.config.reservation_seconds)
        conn.send(m.Redirect(id=rid, url=url, room=entry.room, reservation=token))

    async def _on_join_room(self, conn: Connection, msg: m.JoinRoom) -> None:
        if msg.reservation:
            await self._join_reserved(conn, msg.reservation)
            return
        entry = await self._lookup(msg.room, msg.code)
        if not entry.public and not msg.code:
            raise ProtocolError("unknown_room", "a private room is joined by its code")
        if entry.node != self.config.node_id:
            seat = await self.lobby.claim_seat(entry.room, conn.session, conn.name)
            await self._redirect(conn, msg.id, entry, seat)
            return
        room = self.rooms[entry.room]
        if conn.room is room and conn.seat is not None:
            raise ProtocolError("already_in_room", "you are already seated in this room")
        await self._claim(conn, room)
        await self._start_when_full(room)

    async def _join_reserved(self, conn: Connection, token: str) -> None:
        held = await self.lobby.take_reservation(token)
        if held is None or held[2] != conn.session or held[0] not in self.rooms:
            raise ProtocolError(
                "bad_reservation", "that seat reservation is unknown, used, expired or not yours"
            )
        room, seat = self.rooms[held[0]], held[1]
        room.entry.seats[seat] = SeatEntry("human", conn.name, conn.session)
        await self._seat(conn, room, seat)
        await self._start_when_full(room)

    async def _start_when_full(self, room: Room) -> None:
        """A room nobody owns (quick match) starts as soon as its seats for people are taken."""
        if room.entry.owner is None and room.state is None and not room.entry.human_seats_free():
            await self._start(room)

    async def _on_quick_match(self, conn: Connection, msg: m.QuickMatch) -> None:
        found = await self.lobby.quick_match(msg.game, conn.session, conn.name)
        if found is not None and found[0] not in self.rooms:
            entry = await self.lobby.get_room(found[0])
            if entry is not None:
                await self._redirect(conn, msg.id, entry, found[1])
                return
        if found is not None and found[0] in self.rooms:
            room, seat = self.rooms[found[0]], found[1]
            room.entry.seats[seat] = SeatEntry("human", conn.name, conn.session)
            await self._seat(conn, room, seat)
            await self._start_when_full(room)
            return
        players = get_game(msg.game).players
        humans = 2 if msg.game == "doudizhu" else players
        room = await self._new_room(
            conn,
            msg.game,
            deck=None,
            options={},
            public=True,
            humans=humans,
            bot_level=default_level(msg.game),
            turn_seconds=None,
        )
        room.entry.owner = None  # nobody owns a quick-match room: it starts when full
        await self._claim(conn, room)

    async def _on_play_now(self, conn: Connection, msg: m.PlayNow) -> None:
        room = await self._new_room(
            conn,
            msg.game,
            deck=msg.deck,
            options=dict(msg.options),
            public=False,
            humans=1,
            bot_level=_level(msg, msg.game),
            turn_seconds=None,
        )
        await self._claim(conn, room)
        await self._start(room)

    async def _start(self, room: Room) -> None:
        await self.lobby.set_state(room.id, "playing")
        await room.start(f"{room.id}/{room.matches}/{secrets.token_hex(4)}")

    async def _on_start(self, conn: Connection, msg: m.Start) -> None:
        room = self._my_room(conn)
        if room.entry.owner != conn.session:
            raise ProtocolError("not_room_owner", "only the room's owner may start it")
        if room.state is not None:
            raise ProtocolError("room_started", "the game has already started")
        await self._start(room)

    async def _on_rematch(self, conn: Connection, msg: m.Rematch) -> None:
        room = self._my_room(conn)
        await room.rematch(f"{room.id}/{room.matches}/{secrets.token_hex(4)}")

    def _my_room(self, conn: Connection) -> Room:
        if conn.room is None:
            raise ProtocolError("not_in_room", "join or create a room first")
        return conn.room

    async def _on_leave(self, conn: Connection, msg: m.Leave) -> None:
        self._my_room(conn)
        await self._leave(conn)
        conn.send(m.Left(id=msg.id))

    async def _leave(self, conn: Connection) -> None:
        room = conn.room
        if room is None:
            return
        if conn.seat is not None:
            room.leave(conn.seat)
            if room.state is None:  # before the game the seat opens again
                room.entry.seats[conn.seat] = SeatEntry()
                await self.lobby.set_seat(room.id, conn.seat, SeatEntry())
        room.unwatch(conn)
        conn.room, conn.seat = None, None
        self._close_if_abandoned(room)

    def _close_room(self, room: Room) -> None:
        room.close()
        self.rooms.pop(room.id, None)
        self._spawn(self.lobby.delete_room(room.id))

    async def _on_act(self, conn: Connection, msg: m.Act) -> None:
        room = self._my_room(conn)
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        await room.act(conn.seat, dict(msg.action))
        self.metrics.actions.labels(room.entry.game).inc()

    def _on_resync(self, conn: Connection, msg: m.Resync) -> None:
        room = self._my_room(conn)
        room.snapshot_for(conn.seat, conn)

    async def _on_spectate(self, conn: Connection, msg: m.Spectate) -> None:
        room = await self._find_room(msg.room, msg.code)
        if not room.entry.public and not msg.code:
            raise ProtocolError("unknown_room", "a private room is watched by its code")
        if conn.room is not None:
            await self._leave(conn)
        conn.room, conn.seat = room, None
        room.watch(conn)

    def _on_chat(self, conn: Connection, msg: m.Chat) -> None:
        room = self._my_room(conn)
        if not conn.chat_bucket.take():
            raise ProtocolError("rate_limited", "chat is limited to about one line a second")
        line = m.ChatMessage(seat=conn.seat, name=conn.name, text=msg.text)
        for other in room.connected():
            other.send(line)

    def _on_get_record(self, conn: Connection, msg: m.GetRecord) -> None:
        name = msg.record
        if not name.replace("-", "").isalnum():
            raise ProtocolError("unknown_record", "no record has that id")
        path = self.config.records_path() / f"{name}.jsonl"
        if not path.exists():
            raise ProtocolError("unknown_record", "no record has that id")
        conn.send(
            m.RecordMessage(id=msg.id, record_id=name, record=json.loads(path.read_text(encoding="utf-8")))
        )

    # -------------------------------------------------------------- records
    def _record(self, room: Room, record: dict[str, Any]) -> str:
        from cardavia.games.records import dumps

        record_id = f"{room.id}-{room.matches}"
        path = self.config.records_path() / f"{record_id}.jsonl"
        path.write_text(dumps(record) + "\n", encoding="utf-8")
        log.info("event=match_over room=%s game=%s record=%s", room.id, room.entry.game, record_id)
        self._spawn(self.lobby.set_state(room.id, "finished"))
        asyncio.get_running_loop().call_soon(self._close_if_abandoned, room)
        return record_id
