"""What each request after ``hello`` does: catalogue, listings, creating, joining and leaving rooms,
redirects to the node that runs a room, and moves, chat, records and replays.

Handlers validate, ask the lobby (whose seat claims are atomic across nodes)
and hand the rest to the room; a refusal is a ``ProtocolError``, which the
read loop (``requests.py``) sends back as an ``error`` for that request. Each
is given the narrow parts of the node it needs (the lobby, the room keeper,
the session table), never the server itself, and is found through one
dispatch table built when the node starts: a new request type is a message in
``protocol/messages.py``, an ``_on_<type>`` method here and a row in ``routes``.
"""

from __future__ import annotations

import asyncio
import inspect
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from cardavia.bots.registry import catalogue as bot_catalogue
from cardavia.bots.registry import levels_for
from cardavia.games.registry import GAMES, get_game
from cardavia.games.rules import rules_text
from cardavia.games.traditions import catalogue as deck_catalogue
from cardavia.protocol import messages as m
from cardavia.protocol.errors import ProtocolError
from cardavia.server.archiver import MatchArchiver
from cardavia.server.connection import Connection
from cardavia.server.lobby import RoomEntry, SeatEntry
from cardavia.server.profiles import ProfileHandlers
from cardavia.server.replays import Replays
from cardavia.server.requests import ErrorReplies
from cardavia.server.room import Room
from cardavia.server.rooms import RoomKeeper
from cardavia.server.seats import room_info
from cardavia.server.services import NodeServices
from cardavia.server.sessions import SessionKeeper

R = TypeVar("R", bound=m.Request)
Handler = Callable[[Connection, Any], Awaitable[None] | None]
"""A request's handler: the connection and its request (of the type it is registered for)."""


def match_seed() -> str:
    """A new match's seed: 128 bits from the operating system's CSPRNG and nothing else.

    The seed fixes every shuffle of the match, so it must not be guessable from
    anything a client sees (room ids, match numbers, the time): with it and the
    public engines anyone could replay the deals and read every hidden card.
    It stays on the server until the match is over; the record then carries it."""
    return secrets.token_hex(16)


def default_level(game: str) -> str:
    """The level empty seats get when nobody chose one: ``basic`` where it exists."""
    return "basic" if "basic" in levels_for(game) else "random"


def _level(msg: m.CreateRoom | m.PlayNow, game: str) -> str:
    """The level a request asked for, or the game's default when it named none."""
    return msg.bot_level or default_level(game)


def _route(
    kind: type[R], handler: Callable[[Connection, R], Awaitable[None] | None]
) -> tuple[type[m.Request], Handler]:
    """One row of the dispatch table; mypy checks that ``handler`` takes a ``kind``."""
    return kind, handler


class RequestHandlers:
    """The node's request handlers, one ``_on_<type>`` method per request type, found through
    the dispatch table (``routes``)."""

    def __init__(
        self,
        shared: NodeServices,
        *,
        archiver: MatchArchiver,
        replays: Replays,
        sessions: SessionKeeper,
        rooms: RoomKeeper,
        replies: ErrorReplies,
        profiles: ProfileHandlers,
    ) -> None:
        self._shared = shared
        self._profiles = profiles
        self._archiver = archiver
        self._replays = replays
        self._sessions = sessions
        self._keeper = rooms
        self._rooms = rooms.rooms
        self._replies = replies
        self.routes: dict[type[m.Request], Handler] = dict(
            (
                _route(m.GetCatalogue, self._on_get_catalogue),
                _route(m.ListRooms, self._on_list_rooms),
                _route(m.CreateRoom, self._on_create_room),
                _route(m.JoinRoom, self._on_join_room),
                _route(m.QuickMatch, self._on_quick_match),
                _route(m.PlayNow, self._on_play_now),
                _route(m.Leave, self._on_leave),
                _route(m.Start, self._on_start),
                _route(m.Rematch, self._on_rematch),
                _route(m.Act, self._on_act),
                _route(m.Resync, self._on_resync),
                _route(m.Spectate, self._on_spectate),
                _route(m.Chat, self._on_chat),
                _route(m.GetRules, self._on_get_rules),
                _route(m.GetRecord, self._on_get_record),
                _route(m.GetReplay, self._on_get_replay),
                _route(m.CreateProfile, profiles.on_create_profile),
                _route(m.RenameProfile, profiles.on_rename_profile),
                _route(m.NewTransferCode, profiles.on_new_transfer_code),
                _route(m.RedeemTransferCode, profiles.on_redeem_transfer_code),
                _route(m.DeleteProfile, profiles.on_delete_profile),
                _route(m.GetLeaderboard, profiles.on_get_leaderboard),
                _route(m.GetHistory, profiles.on_get_history),
            )
        )
        """Each request type's handler: every client request but ``hello`` (the handshake's).
        A new request type gets its ``_on_<type>`` method and a row here."""

    async def dispatch(self, conn: Connection, msg: m.Request) -> None:
        """Run the handler of a request (any but hello, which the handshake answers)."""
        if not conn.session:
            raise ProtocolError("handshake_required", "send hello first")
        handler = self.routes.get(type(msg))
        if handler is None:  # a type the decoder knows and no handler takes: unknown here as well
            kind = str(type(msg).model_fields["type"].default)
            raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")
        result = handler(conn, msg)
        if inspect.isawaitable(result):
            await result

    def _on_get_catalogue(self, conn: Connection, msg: m.GetCatalogue) -> None:
        games = [
            {"id": g.id, "name": g.name, "players": g.players, "options": dict(g.default_options)}
            for g in GAMES.values()
        ]
        conn.send(m.Catalogue(id=msg.id, games=games, decks=deck_catalogue(conn.lang), bots=bot_catalogue()))

    async def _on_list_rooms(self, conn: Connection, msg: m.ListRooms) -> None:
        entries = await self._shared.lobby.list_open(msg.game, msg.limit)
        conn.send(m.Rooms(id=msg.id, rooms=[room_info(e) for e in entries]))

    async def _claim(self, conn: Connection, room: Room) -> None:
        """Take a free human seat through the lobby (atomic there), then sit in it here."""
        seat = await self._shared.lobby.claim_seat(room.id, conn.session, conn.name, conn.guest)
        await self._seat(conn, room, seat)

    async def _seat(self, conn: Connection, room: Room, seat: int) -> None:
        """Sit ``conn`` in ``seat``, which the lobby gave it (a claim, a quick match or a seat held
        for a redirect): the room's entry takes the lobby's decision, the lobby learns the
        session's seat first, then the player is told.

        The other way round, a player whose connection dropped right after the snapshot
        came back to a session that did not know its seat yet: welcomed without its room,
        while the room waited for them."""
        room.entry.seats[seat] = SeatEntry("human", conn.name, conn.session, guest=conn.guest)
        if conn.room is not None and conn.room is not room:
            await self._leave(conn)
        player = conn.player.id if conn.player is not None else None
        # a resume meanwhile finds the seat its own
        room.hold(seat, conn.session, conn.name, player, guest=conn.guest)
        await self._shared.lobby.save_session(conn.session_entry(room.id, seat))
        if conn.closing or not self._sessions.current(conn):
            return  # a newer connection of the session took the seat meanwhile
        conn.room, conn.seat = room, seat
        room.sit(seat, conn, conn.name, player=player, guest=conn.guest)

    async def _on_create_room(self, conn: Connection, msg: m.CreateRoom) -> None:
        room = await self._keeper.new_room(
            conn,
            msg.game,
            deck=msg.deck,
            options=dict(msg.options),
            public=msg.public,
            humans=msg.humans,
            bot_level=_level(msg, msg.game),
            turn_seconds=msg.turn_seconds,
            fill_after=msg.fill_after,
            rated=msg.rated,
        )
        if msg.humans >= 1:
            await self._claim(conn, room)
        else:
            await self._leave(conn)  # it watches the new room, and only that one
            conn.room = room
            room.watch(conn)
        if msg.fill_after is not None:
            self._shared.spawn(self._fill_later(room, msg.fill_after))

    async def _fill_later(self, room: Room, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if room.state is None and room.id in self._rooms:
            await self._start(room)

    async def _lookup(self, conn: Connection, room_id: str | None, code: str | None) -> RoomEntry:
        """The lobby's entry for a room, whichever node runs it.

        A room id or code that names no room counts against the connection and its address
        (``unknown_room`` in the read loop): an address that has guessed too often is not
        answered any more until its budget refills, so private rooms' codes cannot be found
        by trying them."""
        if not self._shared.limits.lookups_left(conn.address):
            self._shared.metrics.limited.labels("lookups").inc()
            raise ProtocolError(
                "rate_limited", "too many room codes from your address named no room; wait a minute"
            )
        entry = await self._shared.lobby.get_room(room_id) if room_id else None
        if entry is None and code:
            entry = await self._shared.lobby.room_by_code(code)
        if entry is None or (entry.node == self._shared.config.node_id and entry.room not in self._rooms):
            raise ProtocolError("unknown_room", "no room has that id or code")
        return entry

    async def _find_room(self, conn: Connection, room_id: str | None, code: str | None) -> Room:
        entry = await self._lookup(conn, room_id, code)
        room = self._rooms.get(entry.room)
        if room is None:
            raise ProtocolError("unknown_room", "that room runs on another node; join it there")
        return room

    async def _redirect(self, conn: Connection, rid: int | None, entry: RoomEntry, seat: int) -> None:
        """Send the client to the node that runs the room, with the seat held for it there.

        Only to a node that has missed no heartbeat and whose port takes connections
        (``NodeServices.node_to_send_to``): one that has not is probably dead (its heartbeat has
        yet to expire), so the seat is given back and the client is told ``node_unavailable``
        with the time after which the room should run elsewhere."""
        url = await self._shared.node_to_send_to(entry.node)
        if url is None:
            await self._shared.lobby.set_seat(entry.room, seat, SeatEntry())
            self._replies.room_moving(conn, rid, entry.room)
            return
        token = "rsv-" + secrets.token_urlsafe(18)
        await self._shared.lobby.reserve(
            token, entry.room, seat, conn.session, self._shared.config.reservation_seconds
        )
        conn.send(m.Redirect(id=rid, url=url, room=entry.room, reservation=token))

    async def _on_join_room(self, conn: Connection, msg: m.JoinRoom) -> None:
        if msg.reservation:
            await self._join_reserved(conn, msg.reservation)
            return
        entry = await self._lookup(conn, msg.room, msg.code)
        if not entry.public and not msg.code:
            raise ProtocolError("unknown_room", "a private room is joined by its code")
        if entry.rated and conn.player is None:
            raise ProtocolError("profile_required", "a rated room needs a profile: create one first")
        if entry.node != self._shared.config.node_id:
            seat = await self._shared.lobby.claim_seat(entry.room, conn.session, conn.name, conn.guest)
            await self._redirect(conn, msg.id, entry, seat)
            return
        room = self._rooms[entry.room]
        if conn.room is room and conn.seat is not None:
            raise ProtocolError("already_in_room", "you are already seated in this room")
        await self._claim(conn, room)
        await self._start_when_full(room)

    async def _join_reserved(self, conn: Connection, token: str) -> None:
        held = await self._shared.lobby.take_reservation(token, conn.session)
        if held is None or held[0] not in self._rooms:
            raise ProtocolError(
                "bad_reservation", "that seat reservation is unknown, used, expired or not yours"
            )
        room, seat = self._rooms[held[0]], held[1]
        await self._seat(conn, room, seat)
        await self._start_when_full(room)

    async def _start_when_full(self, room: Room) -> None:
        """A room nobody owns (quick match) starts as soon as its seats for people are taken."""
        if room.entry.owner is None and room.state is None and not room.entry.human_seats_free():
            await self._start(room)

    async def _on_quick_match(self, conn: Connection, msg: m.QuickMatch) -> None:
        rated = conn.player is not None if msg.rated is None else msg.rated
        rating = None
        if rated:
            if conn.player is None:
                raise ProtocolError("profile_required", "a rated quick match needs a profile")
            rating = await self._profiles.rating_of(conn.player.id, msg.game)
        await self._leave(conn)  # first out of the room it is in: never two seats of one session
        found = await self._shared.lobby.quick_match(
            msg.game, conn.session, conn.name, rated=rated, rating=rating, guest=conn.guest
        )
        if found is not None and found[0] not in self._rooms:
            entry = await self._shared.lobby.get_room(found[0])
            if entry is not None and entry.node != self._shared.config.node_id:
                await self._redirect(conn, msg.id, entry, found[1])
                return
            found = None  # a room of this node that has just closed (its lobby entry goes next)
        if found is not None:
            room, seat = self._rooms[found[0]], found[1]
            await self._seat(conn, room, seat)
            await self._start_when_full(room)
            return
        players = get_game(msg.game).players
        humans = 2 if msg.game == "doudizhu" else players
        room = await self._keeper.new_room(
            conn,
            msg.game,
            deck=None,
            options={},
            public=True,
            humans=humans,
            bot_level=default_level(msg.game),
            turn_seconds=None,
            rated=rated,
            rating=rating,
        )
        room.entry.owner = None  # nobody owns a quick-match room: it starts when full
        await self._claim(conn, room)

    async def _on_play_now(self, conn: Connection, msg: m.PlayNow) -> None:
        room = await self._keeper.new_room(
            conn,
            msg.game,
            deck=msg.deck,
            options=dict(msg.options),
            public=False,
            humans=1,
            bot_level=_level(msg, msg.game),
            turn_seconds=None,
            rated=msg.rated,
        )
        await self._claim(conn, room)
        await self._start(room)

    async def _start(self, room: Room) -> None:
        await self._shared.lobby.set_state(room.id, "playing")
        # Seats the lobby gave people through other nodes, who are on their way here with a
        # reservation: they are theirs, not bots'. No seat is claimed once the room is playing,
        # so this read sees every claim.
        shared = await self._shared.lobby.get_room(room.id)
        for seat, held in enumerate(shared.seats if shared is not None else []):
            if held.kind == "human" and held.session and room.seats[seat].kind == "open":
                room.entry.seats[seat] = held
                room.hold(seat, held.session, held.name or "", guest=held.guest)
        await room.start(match_seed())

    async def _on_start(self, conn: Connection, msg: m.Start) -> None:
        room = self._my_room(conn)
        if room.entry.owner != conn.session:
            raise ProtocolError("not_room_owner", "only the room's owner may start it")
        if room.state is not None:
            raise ProtocolError("room_started", "the game has already started")
        await self._start(room)

    async def _on_rematch(self, conn: Connection, msg: m.Rematch) -> None:
        room = self._my_room(conn)
        if conn.seat is None:
            raise ProtocolError("spectator", "only seated players may ask for a rematch")
        if room.ask_rematch(conn.seat, msg.id):
            await self._rematch(room)

    async def _rematch(self, room: Room) -> None:
        """Every seat that must agree has asked: the same seats play a new match."""
        await self._shared.lobby.set_state(room.id, "playing")
        await room.rematch(match_seed())

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
                await self._shared.lobby.set_seat(room.id, conn.seat, SeatEntry())
        room.unwatch(conn)
        conn.room, conn.seat = None, None
        # the session holds no seat any more: a resume must not lead back into this room
        await self._shared.lobby.save_session(conn.session_entry())
        if room.finished and room.rematch_asked and not room.rematch_waiting():
            await self._rematch(room)  # those who stay had all asked; the leaver's stand-in plays on
        self._keeper.close_if_abandoned(room)

    async def _on_act(self, conn: Connection, msg: m.Act) -> None:
        room = self._my_room(conn)
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators cannot act")
        await room.act(conn.seat, dict(msg.action))
        self._shared.metrics.actions_of(room.entry.game).inc()

    def _on_resync(self, conn: Connection, msg: m.Resync) -> None:
        room = self._my_room(conn)
        room.snapshot_for(conn.seat, conn)

    async def _on_spectate(self, conn: Connection, msg: m.Spectate) -> None:
        room = await self._find_room(conn, msg.room, msg.code)
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
        line = m.ChatMessage(seat=conn.seat, name=conn.name, text=msg.text, guest=conn.guest)
        for other in room.connected():
            other.send(line)

    def _on_get_rules(self, conn: Connection, msg: m.GetRules) -> None:
        text = rules_text(msg.game, msg.lang or conn.lang)
        conn.send(m.Rules(id=msg.id, game=msg.game, lang=text.lang, markdown=text.markdown))

    async def _on_get_record(self, conn: Connection, msg: m.GetRecord) -> None:
        record = await self._archiver.load_record(msg.record)  # StorageUnavailable: "retry later"
        if record is None:
            raise ProtocolError("unknown_record", "no record has that id (or its match is not over)")
        conn.send(m.RecordMessage(id=msg.id, record_id=msg.record, record=record))

    async def _on_get_replay(self, conn: Connection, msg: m.GetReplay) -> None:
        replay = await self._replays.replay(msg.record, msg.id)
        if replay is None:
            raise ProtocolError("unknown_record", "no record has that id (or its match is not over)")
        conn.send(replay)
