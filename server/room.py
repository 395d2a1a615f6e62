"""One authoritative game room: the only writer of its engine state.

Theory of operation
-------------------
Every change to a room happens in one synchronous step on the event loop:
an action is checked and applied by the engine, and then, before anything
awaits, each recipient (seat or spectator) gets its own delta computed from
its previous view, the mover of the next turn gets ``your_turn``, and a bot or
timer task is scheduled if the next mover is a bot or the turn is timed. So no
two actions can interleave, and a refused action changes nothing.

Bot and timer tasks do their waiting (the pause so people can follow, the
bot's thinking in a worker) off the room's state, and apply their action only
if the room is still at the version they were scheduled for; a move that
arrives late is dropped, never applied twice.

Connections are ``Sink`` objects: ``send`` only queues a frame, so a slow
client can never stall a room.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardavia.bots.base import Bot
from cardavia.games.engine import Event, State
from cardavia.games.errors import CardaviaError, IllegalAction
from cardavia.games.records import Seat, make_record
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m
from cardavia.protocol.delta import Recipient
from cardavia.protocol.errors import ProtocolError
from cardavia.server.bot_runner import BotRunner
from cardavia.server.lobby import RoomEntry

log = logging.getLogger("cardavia.room")


class Sink(Protocol):
    session: str

    def send(self, message: m.Reply) -> None: ...


@dataclass(slots=True)
class SeatSlot:
    kind: str = "open"  # open | human | bot
    name: str = ""
    session: str | None = None
    conn: Sink | None = None
    bot: Bot | None = None
    bot_id: str | None = None
    dropped_at: float | None = None
    recipient: Recipient = field(default_factory=Recipient)

    @property
    def played_by_bot(self) -> bool:
        """A bot seat, or a human seat whose player is gone past the grace period."""
        return self.kind == "bot" or (self.kind == "human" and self.bot is not None and self.conn is None)


BotFactory = Callable[[str, str, str], Bot]
"""(game id, level, seed) → a bot."""


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
    ) -> None:
        self.entry = entry
        self.game = get_game(entry.game)
        self.seats = [SeatSlot() for _ in range(self.game.players)]
        self.spectators: dict[Sink, Recipient] = {}
        self.state: State[Any] | None = None
        self.version = 0
        self.matches = 0
        self.auto_moves: set[tuple[int, int]] = set()
        self._runner = runner
        self._make_bot = make_bot
        self._bot_delay = bot_delay
        self._grace = grace_seconds
        self._on_finish = on_finish
        self._on_change = on_change
        self._tasks: set[asyncio.Task[None]] = set()
        self._deadline: float | None = None
        self.last_result: m.MatchResult | None = None

    # ------------------------------------------------------------- seating
    @property
    def id(self) -> str:
        return self.entry.room

    def info(self) -> m.RoomInfo:
        seats = [
            {"name": s.name or None, "kind": s.kind, "bot": s.bot_id, "connected": s.conn is not None}
            for s in self.seats
        ]
        return m.RoomInfo(
            room=self.id,
            code=self.entry.code,
            game=self.entry.game,  # type: ignore[arg-type]
            deck=self.entry.deck,
            options=self.entry.options,
            public=self.entry.public,
            state=self.entry.state,
            seats=seats,
            owner=self.entry.owner,
            node=self.entry.node,
            turn_seconds=self.entry.turn_seconds,
        )

    def seat_of(self, session: str) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s.session == session), None)

    def sit(self, seat: int, conn: Sink, name: str) -> None:
        """Put a person in a seat (new or reclaimed) and send them the room."""
        slot = self.seats[seat]
        old = slot.conn
        slot.kind, slot.name, slot.session, slot.conn, slot.dropped_at = (
            "human",
            name,
            conn.session,
            conn,
            None,
        )
        if old is not None and old is not conn:
            old.send(m.Left(reason="replaced by a newer connection"))
        self._snapshot(seat)
        self._changed()
        if self.finished and self.last_result is not None:
            conn.send(self.last_result)  # came back after the end: tell how it ended
        elif self.state is not None and self.state.to_move == seat:
            self._turn_started()

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
        else:
            self._bot_takes_over(seat)
        self._changed()

    def dropped(self, seat: int, conn: Sink) -> None:
        """The connection went away: hold the seat for the grace period, then a bot plays it."""
        slot = self.seats[seat]
        if slot.conn is not conn:
            return
        slot.conn = None
        slot.dropped_at = time.monotonic()
        if self.state is None:
            return
        self._spawn(self._grace_expiry(seat, slot.dropped_at))
        self._changed()

    async def _grace_expiry(self, seat: int, dropped_at: float) -> None:
        await asyncio.sleep(self._grace)
        slot = self.seats[seat]
        if slot.conn is None and slot.dropped_at == dropped_at and not self.finished:
            self._bot_takes_over(seat)

    def _bot_takes_over(self, seat: int) -> None:
        slot = self.seats[seat]
        if slot.bot is None:
            slot.bot = self._make_bot(self.entry.game, "basic", f"{self.id}/{seat}/standin")
        if self.state is not None and self.state.to_move == seat:
            self._schedule_bot(seat)

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.is_over

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def connected(self) -> list[Sink]:
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators)

    # ------------------------------------------------------------- playing
    def start(self, seed: str) -> None:
        """Fill empty seats with bots and deal."""
        for index, slot in enumerate(self.seats):
            if slot.kind == "open":
                level = self.entry.bot_level
                slot.kind, slot.bot_id = "bot", level
                slot.name = f"Bot {index + 1} ({level})"
                slot.bot = self._make_bot(self.entry.game, level, f"{seed}/{index}")
        self.entry.extra["seed"] = seed
        self.state = self.game.new(self.entry.options, seed)
        self.entry.state = "playing"
        self.version += 1
        self.auto_moves.clear()
        for seat in range(len(self.seats)):
            self._snapshot(seat)
        for conn in list(self.spectators):
            self._snapshot(None, conn)
        self._changed()
        self._turn_started()

    def act(self, seat: int, data: dict[str, Any]) -> None:
        """A person's action; raises a client error and changes nothing when it is refused."""
        if self.state is None:
            raise ProtocolError("not_in_room", "the game has not started")
        action = self.game.action_from_data(data)
        self._apply(seat, action, auto=False)

    def _apply(self, seat: int, action: Any, *, auto: bool) -> None:
        assert self.state is not None
        self.state, events = self.state.apply(action, seat=seat)
        self.version += 1
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
            update = slot.recipient.update(self.state.view(index))
            if update and slot.conn is not None:
                slot.conn.send(m.Delta(seq=update[0], ops=update[1], events=events))
        public = self.state.view(None) if self.spectators else None
        for conn, recipient in self.spectators.items():
            update = recipient.update(public)
            if update:
                conn.send(m.Delta(seq=update[0], ops=update[1], events=events))
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

    def _turn_started(self) -> None:
        assert self.state is not None
        seat = self.state.to_move
        if seat is None:
            return
        slot = self.seats[seat]
        turn_seconds = self.entry.turn_seconds
        self._deadline = time.time() + turn_seconds if turn_seconds else None
        if slot.played_by_bot:
            self._schedule_bot(seat)
            return
        if slot.conn is not None:
            slot.conn.send(self._your_turn(seat))
        if turn_seconds:
            self._spawn(self._timer(seat, self.version, turn_seconds))

    def _your_turn(self, seat: int) -> m.YourTurn:
        assert self.state is not None
        legal = [a.to_data() for a in self.state.legal_actions(seat)]
        return m.YourTurn(seq=self.seats[seat].recipient.seq, legal=legal, deadline=self._deadline)

    def _schedule_bot(self, seat: int) -> None:
        self._spawn(self._bot_move(seat, self.version))

    async def _bot_move(self, seat: int, version: int, *, auto: bool = False) -> None:
        if self._bot_delay:
            await asyncio.sleep(self._bot_delay)
        if self.version != version or self.state is None:
            return
        slot = self.seats[seat]
        bot = slot.bot or self._make_bot(self.entry.game, "basic", f"{self.id}/{seat}/timer")
        legal = self.state.legal_actions(seat)
        if not legal:
            return
        action = await self._runner.choose(bot, self.state.view(seat), legal)
        if self.version != version:  # a person moved (or the timer did) while the bot thought
            return
        if not auto and not slot.played_by_bot:  # the player came back while the bot waited
            if slot.conn is not None:
                slot.conn.send(self._your_turn(seat))
            return
        try:
            self._apply(seat, action, auto=auto or slot.kind == "human")
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
        seats = [
            Seat(s.name or f"seat {i}", "bot" if s.kind == "bot" else "human", s.bot_id)
            for i, s in enumerate(self.seats)
        ]
        record = make_record(
            self.state, seats=seats, seed=str(self.entry.extra.get("seed", "")), deck=self.entry.deck
        )
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

    def rematch(self, seed: str) -> None:
        if not self.finished:
            raise IllegalAction("not_allowed_now", "a rematch can start only after the match")
        for slot in self.seats:
            slot.recipient = Recipient()
        self.start(seed)

    # ------------------------------------------------------------ plumbing
    def snapshot_for(self, seat: int | None, conn: Sink) -> None:
        """A fresh snapshot (resync) for a seat's connection or a spectator."""
        self._snapshot(seat, conn)
        if seat is not None and self.state is not None and self.state.to_move == seat:
            conn.send(self._your_turn(seat))

    def _snapshot(self, seat: int | None, conn: Sink | None = None) -> None:
        view: dict[str, Any] = self.state.view(seat) if self.state is not None else {}
        if seat is not None:
            recipient = self.seats[seat].recipient
            conn = conn or self.seats[seat].conn
        else:
            assert conn is not None
            recipient = self.spectators.setdefault(conn, Recipient())
        seq = recipient.snapshot(view)
        if conn is not None:
            conn.send(m.Snapshot(room=self.info(), seat=seat, seq=seq, view=view))

    def _changed(self) -> None:
        if self._on_change:
            self._on_change(self)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("event=task_failed room=%s", self.id, exc_info=task.exception())

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self.entry.state = "closed"
