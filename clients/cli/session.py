"""One player's connection to a Cardavia server, kept alive across drops, restarts and redirects.

Every Python client (the terminal UI, headless bots, the bot SDK, the load
swarm) talks to the server through a ``Session``, so all of them reconnect and
follow redirects the same way.

Theory of operation
-------------------
``connect`` opens the socket, sends ``hello`` and starts one reader task. The
reader decodes every frame, applies snapshots and deltas to ``store`` (a gap
in sequence numbers sends ``resync`` at once), settles the ``request`` waiting
for that answer, and queues the message for ``messages()``.

When the socket drops, the reader reconnects with exponential backoff and
jitter, sending the resume token of the last ``welcome`` and the last
sequence number seen, so the server seats the player again and sends only the
deltas it missed (or a snapshot). Each attempt is announced as a
``Reconnecting`` notice and the outcome as ``Reconnected``. A player who was
in the middle of a game and is welcomed back without a room keeps trying for
``room_wait`` seconds, and any player whose room the server says is moving
(``node_unavailable``) keeps trying until it is back: after a node dies,
another node adopts its rooms only once the dead node's heartbeat has
expired. Attempts alternate between the
current node and the URL the session started with, so a client whose node
died finds the room through any node of the deployment.

A ``redirect`` answering a join or quick match (the room runs on another node)
is followed: the session connects to that node, resumes its session there and
joins with the one-time reservation; the request that caused it is answered
by the snapshot from the new node. A redirect answering ``hello`` (the room of
a resumed player moved) is followed the same way without a reservation.

Replies without a request id. The protocol answers ``act`` with the delta
every recipient gets and ``create_room``/``join_room``/``quick_match``/
``play_now``/``spectate``/``resync``/``start``/``rematch`` with a snapshot,
neither carrying the request's id; errors always carry it. So ``request``
settles those with the next message of the answering kind (a connection's
frames are answered in order), and with the error that names its id.

A close with code 1008 (policy: replaced by a newer connection, too many bad
messages, an unsupported version) ends the session instead: reconnecting
would only fight the server or another connection of the same player.

The player key. A session made with ``player=KEY`` sends the key in every
``hello`` (the first, each reconnection and each redirect), so the profile
stays with the player across drops and nodes; it is sent nowhere else. A
``profile`` answer that carries a new key (a profile made or brought over
from another device) becomes the key of later hellos, and ``profile_deleted``
drops it. ``player`` is the profile the session holds now (None: anonymous);
``player_error`` why the last hello's key was not taken.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from types import TracebackType

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests, ViewStore
from cardavia.protocol.codec import decode_server, encode
from cardavia.protocol.errors import ProtocolError

log = logging.getLogger("cardavia.client")

CLOSE_POLICY = 1008
FIRST_DELAY = 0.2
"""Seconds before the first reconnection attempt; each later attempt doubles it up to ``max_backoff``."""
HANDSHAKE_TIMEOUT = 10.0
REDIRECT_WAIT = 1.0
"""How long a resumed player welcomed without a room waits for the ``redirect`` that may follow."""
MAX_FRAME = 2**20
ROOM_MOVING = "the room is moving to another node"
"""The ``Reconnecting`` reason while the server says the room's node is gone (``node_unavailable``)."""
ROOM_NOT_BACK = "the room is not back yet"
"""The ``Reconnecting`` reason while a player dropped mid-game is welcomed back without its room."""


@dataclass(frozen=True, slots=True)
class Reconnecting:
    """A local notice, not a server message: the connection dropped and attempt ``attempt`` follows."""

    attempt: int
    delay: float
    reason: str


@dataclass(frozen=True, slots=True)
class Reconnected:
    """A local notice: connected again; ``resumed`` is True when the seat was taken back."""

    resumed: bool


Item = m.Reply | Reconnecting | Reconnected


class ClientRequestError(Exception):
    """The server refused a request: ``code`` is the wire error code, ``reason`` the engine's."""

    def __init__(self, error: m.Error) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error
        self.code = error.code
        self.reason = error.reason


class SessionClosed(ConnectionError):
    """The session is over: closed by its owner, closed by the server on purpose, or it gave up."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class SessionInterrupted(ConnectionError):
    """The connection dropped while a request waited (or was being sent); the session reconnects."""


_ANSWERED_BY: dict[str, type[m.Reply]] = {
    "act": m.Delta,
    "create_room": m.Snapshot,
    "join_room": m.Snapshot,
    "quick_match": m.Snapshot,
    "play_now": m.Snapshot,
    "spectate": m.Snapshot,
    "resync": m.Snapshot,
    "start": m.Snapshot,
    "rematch": m.Snapshot,
    "chat": m.ChatMessage,
}
"""Requests whose successful answer carries no request id, and the kind of message that answers them."""


@dataclass(slots=True, eq=False)  # waiters are told apart by identity
class _Waiter:
    ids: set[int]
    kind: type[m.Reply] | None
    future: asyncio.Future[m.Reply]


class _Drop(Exception):
    """The reader's own signal: this connection is gone (``reason`` says why)."""

    def __init__(self, reason: str, code: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.code = reason, code


class Session:
    """One player's connection to a Cardavia server: hello, resume token, redirects, view store."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        lang: str = "en",
        reconnect: bool = True,
        max_backoff: float = 5.0,
        give_up_after: float | None = 300.0,
        room_wait: float = 30.0,
        resume: str | None = None,
        player: str | None = None,
    ) -> None:
        """``give_up_after``: seconds of failed attempts before the session ends (None: never);
        ``room_wait``: how long a player dropped mid-game waits for its room to come back;
        ``resume``: the resume token of an earlier session (``welcome.resume``), to take its seat back;
        ``player``: the player key of a profile, sent in each ``hello`` and nowhere else."""
        self.url = url
        self.home_url = url
        """The URL the session started with; reconnection falls back to it when the current node is gone."""
        self.name = name
        self.lang = lang
        self.reconnect = reconnect
        self.max_backoff = max_backoff
        self.give_up_after = give_up_after
        self.room_wait = room_wait
        self.requests = Requests()
        self.store = ViewStore()
        self.welcome: m.Welcome | None = None
        self.room: m.RoomInfo | None = None
        """The room of the last snapshot (None before any, and after leaving)."""
        self.in_game = False
        """True from a snapshot of a running game until its ``match_result``: a drop now must resume."""
        self.reconnects = 0
        self.player: m.PlayerInfo | None = None
        """The profile this session holds (from ``welcome``, then ``profile``); None: anonymous."""
        self.player_error: str | None = None
        """Why the last ``hello``'s player key was not taken (``welcome.player_error``)."""
        self.observers: list[Callable[[m.Reply], None]] = []
        """Called with every server message as it is read, before ``messages()`` yields it: for a
        caller that must see pushed messages (``rating_change``) while it is not reading the stream."""
        self._player_key = player
        self._token: str | None = resume
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._inbox: asyncio.Queue[Item | None] = asyncio.Queue()
        self._waiters: list[_Waiter] = []
        self._by_kind: deque[_Waiter] = deque()
        self._closing = False
        self._ended: SessionClosed | None = None
        self._resync_sent = False
        self._token_refused = False
        self._room_moving = False
        """The server said our room is moving to another node (``node_unavailable``): keep trying."""

    # ------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> Session:
        await self.connect()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def connect(self) -> m.Welcome:
        """Open the socket, say hello and start reading; raises OSError when the server is not there."""
        if self._reader is not None:
            raise RuntimeError("this session is already connected")
        welcome = await self._open(self.url, resume=self._token, last_seq=None)
        moving = False
        if self._token is not None and welcome.room is None and not self._token_refused:
            welcome, moving = await self._await_home()  # resuming: the room may run elsewhere, or be moving
        self._room_moving = moving
        moved = ROOM_MOVING if moving else None
        self._reader = asyncio.get_running_loop().create_task(self._read(moved), name=f"session-{self.name}")
        return welcome

    async def close(self) -> None:
        """Close the connection for good; ``messages()`` then ends."""
        self._closing = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._ws is not None:
            await self._ws.close()
        self._end(None)

    @property
    def has_player_key(self) -> bool:
        """True when hellos carry a player key (the key itself is never shown)."""
        return self._player_key is not None

    def use_player_key(self, key: str | None) -> None:
        """Send ``key`` in later hellos (None: play on without a profile after the next reconnect)."""
        self._player_key = key

    @property
    def connected(self) -> bool:
        """True while a socket is open and welcomed (False while reconnecting)."""
        return self._ws is not None

    # ------------------------------------------------------------- sending
    async def send(self, request: m.Request) -> None:
        """Send one request; raises ``SessionInterrupted`` while reconnecting, ``SessionClosed`` after."""
        if self._ended is not None:
            raise SessionClosed(str(self._ended), self._ended.code)
        ws = self._ws
        if ws is None:
            raise SessionInterrupted("not connected: the session is reconnecting")
        try:
            await ws.send(encode(request))
        except ConnectionClosed as exc:
            raise SessionInterrupted(f"the connection dropped: {exc}") from None

    async def request(self, request: m.Request, timeout: float = 10.0) -> m.Reply:
        """Send ``request`` and return its answer; an ``error`` answer raises ``ClientRequestError``.

        ``SessionInterrupted`` when the connection drops first (the server may or may
        not have handled it: watch ``messages()``), ``TimeoutError`` after ``timeout``.
        """
        kind = _ANSWERED_BY.get(type(request).model_fields["type"].default)
        ids = set() if request.id is None else {request.id}  # without an id: settled by kind only
        waiter = _Waiter(ids, kind, asyncio.get_running_loop().create_future())
        self._waiters.append(waiter)
        if kind is not None:
            self._by_kind.append(waiter)
        try:
            await self.send(request)
            async with asyncio.timeout(timeout):  # unlike wait_for on 3.11, never swallows a cancel
                return await waiter.future
        finally:
            self._forget(waiter)

    def _forget(self, waiter: _Waiter) -> None:
        # look before removing: a failed deque.remove formats the repr of what it looked for
        if waiter in self._waiters:
            self._waiters.remove(waiter)
        if waiter in self._by_kind:
            self._by_kind.remove(waiter)

    # ------------------------------------------------------------ receiving
    async def messages(self) -> AsyncIterator[Item]:
        """Every server message in order, once applied to ``store``, with the reconnection notices.

        Ends after ``close()``; raises ``SessionClosed`` when the server ended the
        session or reconnecting gave up. ``welcome`` is not repeated here (see
        ``connect`` and ``welcome``); ``redirect`` is, after it has been followed.
        """
        while True:
            item = await self._inbox.get()
            if item is None:
                self._inbox.put_nowait(None)  # a second reader ends too
                if self._ended is not None and not self._closing:
                    raise SessionClosed(str(self._ended), self._ended.code)
                return
            yield item

    async def _read(self, come_back: str | None = None) -> None:
        """Read frames until the session ends; ``come_back``: first reconnect, for that reason."""
        try:
            if come_back is not None:
                await self._drop_quietly()
                await self._come_back(come_back)
            while True:
                try:
                    await self._pump()
                except _Drop as drop:
                    self._interrupt(drop.reason)
                    if drop.code == CLOSE_POLICY or not self.reconnect:
                        self._end(SessionClosed(f"the server closed the session: {drop.reason}", drop.code))
                        return
                    await self._come_back(drop.reason)
        except SessionClosed as exc:
            self._end(exc)
        except Exception as exc:  # a bug must end the session visibly, not hang its reader
            log.exception("event=session_failed name=%s", self.name)
            self._end(SessionClosed(f"the session failed: {exc!r}"))

    async def _pump(self) -> None:
        """Read the current connection until it drops."""
        ws = self._ws
        assert ws is not None
        while True:
            try:
                frame = await ws.recv()
            except ConnectionClosed as exc:
                self._ws = None
                code = exc.rcvd.code if exc.rcvd is not None else None
                why = exc.rcvd.reason if exc.rcvd is not None and exc.rcvd.reason else str(exc)
                raise _Drop(why, code) from None
            message = self._decode(frame)
            if message is None:
                continue
            if isinstance(message, m.Redirect):
                try:
                    await self._follow(message)
                except ClientRequestError as exc:
                    raise SessionClosed(f"the server refused the session: {exc}") from None
                except (OSError, TimeoutError, WebSocketException) as exc:
                    raise _Drop(f"could not follow a redirect to {message.url}: {_describe(exc)}") from None
                self._inbox.put_nowait(message)
                return  # read on from the new node
            await self._handle(message)

    def _decode(self, frame: bytes | str) -> m.Reply | None:
        if isinstance(frame, str):
            log.warning("event=text_frame_ignored length=%s", len(frame))
            return None
        try:
            return decode_server(frame)
        except ProtocolError as exc:  # a newer server's message we cannot read: ignore it
            log.warning("event=unreadable_frame code=%s message=%s", exc.code, exc.message)
            return None

    async def _handle(self, message: m.Reply) -> None:
        if isinstance(message, m.Snapshot):
            self.store.on_snapshot(message)
            self._resync_sent = False
            self.room = message.room
            self.in_game = message.room.state == "playing" and message.seat is not None
        elif isinstance(message, m.Delta):
            if not self.store.on_delta(message):
                await self._resync()
        elif isinstance(message, m.YourTurn) and self.store.seq is not None and message.seq > self.store.seq:
            self.store.needs_resync = True  # a turn counted past our view: a delta went missing
            await self._resync()
        elif isinstance(message, m.MatchResult):
            self.in_game = False
        elif isinstance(message, m.Left):
            self.in_game, self.room = False, None
        elif isinstance(message, m.Profile):
            self.player = message.player
            if message.key is not None:
                self._player_key = message.key  # this device's new key: every later hello sends it
        elif isinstance(message, m.ProfileDeleted):
            self.player, self._player_key = None, None
        for observer in self.observers:
            observer(message)
        self._settle(message)
        self._inbox.put_nowait(message)

    async def _resync(self) -> None:
        """Ask once for a fresh snapshot; the next snapshot allows asking again."""
        if not self._resync_sent:
            self._resync_sent = True
            with contextlib.suppress(ConnectionError):
                await self.send(self.requests.resync())

    def _settle(self, message: m.Reply) -> None:
        if message.id is not None:
            for waiter in self._waiters:
                if message.id in waiter.ids:
                    self._resolve(waiter, message)
                    return
        if isinstance(message, m.Error):
            return
        for waiter in self._by_kind:
            if waiter.kind is not None and isinstance(message, waiter.kind):
                self._resolve(waiter, message)
                return

    def _resolve(self, waiter: _Waiter, message: m.Reply) -> None:
        self._forget(waiter)
        if waiter.future.done():
            return
        if isinstance(message, m.Error):
            waiter.future.set_exception(ClientRequestError(message))
        else:
            waiter.future.set_result(message)

    def _interrupt(self, reason: str) -> None:
        """The connection dropped: every request still waiting fails (the caller watches the stream)."""
        for waiter in list(self._waiters):
            self._forget(waiter)
            if not waiter.future.done():
                waiter.future.set_exception(SessionInterrupted(f"the connection dropped: {reason}"))

    def _end(self, error: SessionClosed | None) -> None:
        if self._ended is None:
            self._ended = error or SessionClosed("the session was closed")
            self._interrupt("the session ended")
            self._inbox.put_nowait(None)

    # ---------------------------------------------------------- connecting
    async def _open(self, url: str, *, resume: str | None, last_seq: int | None) -> m.Welcome:
        """Connect to ``url`` and say hello; the new connection becomes the current one."""
        ws = await connect(url, compression=None, max_size=MAX_FRAME, open_timeout=HANDSHAKE_TIMEOUT)
        self._token_refused = False
        try:
            hello = self.requests.hello(self.name, lang=self.lang, resume=resume, player=self._player_key)
            if last_seq is not None:
                hello = hello.model_copy(update={"last_seq": last_seq})
            await ws.send(encode(hello))
            async with asyncio.timeout(HANDSHAKE_TIMEOUT):
                while True:
                    message = self._decode(await ws.recv())
                    if isinstance(message, m.Welcome):
                        break
                    if isinstance(message, m.Error):
                        if message.code != "bad_resume_token":
                            raise ClientRequestError(message)  # unsupported_version and the like
                        self._token_refused = True  # a new session follows: the old seat is gone
        except BaseException:
            await ws.close()
            raise
        self._ws, self.url, self.welcome, self._token = ws, url, message, message.resume
        self.player, self.player_error = message.player, message.player_error
        return message

    async def _follow(self, redirect: m.Redirect) -> None:
        """Go to the node that runs the room: resume there, then join with the reservation if any."""
        old = self._ws
        self._ws = None
        if old is not None:
            await old.close()
        log.info("event=redirect url=%s room=%s", redirect.url, redirect.room)
        await self._open(redirect.url, resume=self._token, last_seq=self.store.seq)
        if redirect.reservation is None:
            return
        rid = self.requests.next_id()
        join = m.JoinRoom(id=rid, room=redirect.room, reservation=redirect.reservation)
        for waiter in self._waiters:  # the join's answer now comes from this node, under a new id
            if redirect.id in waiter.ids:
                waiter.ids.add(rid)
        with contextlib.suppress(SessionInterrupted):
            await self.send(join)

    async def _come_back(self, reason: str) -> None:
        """Reconnect with backoff until the session is back (and its room, when a game was on)."""
        started = time.monotonic()
        expecting_room = self.in_game
        attempt = 0
        while True:
            attempt += 1
            delay = min(self.max_backoff, FIRST_DELAY * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0)
            self._inbox.put_nowait(Reconnecting(attempt, delay, reason))
            await asyncio.sleep(delay)
            if self.give_up_after is not None and time.monotonic() - started > self.give_up_after:
                raise SessionClosed(f"gave up reconnecting after {attempt - 1} attempts: {reason}")
            url = self.url if attempt % 2 or self.url == self.home_url else self.home_url
            moving = False
            try:
                welcome = await self._open(url, resume=self._token, last_seq=self.store.seq)
                hoping = expecting_room or self.room is not None or self._room_moving
                if welcome.room is None and hoping and not self._token_refused:
                    welcome, moving = await self._await_home()
                self._room_moving = moving
                expecting_room = expecting_room and not self._token_refused
            except ClientRequestError as exc:
                raise SessionClosed(f"the server refused the session: {exc}") from None
            except (OSError, TimeoutError, WebSocketException) as exc:
                reason = _describe(exc)
                self._ws = None
                continue
            resumed = welcome.room is not None
            waiting = expecting_room and time.monotonic() - started < self.room_wait
            if not resumed and (moving or waiting):
                # moving: the server says the room's node is gone and another is adopting the room,
                # so it will be back (give_up_after still bounds the wait)
                reason = ROOM_MOVING if moving else ROOM_NOT_BACK
                await self._drop_quietly()
                continue
            self.reconnects += 1
            if not resumed:
                self._lost_room()
            self._inbox.put_nowait(Reconnected(resumed))
            log.info("event=reconnected name=%s resumed=%s attempts=%s", self.name, resumed, attempt)
            return

    async def _await_home(self) -> tuple[m.Welcome, bool]:
        """Welcomed without our room: a ``redirect`` to the node that now runs it may follow, or
        ``node_unavailable`` while that node is gone and the room is being adopted (then True:
        try again shortly)."""
        ws = self._ws
        assert ws is not None
        assert self.welcome is not None
        try:
            async with asyncio.timeout(REDIRECT_WAIT):
                frame = await ws.recv()
        except TimeoutError:
            return self.welcome, False
        message = self._decode(frame)
        if isinstance(message, m.Redirect):
            log.info("event=redirect url=%s room=%s", message.url, message.room)
            await ws.close()
            self._ws = None
            return await self._open(message.url, resume=self._token, last_seq=self.store.seq), False
        if isinstance(message, m.Error) and message.code == "node_unavailable":
            log.info("event=room_moving name=%s retry_after=%s", self.name, message.retry_after)
            return self.welcome, True
        if message is not None:
            await self._handle(message)
        return self.welcome, False

    async def _drop_quietly(self) -> None:
        ws, self._ws = self._ws, None
        if ws is not None:
            await ws.close()

    def _lost_room(self) -> None:
        """Back without a seat: forget the old room's view so nothing acts on it."""
        self.store.seq = self.store.view = self.store.seat = None
        self.store.needs_resync = False
        self.room, self.in_game = None, False


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
