"""One authoritative game room: the only writer of its engine state.

Theory of operation
-------------------
Every change to a room happens in one step under the room's lock: an action
is checked by the engine and journaled, and then, before anything awaits, the
room takes the new position, each recipient (seat or spectator) gets its own
delta computed from its previous view, the mover of the next turn gets
``your_turn``, and a bot or timer task is scheduled if the next mover is a bot
or the turn is timed. So no two actions can interleave, and a refused action
changes nothing. While the journal write is under way a person may sit down
or ask for a resync: they get the position as it stands, but not
``your_turn`` in it, since the move being committed replaces it; the delta and
the turn of the position after it follow.

Bot and timer tasks do their waiting (the pause so people can follow, the
bot's thinking in a worker) off the room's state, and apply their action only
if the room is still at the version they were scheduled for; a move that
arrives late is dropped, never applied twice. A bot with nothing to wait for
(no bot delay, a level that decides inline) answers a person's move in the
same step instead, still under the room's lock: no task is made for it, and
the person's frames of the whole exchange leave in one write.

Connections are ``Sink`` objects: ``send`` never waits for the socket, so a slow
client can never stall a room.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from cardavia.bots.base import Bot
from cardavia.games.engine import Event, State
from cardavia.games.errors import CardaviaError, IllegalAction
from cardavia.games.records import Seat, make_record
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m
from cardavia.protocol.codec import encode_delta, encode_your_turn
from cardavia.protocol.delta import Recipient
from cardavia.protocol.errors import ProtocolError
from cardavia.protocol.names import fallback_bot_name
from cardavia.server.bot_runner import BotRunner
from cardavia.server.lobby import LobbyUnavailable, RoomEntry
from cardavia.server.seats import SeatSlot, Sink, room_info

log = logging.getLogger("cardavia.room")


class Journal(Protocol):
    """Where a room writes its match so another node can rebuild it (the lobby store)."""

    async def save_match(self, room: str, header: dict[str, Any]) -> None: ...

    async def append_action(self, room: str, index: int, action: dict[str, Any]) -> None: ...


BotFactory = Callable[[str, str, str], Bot]
"""(game id, level, seed) → a bot."""
JOURNAL_RETRY_SECONDS = 2.0
"""After a failed journal write, moves stop waiting on the lobby for this long (the heartbeat retries)."""


class Room:
    def __init__(
        self,
        entry: RoomEntry,
        *,
        runner: BotRunner,
        make_bot: BotFactory,
        bot_delay: float,
        grace_seconds: float,
        on_finish: Callable[[Room, dict[str, Any]], str],
        on_change: Callable[[Room], None] | None = None,
        journal: Journal | None = None,
    ) -> None:
        self.entry = entry
        self.game = get_game(entry.game)
        self.seats = [SeatSlot() for _ in range(self.game.players)]
        self.spectators: dict[Sink, Recipient] = {}
        self.state: State[Any] | None = None
        self.version = 0
        self.accepted = 0
        """Actions accepted in the current match: the journal's length."""
        self.matches = 0
        self.auto_moves: set[tuple[int, int]] = set()
        self._runner = runner
        self._make_bot = make_bot
        self._bot_delay = bot_delay
        self._grace = grace_seconds
        self._on_finish = on_finish
        self._on_change = on_change
        self._tasks: set[asyncio.Task[None]] = set()
        self._frozen = False
        self._journal = journal
        self._backlog: list[tuple[int, dict[str, Any]]] = []
        self._flushing = asyncio.Lock()
        self._entries: list[dict[str, Any]] = []
        self._journal_retry_at = 0.0
        """This match's accepted actions, as journaled."""
        self._lock = asyncio.Lock()
        self._bots_answer_now = False
        """While a person's move is applied: a bot that may answer at once does so (see ``act``)."""
        self._bot_now: int | None = None
        """The bot seat to answer in ``act``'s step, once the move before it is out."""
        self._committing = False
        """A move is checked and its journal write is under way: the position the room holds is
        about to be replaced, so nobody is told it is their turn in it (see ``sit``)."""
        self._legal: tuple[State[Any] | None, int, list[Any]] = (None, -1, [])
        """The legal moves of the state the room holds, for the seat to move: listed once per
        turn for ``your_turn``, the bot and the check of the move that comes."""
        self._deadline: float | None = None
        self._timed: tuple[int, int] | None = None
        """The turn (seat, version) whose timer runs: a player back on it keeps its deadline."""
        self.last_result: m.MatchResult | None = None
        self.absent_at_end: set[int] = set()
        """Human seats whose player had dropped when the match ended and has not been back since."""
        self.rematch_asked: set[int] = set()
        """Seats whose player has asked for a rematch of the finished match."""
        self.players: list[str | None] = [None] * self.game.players
        """Each seat's profile for the current match, fixed at its start (and journaled): the
        profiles its end is archived and rated under, whoever sits there later."""
        self.unarchived: dict[str, dict[str, Any]] = {}
        """Earlier matches of this room whose end the archive does not have yet (the database is
        away), by record id, as ``archiver.end_to_data``: journaled with the next match, so an
        adopter can still write them."""

    # ------------------------------------------------------------- seating
    @property
    def id(self) -> str:
        return self.entry.room

    def info(self) -> m.RoomInfo:
        """The room as its members see it: with its code and who is connected."""
        seats = [
            {
                "name": s.name or None,
                "kind": s.kind,
                "bot": s.bot_id,
                "guest": s.guest if s.kind == "human" else None,
                "connected": s.conn is not None,
            }
            for s in self.seats
        ]
        return room_info(self.entry, seats=seats, show_code=True)

    def holds(self, seat: int | None, session: str) -> bool:
        """Whether ``seat`` is ``session``'s to come back to (not if its player left it)."""
        if seat is None or not 0 <= seat < len(self.seats):
            return False
        slot = self.seats[seat]
        return slot.session == session and not slot.left

    def hold(
        self, seat: int, session: str, name: str, player: str | None = None, *, guest: int | None = None
    ) -> None:
        """Mark ``seat`` as ``session``'s before its player sits (while the lobby saves the seat),
        so that the session resuming on another connection meanwhile is seated there."""
        slot = self.seats[seat]
        slot.kind, slot.name, slot.session, slot.player, slot.guest = "human", name, session, player, guest

    def sit(
        self,
        seat: int,
        conn: Sink,
        name: str,
        last_seq: int | None = None,
        *,
        player: str | None = None,
        guest: int | None = None,
    ) -> None:
        """Put a person in a seat (new or reclaimed) and send them the room.

        A player who comes back knowing ``last_seq`` gets just the deltas it
        missed when they are still in the seat's short buffer, else a snapshot.
        ``player``: the person's profile; a player who comes back keeps the seat's.
        ``guest``: the person's guest number when they chose no name (``name`` is its fallback).
        """
        slot = self.seats[seat]
        if player is not None:
            slot.player = player
        old = slot.conn
        slot.guest = guest
        slot.kind, slot.name, slot.session, slot.conn, slot.dropped_at, slot.left = (
            "human",
            name,
            conn.session,
            conn,
            None,
            False,
        )
        if old is not None and old is not conn:
            old.send(m.Left(reason="replaced by a newer connection"))
        self.absent_at_end.discard(seat)
        missed = self._missed(slot, last_seq)
        if missed is None:
            self._snapshot(seat)
        else:
            for frame in missed:
                conn.send(frame)
        self._tell_waiting(but=seat)
        self._changed()
        if self.finished and self.last_result is not None:
            conn.send(self.last_result)  # came back after the end: tell how it ended
        elif self.state is not None and self.state.to_move == seat and not self._committing:
            # While a move is being committed (a stand-in's, another seat's) the turn waits for
            # it: the commit's delta comes next, then ``your_turn`` for the position after it.
            self._turn_started()

    @staticmethod
    def _missed(slot: SeatSlot, last_seq: int | None) -> list[bytes] | None:
        """The delta frames after ``last_seq`` if the buffer holds all of them, else None."""
        if last_seq is None or last_seq > slot.recipient.seq:
            return None
        if last_seq == slot.recipient.seq:
            return []
        missed = [(seq, frame) for seq, frame in slot.recent if seq > last_seq]
        if not missed or missed[0][0] != last_seq + 1 or missed[-1][0] != slot.recipient.seq:
            return None
        return [frame for _, frame in missed]

    def watch(self, conn: Sink) -> None:
        self.spectators[conn] = Recipient()
        self._snapshot(None, conn)

    def unwatch(self, conn: Sink) -> None:
        self.spectators.pop(conn, None)

    def leave(self, seat: int) -> None:
        """A person leaves: before the game the seat opens; during it a bot plays on."""
        slot = self.seats[seat]
        slot.conn = None
        if self.state is None:
            self.seats[seat] = SeatSlot()
            self._tell_waiting(but=seat)
        else:
            slot.left = True
            self._bot_takes_over(seat)
        self._changed()

    def dropped(self, seat: int, conn: Sink) -> None:
        """The connection went away: hold the seat for the grace period, then a bot plays it."""
        slot = self.seats[seat]
        if slot.conn is not conn:
            return
        slot.conn = None
        if self.state is None:
            slot.dropped_at = time.monotonic()  # its grace period starts with the match (``start``)
            return
        self._await_player(seat, time.monotonic())
        self._changed()

    def _await_player(self, seat: int, since: float) -> None:
        """The seat's player is not here: the seat waits the grace period from ``since`` for them,
        then a stand-in plays it."""
        self.seats[seat].dropped_at = since
        self._spawn(self._grace_expiry(seat, since))

    async def _grace_expiry(self, seat: int, dropped_at: float) -> None:
        await asyncio.sleep(self._grace)
        slot = self.seats[seat]
        if slot.conn is None and slot.dropped_at == dropped_at and not self.finished:
            self._bot_takes_over(seat)

    def _bot_takes_over(self, seat: int) -> None:
        slot = self.seats[seat]
        if slot.bot is None:
            slot.bot = self._make_bot(self.entry.game, "basic", f"{self._seed()}/{seat}/standin")
        if self.state is not None and self.state.to_move == seat:
            self._schedule_bot(seat)

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.is_over

    def connected(self) -> list[Sink]:
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators)

    def deserted(self) -> bool:
        """Every person has left for good: each seat is a bot's or was resigned to one. Nobody can
        come back to such a room (a dropped player's seat waits for them, so it does not count)."""
        return all(s.kind == "bot" or (s.kind == "human" and s.left) for s in self.seats)

    # ------------------------------------------------------------- playing
    async def start(self, seed: str) -> None:
        """Fill empty seats with bots, journal the match and deal."""
        for index, slot in enumerate(self.seats):
            if slot.kind == "open":
                level = self.entry.bot_level
                slot.kind, slot.bot_id, slot.guest = "bot", level, None
                slot.name = fallback_bot_name(index, level)  # clients name it in their own language
                slot.bot = self._make_bot(self.entry.game, level, f"{seed}/{index}")
        self.entry.extra["seed"] = seed
        self.rematch_asked.clear()
        # a seat whose player left during the last match is its stand-in's now, under no profile
        self.players = [s.player if s.kind == "human" and not s.left else None for s in self.seats]
        if self._journal is not None:
            await self._journal.save_match(self.id, self._header(seed))
        self.state = self.game.new(self.entry.options, seed)
        self.accepted = 0
        self._entries, self._backlog = [], []
        self.entry.state = "playing"
        self.version += 1
        self.auto_moves.clear()
        now = time.monotonic()
        for index, slot in enumerate(self.seats):
            if slot.kind == "human" and slot.conn is None and slot.bot is None and not slot.left:
                # On the way (a seat taken through another node) or dropped before the start:
                # the seat waits for its player as for one who dropped, then a stand-in plays it.
                self._await_player(index, now)
        for seat in range(len(self.seats)):
            self._snapshot(seat)
        for conn in list(self.spectators):
            self._snapshot(None, conn)
        self._changed()
        self._turn_started()

    def _header(self, seed: str) -> dict[str, Any]:
        seats = [
            {
                "kind": s.kind,
                "name": s.name,
                "session": s.session,
                "bot": s.bot_id,
                "player": player,
                "guest": s.guest,
            }
            for s, player in zip(self.seats, self.players, strict=True)
        ]
        header = {"seed": seed, "options": self.entry.options, "seats": seats, "matches": self.matches}
        if self.unarchived:
            header["unarchived"] = list(self.unarchived.values())
        return header

    async def act(self, seat: int, data: dict[str, Any]) -> None:
        """A person's action; raises a client error and changes nothing when it is refused."""
        if self.state is None:
            raise ProtocolError("not_in_room", "the game has not started")
        action = self.game.action_from_data(data)
        async with self._lock:
            self._bots_answer_now = True
            try:
                await self._apply(seat, action, auto=False)
                while self._bot_now is not None and not self._frozen:  # bots with nothing to wait for
                    bot_seat, self._bot_now = self._bot_now, None
                    await self._bot_decides(bot_seat, self.version, self.seats[bot_seat], self._bot(bot_seat))
            finally:
                self._bots_answer_now, self._bot_now = False, None

    async def _apply(self, seat: int, action: Any, *, auto: bool) -> None:
        """Check, journal, then publish: no delta leaves before its action is journaled."""
        assert self.state is not None
        listed = self._listed(seat, action)
        if listed is not None:  # listed by the engine for this state: no second check
            state, events = self.state.apply_unchecked(listed)
        else:  # checked in full, and refused with the engine's specific reason if it must be
            state, events = self.state.apply(action, seat=seat)
        index = self.accepted
        entry: dict[str, Any] = {"seat": seat, **action.to_data()}
        if auto:
            entry["auto"] = True
        self._committing = True
        try:
            await self._journal_action(index, entry)  # raises only when the room is closed under it
        finally:
            self._committing = False
        self.state = state
        self.version += 1
        self.accepted += 1
        if auto:
            self.auto_moves.add((len(self.state.log) - 1, len(self.state.log[-1].actions) - 1))
        self._broadcast(events)
        if self.state.is_over:
            self._finish()
        else:
            self._turn_started()

    def _broadcast(self, events: list[Event]) -> None:
        assert self.state is not None
        for index, slot in enumerate(self.seats):
            if slot.kind == "bot":
                continue  # nobody reads a bot seat's stream: its bot is handed a fresh view
            update = self._next_delta(slot.recipient, index, events)
            if update:
                frame = encode_delta(update[0], update[1], events)
                slot.recent.append((update[0], frame))
                if slot.conn is not None:
                    slot.conn.send(frame)
        public: dict[str, Any] = {}  # the spectators' one view or changed fields, made once for all
        for conn, recipient in self.spectators.items():
            update = self._next_delta(recipient, None, events, public)
            if update:
                conn.send(encode_delta(update[0], update[1], events))
        for event in events:
            if event.get("type") == "deal_end":
                result = m.DealResult(
                    deal=len(self.state.log) - (1 if self.state.is_over else 2),
                    points=list(event.get("points", [])),
                    detail=dict(event.get("detail", {})),
                    totals=event.get("totals"),
                )
                for conn in self.connected():
                    conn.send(result)

    def _next_delta(
        self, recipient: Recipient, seat: int | None, events: list[Event], made: dict[str, Any] | None = None
    ) -> tuple[int, list[Any]] | None:
        """A recipient's delta for the move just applied: from the fields the move changed
        (``State.view_update``) when its last view shows the position before the move, as it
        does unless the seat was a bot's meanwhile; else from the whole view. Same bytes.

        ``made`` keeps the fields and the view once made, for recipients who share a view
        (the spectators): neither is changed by a recipient, so one of each serves them all."""
        assert self.state is not None
        made = {} if made is None else made
        if recipient.mark == self.version - 1:
            if "fields" not in made:
                made["fields"] = self.state.view_update(seat, events)
            if made["fields"] is not None:
                return recipient.patch(made["fields"], self.version)
        if "view" not in made:
            made["view"] = self.state.view(seat)
        return recipient.update(made["view"], self.version)

    def _turn_started(self) -> None:
        assert self.state is not None
        seat = self.state.to_move
        if seat is None:
            return
        slot = self.seats[seat]
        turn_seconds = self.entry.turn_seconds
        # A player back on their turn (a resume, a stand-in stepping aside) is told the deadline
        # the turn already has: its timer runs on, and a second one would promise time it has not.
        timed = self._timed == (seat, self.version)
        if not timed:
            self._deadline = time.time() + turn_seconds if turn_seconds else None
        if slot.played_by_bot:
            if self._bots_answer_now and not self._bot_delay and self._runner.decides_inline(self._bot(seat)):
                self._bot_now = seat  # ``act`` plays it before it returns
            else:
                self._schedule_bot(seat)
            return
        if slot.conn is not None:
            slot.conn.send(self._your_turn(seat))
        if turn_seconds and not timed:
            self._timed = (seat, self.version)
            self._spawn(self._timer(seat, self.version, turn_seconds))

    def _legal_actions(self, seat: int) -> list[Any]:
        """``state.legal_actions(seat)``, listed once per state (never changed in place)."""
        state = self.state
        assert state is not None
        held, held_seat, legal = self._legal
        if held is not state or held_seat != seat:
            legal = state.legal_actions(seat)
            self._legal = (state, seat, legal)
        return legal

    def _listed(self, seat: int, action: Any) -> Any:
        """The engine's own listed move that is ``action`` to the letter, or None.

        An action can equal a listed one without being it: a Dou Dizhu play equals any play of
        the same combination and ranks, whatever its suits, so a play of cards the seat does not
        hold equals a legal one. Only a move whose data form is the listed move's skips the
        engine's check; any other goes through ``state.apply``."""
        legal = self._legal_actions(seat)
        try:
            listed = legal[legal.index(action)]
        except ValueError:
            return None
        return listed if listed.to_data() == action.to_data() else None

    def _your_turn(self, seat: int) -> bytes:
        """The ``your_turn`` frame, packed straight from the listed moves (see ``encode_your_turn``)."""
        legal = [a.to_data() for a in self._legal_actions(seat)]
        return encode_your_turn(self.seats[seat].recipient.seq, legal, self._deadline)

    def _schedule_bot(self, seat: int) -> None:
        self._spawn(self._bot_move(seat, self.version))

    async def _bot_move(self, seat: int, version: int, *, auto: bool = False) -> None:
        if self._bot_delay:
            await asyncio.sleep(self._bot_delay)
        if self.version != version or self.state is None or self._frozen:
            return
        async with self._lock:
            await self._bot_decides(seat, version, self.seats[seat], self._bot(seat), auto=auto)

    def _bot(self, seat: int) -> Bot:
        """The seat's bot, or a stand-in for a person who is gone or out of time."""
        slot = self.seats[seat]
        if slot.bot is None:
            return self._make_bot(self.entry.game, "basic", f"{self._seed()}/{seat}/timer")
        return slot.bot

    async def _bot_decides(
        self, seat: int, version: int, slot: SeatSlot, bot: Bot, *, auto: bool = False
    ) -> None:
        assert self.state is not None
        # A player who came back while the stand-in waited has had this turn's ``your_turn`` from
        # ``sit``: the stand-in steps aside without a second one of the same seq.
        legal = self._legal_actions(seat)
        if not legal or (not auto and not slot.played_by_bot):
            return
        view = self.state.view(seat) if bot.reads_view else {}
        action = await self._runner.choose(bot, view, list(legal))
        if self.version != version or self._frozen:  # a person moved (or the timer did) meanwhile
            return
        if not auto and not slot.played_by_bot:  # the player came back while the bot chose
            return
        try:
            await self._apply(seat, action, auto=auto or slot.kind == "human")
        except CardaviaError:  # pragma: no cover - a bot returned an illegal move
            log.exception("event=bot_illegal_action room=%s seat=%s", self.id, seat)

    async def _timer(self, seat: int, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self.version == version and self.state is not None and self.state.to_move == seat:
            log.info(
                "event=turn_timer_expired room=%s seat=%s session=%s", self.id, seat, self.seats[seat].session
            )
            await self._bot_move(seat, version, auto=True)

    def _finish(self) -> None:
        assert self.state is not None
        assert self.state.result is not None
        self.entry.state = "finished"
        self.matches += 1
        # Players who dropped (not those who left) may come back for the result.
        self.absent_at_end = {
            i
            for i, s in enumerate(self.seats)
            if s.kind == "human" and s.conn is None and s.dropped_at is not None
        }
        seats = [
            Seat(s.name or f"seat {i}", "bot" if s.kind == "bot" else "human", s.bot_id)
            for i, s in enumerate(self.seats)
        ]
        record = make_record(self.state, seats=seats, seed=self._seed(), deck=self.entry.deck)
        for recorded, slot in zip(record["seats"], self.seats, strict=True):
            if slot.kind == "human" and slot.guest is not None:  # readers ignore fields they do not know
                recorded["guest"] = slot.guest
        for deal_index, action_index in sorted(self.auto_moves):
            record["deals"][deal_index]["actions"][action_index]["auto"] = True
        record_id = self._on_finish(self, record)
        result = self.state.result
        message = m.MatchResult(
            scores=list(result.scores), winner=result.winner, reason=result.reason, record=record_id
        )
        self.last_result = message
        for conn in self.connected():
            conn.send(message)
        self._changed()

    def rematch_waiting(self) -> list[int]:
        """Seats whose player must still ask before a rematch starts: every human seat but those
        whose player left during the match (a stand-in plays those on)."""
        asked = self.rematch_asked
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and not s.left and i not in asked]

    def ask_rematch(self, seat: int, request_id: int | None = None) -> bool:
        """Note that ``seat`` wants a rematch; True once every seat that must agree has asked.

        Until then everyone in the room is told who has asked and who has not (the asker's
        copy answers its request), so nobody is pulled into a new match without agreeing."""
        if not self.finished:
            raise IllegalAction("not_allowed_now", "a rematch can start only after the match")
        self.rematch_asked.add(seat)
        waiting = self.rematch_waiting()
        if not waiting:
            return True
        asked = sorted(self.rematch_asked)
        asker = self.seats[seat].conn
        for conn in self.connected():
            conn.send(m.RematchVotes(id=request_id if conn is asker else None, asked=asked, waiting=waiting))
        return False

    async def rematch(self, seed: str) -> None:
        if not self.finished:
            raise IllegalAction("not_allowed_now", "a rematch can start only after the match")
        for slot in self.seats:
            slot.recipient = Recipient()
        await self.start(seed)

    # ------------------------------------------------------------ journal
    async def _journal_action(self, index: int, entry: dict[str, Any]) -> None:
        """Write the action (and any backlog from a lobby outage) before it is published.

        While the lobby is unreachable the game goes on from memory: the
        actions wait in a backlog that the next write (or ``flush``) catches up.
        """
        self._entries.append(entry)
        if self._journal is None:
            return
        self._backlog.append((index, entry))
        if time.monotonic() >= self._journal_retry_at:  # during an outage the heartbeat catches up
            await self.flush()

    async def flush(self) -> bool:
        """Catch the journal up; False while the lobby cannot be reached."""
        if self._journal is None:
            return True
        try:
            async with self._flushing:  # the heartbeat and a move may both catch up: one at a time
                while self._backlog:
                    index, entry = self._backlog[0]
                    await self._journal.append_action(self.id, index, entry)
                    self._backlog.pop(0)
        except LobbyUnavailable as exc:
            log.warning("event=journal_behind room=%s pending=%s error=%s", self.id, len(self._backlog), exc)
            self._journal_retry_at = time.monotonic() + JOURNAL_RETRY_SECONDS
            return False
        self._journal_retry_at = 0.0
        return True

    async def rejournal(self) -> None:
        """Write the whole match again (the lobby came back having lost it)."""
        if self._journal is None or self.state is None:
            return
        async with self._flushing:  # not under a catch-up in flight, which would pop from the new backlog
            await self._journal.save_match(self.id, self._header(self._seed()))
            self._backlog = list(enumerate(self._entries))
        await self.flush()

    def restore(self, header: dict[str, Any], actions: list[dict[str, Any]]) -> None:
        """Rebuild a match from its journal (a room adopted from a node that died).

        People are not connected yet: each human seat starts its grace period,
        after which a stand-in bot plays it until its player comes back.
        """
        for slot, seat in zip(self.seats, header["seats"], strict=True):
            slot.kind, slot.name, slot.session, slot.bot_id, slot.player, slot.guest = (
                seat["kind"],
                seat["name"],
                seat["session"],
                seat["bot"],
                seat.get("player"),
                seat.get("guest"),  # journals written before guests had no numbers
            )
            if slot.kind == "bot":
                slot.bot = self._make_bot(
                    self.entry.game, slot.bot_id or "basic", f"{header['seed']}/restored"
                )
        self.players = [seat.get("player") for seat in header["seats"]]
        self.unarchived = {end["record_id"]: end for end in header.get("unarchived", [])}
        self.matches = int(header.get("matches", 0))
        self.entry.extra["seed"] = header["seed"]
        state = self.game.new(header["options"], header["seed"])
        for number, data in enumerate(actions):
            action = self.game.action_from_data({k: v for k, v in data.items() if k not in ("seat", "auto")})
            state, _ = state.apply(action, seat=data["seat"])
            if data.get("auto"):
                self.auto_moves.add((len(state.log) - 1, len(state.log[-1].actions) - 1))
            self.version = number + 1
        self.accepted = len(actions)
        self._entries = [dict(a) for a in actions]
        self.state = state
        self.entry.state = "playing"
        now = time.monotonic()
        for index, slot in enumerate(self.seats):
            slot.recipient.snapshot(state.view(index), self.version)
            if slot.kind == "human":
                self._await_player(index, now)
        if state.is_over:
            # The match ended on the node that died, which may not have written its record:
            # finish it here (the same record, under the same id), so a player who comes back
            # gets the result, and the record can be fetched from this node.
            self._finish()
        else:
            self._turn_started()

    # ------------------------------------------------------------ plumbing
    def _tell_waiting(self, but: int) -> None:
        """Before the game, a fresh snapshot (its room info names who sits where) to
        everyone else in the room, so an owner sees people arrive and leave."""
        if self.state is not None or self.finished:
            return
        for index, slot in enumerate(self.seats):
            if index != but and slot.conn is not None:
                self._snapshot(index)
        for conn in list(self.spectators):
            self._snapshot(None, conn)

    def snapshot_for(self, seat: int | None, conn: Sink) -> None:
        """A fresh snapshot (resync) for a seat's connection or a spectator."""
        self._snapshot(seat, conn)
        if seat is None or self.state is None or self._committing:
            return  # a move being committed sends the turn of the position after it
        if self.state.to_move == seat:
            conn.send(self._your_turn(seat))

    def _snapshot(self, seat: int | None, conn: Sink | None = None) -> None:
        view: dict[str, Any] = self.state.view(seat) if self.state is not None else {}
        if seat is not None:
            recipient = self.seats[seat].recipient
            self.seats[seat].recent.clear()  # a snapshot starts a new chain
            conn = conn or self.seats[seat].conn
        else:
            assert conn is not None
            recipient = self.spectators.setdefault(conn, Recipient())
        seq = recipient.snapshot(view, self.version if self.state is not None else None)
        if conn is not None:
            conn.send(m.Snapshot(room=self.info(), seat=seat, seq=seq, view=view))

    def _seed(self) -> str:
        """The match seed, secret until the match is over: records and journals carry it, and
        stand-in bots draw from it, so nobody can foresee their choices from anything public."""
        return str(self.entry.extra.get("seed", ""))

    def _changed(self) -> None:
        if self._on_change:
            self._on_change(self)

    def _spawn(self, coro: Any) -> None:
        if self._frozen:  # a frozen room schedules no bot move, timer or grace period
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("event=task_failed room=%s", self.id, exc_info=task.exception())

    def task_count(self) -> int:
        """Bot moves, timers and grace periods under way (a closed room has none)."""
        return len(self._tasks)

    def freeze(self) -> None:
        """No move starts from now on (its node is going down, and another node may adopt the
        room); one already under way still completes, journal first, so no move is half made."""
        self._frozen = True

    async def settle(self) -> None:
        """Until the move under way, if any, has completed (journal write included)."""
        async with self._lock:
            pass

    def close(self) -> None:
        self.freeze()
        for task in list(self._tasks):
            task.cancel()
        self.entry.state = "closed"
