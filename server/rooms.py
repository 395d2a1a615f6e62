"""The rooms this node runs: making one for a player, rebuilding one from its journal, recording
each finished match, and closing a room once nobody is left in it.

A room (``room.py``) owns its game; this keeper owns the node's table of rooms
and their lifetime. A room is made here and listed in the lobby at once, runs
until everyone has left it for good (or, after its match, until the grace
period has passed), and is then closed here and deleted from the lobby; the
sessions of its players, which lived as long as the room, start to expire.
The node keeper (``nodes.py``) brings rooms of other nodes here through
``make_room`` and ``adopted``.

A match's end goes to the archive through the node's ``MatchArchiver``, which
writes it in the background. Until the archive has it, the room's lobby entry
and journal stay, even once the room is closed here: if this node dies first,
the node that adopts the room restores the finished match and submits its end
again (``record_match`` is idempotent by record id, so a rating changes once).
Ends of earlier matches of the room still unwritten when a rematch starts
travel in the new match's journal header (``Room.unarchived``) for the same
reason.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from cardavia.bots.base import Bot
from cardavia.bots.ratings import bot_rating, bot_ratings
from cardavia.bots.registry import levels_for
from cardavia.bots.registry import make_bot as registered_bot
from cardavia.games.registry import get_game
from cardavia.games.traditions import default_tradition, get_tradition
from cardavia.protocol import messages as m
from cardavia.protocol.errors import ProtocolError
from cardavia.server.archiver import MatchArchiver, end_from_data, end_to_data
from cardavia.server.bot_runner import BotRunner
from cardavia.server.connection import Connection
from cardavia.server.lobby import RoomEntry, SeatEntry
from cardavia.server.room import Room
from cardavia.server.services import NodeServices
from cardavia.server.sessions import SessionKeeper
from cardavia.server.store import MatchEnd, RatingChange, SeatEnd

log = logging.getLogger("cardavia.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Capital letters and digits without the look-alikes I, O, 0 and 1: easy to read aloud and type."""
CODE_LENGTH = 8
"""32**8 ≈ 1.1e12 codes: at the default 20 failed lookups a minute, one address would need about
a century on average to hit one of a thousand open private rooms (SECURITY.md has the figures)."""


def make_bot(game: str, level: str, seed: str) -> Bot:
    """A bot for a seat. Rooms ask for levels the catalogue offers; a stand-in for a player
    who is gone (or out of time) asks for ``basic``, the weakest level that plays sensibly,
    and gets ``random`` in a game that has no ``basic`` bot yet."""
    if level not in levels_for(game):
        level = "random"
    return registered_bot(game, level, seed)


class RoomKeeper:
    """The node's rooms by id, from their making (or adoption) to their closing."""

    def __init__(
        self,
        shared: NodeServices,
        *,
        runner: BotRunner,
        archiver: MatchArchiver,
        sessions: SessionKeeper,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._shared = shared
        self._runner = runner
        self._archiver = archiver
        self._sessions = sessions
        self._clock = clock
        self.rooms: dict[str, Room] = {}
        """The rooms running on this node, by id."""

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
        rated: bool = False,
        rating: float | None = None,
    ) -> Room:
        """A room on this node, created by ``conn`` and listed in the lobby; refuses what it may not ask."""
        if rated and conn.player is None:
            raise ProtocolError("profile_required", "a rated room needs a profile: create one first")
        if conn.room is not None and conn.seat is not None and not conn.room.finished:
            raise ProtocolError("already_in_room", "leave your room first")
        if self._rooms_held(conn) >= self._shared.config.max_rooms_per_connection:
            raise ProtocolError(
                "too_many_rooms",
                f"at most {self._shared.config.max_rooms_per_connection} rooms of yours may be open at once; "
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
        if rated and humans < game.players and bot_level not in bot_ratings(game_id):
            # a rated match is scored against the bot's published fixed rating: a level listed
            # before its calibration (a new expert) plays casual rooms only until it has one
            raise ProtocolError(
                "invalid_field",
                f"bot_level: the {bot_level} bot has no published rating in {game_id} yet;"
                " play it in a casual room",
            )
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
            node=self._shared.config.node_id,
            turn_seconds=self._turn_seconds(turn_seconds, public),
            fill_after=fill_after,
            rated=rated,
            rating=rating,
        )
        room = self.make_room(entry)
        await self._shared.lobby.create_room(entry)
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
            runner=self._runner,
            make_bot=make_bot,
            bot_delay=self._shared.config.bot_delay,
            grace_seconds=self._shared.config.grace_seconds,
            on_finish=self._record,
            journal=self._shared.lobby,
        )

    def adopted(self, room: Room) -> None:
        """``room``, rebuilt from its journal, runs on this node from now on. Ends of its earlier
        matches that its last node had not archived are submitted again (its own finished
        match, if it is one, was submitted by ``Room.restore``)."""
        self.rooms[room.id] = room
        for record_id, data in list(room.unarchived.items()):
            try:
                end = end_from_data(data)
            except (KeyError, TypeError, ValueError):  # a journal this code did not write
                log.exception("event=unarchived_end_unreadable room=%s record=%s", room.id, record_id)
                room.unarchived.pop(record_id, None)
                continue
            self._archiver.submit(end, archived=self._when_archived(room, record_id))

    def _turn_seconds(self, asked: float | None, public: bool) -> float | None:
        """The creator's timer; else the server default for public rooms; private rooms: off."""
        if asked is not None:
            return asked
        return (self._shared.config.default_turn_seconds or None) if public else None

    def left(self, conn: Connection) -> None:
        """``conn`` is gone: it watches its room no more, its seat waits for it (or for its
        stand-in), and the room closes if that left it empty."""
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
            self._close(room)
        elif room.finished:
            wait = self._shared.config.grace_seconds
            if room.absent_at_end:
                wait = max(wait, self._shared.config.result_seconds)
            loop = asyncio.get_running_loop()
            loop.call_later(wait, lambda: self.close_if_abandoned(room, waited=True))

    def _close(self, room: Room) -> None:
        room.close()
        self.rooms.pop(room.id, None)
        log.info("event=room_closed room=%s game=%s matches=%s", room.id, room.entry.game, room.matches)
        if not room.unarchived:  # else its lobby entry and journal go once the archive has them
            self._shared.spawn(self._shared.lobby.delete_room(room.id))
        for slot in room.seats:  # its players' sessions hold no seat any more
            if slot.session is not None and not self._sessions.connected(slot.session):
                self._shared.spawn(self._sessions.expire(slot.session, room=room.id))

    def freeze(self) -> None:
        """No room starts a new move: the node is going down, and another may adopt its rooms."""
        for room in self.rooms.values():
            room.freeze()

    async def close_all(self) -> None:
        """Close every room, each once the move under way is journaled and applied whole."""
        for room in list(self.rooms.values()):
            await room.settle()
            room.close()

    def _record(self, room: Room, record: dict[str, Any]) -> str:
        """The finished match's end to the archiver (written in the background); its record id."""
        record_id = f"{room.id}-{room.matches}"
        end = self.match_end(room, record_id, record)
        room.unarchived[record_id] = end_to_data(end)
        self._archiver.submit(end, archived=self._when_archived(room, record_id))
        log.info("event=match_over room=%s game=%s record=%s", room.id, room.entry.game, record_id)
        self._shared.spawn(self._shared.lobby.set_state(room.id, "finished"))
        asyncio.get_running_loop().call_soon(self.close_if_abandoned, room)
        return record_id

    def match_end(self, room: Room, record_id: str, record: dict[str, Any]) -> MatchEnd:
        """What the archive keeps of a finished match: its record, and each seat's name, profile
        (fixed at the match's start) and, for a built-in bot, its published fixed rating. A seat
        whose player left before the match began (a rematch) is its stand-in bot's."""
        assert room.state is not None
        assert room.state.result is not None
        game = room.entry.game
        seats = []
        for slot, player in zip(room.seats, room.players, strict=True):
            shown = slot.bot_id if slot.kind == "bot" else None  # a stand-in's seat stays its person's
            guest = slot.guest if slot.kind == "human" else None
            if slot.kind == "bot" or (slot.kind == "human" and player is None and room.entry.rated):
                level = _rated_level(game, slot.bot_id if slot.kind == "bot" else "basic")
                seats.append(
                    SeatEnd(
                        name=slot.name,
                        player=None,
                        bot_level=level,
                        fixed=bot_rating(game, level),
                        guest=guest,
                        level=shown,
                    )
                )
            else:
                seats.append(SeatEnd(name=slot.name, player=player, bot_level=None, fixed=None, guest=guest))
        result = room.state.result
        return MatchEnd(
            record_id=record_id,
            game=game,
            rated=room.entry.rated,
            ended=self._clock(),
            seats=seats,
            scores=list(result.scores),
            winner=result.winner,
            record=record,
        )

    def _when_archived(self, room: Room, record_id: str) -> Callable[[], None]:
        return lambda: self._archived(room, record_id)

    def _archived(self, room: Room, record_id: str) -> None:
        """The archive has ``record_id``: the room keeps it no longer, and a room closed here
        meanwhile leaves the lobby now (its journal with it)."""
        room.unarchived.pop(record_id, None)
        if not room.unarchived and room.id not in self.rooms and room.entry.state == "closed":
            self._shared.spawn(self._shared.lobby.delete_room(room.id))

    def push_ratings(self, end: MatchEnd, changes: list[RatingChange]) -> None:
        """Tell each profile whose rating the match changed, on every connection it has here."""
        for change in changes:
            message = m.RatingChange(
                record=end.record_id,
                game=change.game,  # type: ignore[arg-type]
                before=round(change.before.rating),
                after=round(change.after.rating),
                deviation=round(change.after.deviation),
            )
            for conn in self._sessions.of_player(change.player):
                conn.send(message)


def _rated_level(game: str, level: str | None) -> str:
    """The bot level a seat is rated as: its own, or ``make_bot``'s fallback where the game lacks it."""
    return level if level is not None and level in levels_for(game) else "random"
