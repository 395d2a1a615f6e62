"""A live server's frames read off real sockets and checked as they are read: the watched
server writes (``watch_wire``), the test clients that play and watch (``Player``), one room's
matches (``play_room``), and a game's whole run (``no_frame_read_off_a_live_socket_…``).

What is checked, and why, is told in ``test_frame_secrecy_live.py``; the tests are in two
files (a game's run takes seconds) so that two test processes share them.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect

from cardavia.games.cards import DECKS
from cardavia.games.engine import Event, State
from cardavia.games.registry import GAMES
from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests, ViewStore
from cardavia.protocol.codec import decode_server, encode
from cardavia.server.connection import Connection
from cardavia.server.room import Room
from tests.server.test_frame_secrecy import NAMES, Problem, Sink, Table, _strings
from tests.support.servers import own_server

ROOMS = 6
MATCHES_PER_ROOM = 3
"""Each room plays a match and two rematches: ``ROOMS * MATCHES_PER_ROOM`` matches a game."""
WATCHER = "Dario"
READ_TIMEOUT = 20.0


class LiveTable(Table):
    """A ``Table`` whose frames are checked when a client reads them, against the state the
    room was in when the server wrote them (``current`` gives that state, not the room's now)."""

    at: State[Any] | None = None

    def current(self) -> State[Any] | None:
        return self.at

    def note(self) -> State[Any] | None:
        """The room's state now, noted as one the match went through (``Table.current``)."""
        return Table.current(self)


@dataclass(frozen=True, slots=True)
class Written:
    """A frame the server wrote to one socket, with what it is to be checked against."""

    raw: bytes
    table: LiveTable | None
    state: State[Any] | None


@dataclass
class Wire:
    """Both ends of every socket: what the server wrote to each, and the checks on what was read."""

    codes: frozenset[str]
    seeds: list[str] = field(default_factory=list)
    tables: dict[tuple[str, str], LiveTable] = field(default_factory=dict)
    written: dict[int, deque[Written]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)

    def table(self, room: Room) -> LiveTable:
        """The table of the room's match in play (a rematch, with its new seed, gets a new one)."""
        seed = str(room.entry.extra.get("seed", ""))
        table = self.tables.get((room.id, seed))
        if table is None:
            label = f"{room.entry.game} room {room.id}, match {room.matches + 1} (seed {seed or '-'})"
            table = self.tables[(room.id, seed)] = LiveTable(room, label, self.codes)
        table.note()
        return table

    def wrote(self, conn: Connection, raw: bytes) -> None:
        room = conn.room
        table = self.table(room) if room is not None else None
        state = room.state if room is not None else None
        peer = conn.wire.remote_address
        assert peer is not None
        self.written.setdefault(peer[1], deque()).append(Written(raw, table, state))

    def made(self, room: Room) -> None:
        """After an action's deltas: which state made each seat's latest delta (a player who
        comes back with ``last_seq`` is sent it again later, then held to that state)."""
        table, state = self.table(room), room.state
        assert state is not None
        for seat, slot in enumerate(room.seats):
            table.built[seat].setdefault(slot.recipient.seq, state)

    def read(self, ws: ClientConnection, sink: Sink, raw: bytes) -> m.Reply:
        """Check a frame a client read: the one the server wrote next to that socket."""
        port = ws.local_address[1]
        queue = self.written.get(port)
        assert queue, f"{sink.session} read a frame the server never wrote to it"
        written = queue.popleft()
        assert written.raw == raw, f"{sink.session} read other bytes than the server wrote"
        data = msgpack.unpackb(raw, raw=False)
        texts = list(_strings(data))
        where = written.table.match if written.table is not None else "out of any room"
        for seed in self.seeds:  # in a string, or anywhere in the bytes
            if seed.encode() in raw or any(seed in text for text in texts):
                self.problems.append(Problem("seed", where, sink.who, f"a {data['type']} frame", seed))
        if written.table is not None:
            table = written.table
            sink.table = table
            table.at = written.state
            before = len(table.problems)
            table.receive(sink, raw)  # the checks of test_frame_secrecy, as of when it was written
            self.problems += table.problems[before:]
            if data["type"] == "delta" and sink.seat is not None:
                made = table.built[sink.seat].get(data["seq"])
                if made is not None and made is not written.state:
                    self.stats["deltas read again after a return"] += 1
        self.stats[f"{data['type']} frames"] += 1
        return decode_server(raw)


def watch_wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    """The server's writes watched, and its match seeds drawn from a seeded generator (so a
    failing match can be played again; they are 128 bits like those of ``match_seed``)."""
    watched = Wire(frozenset(c.code for deck in DECKS.values() for c in deck))
    seeds = random.Random("live frames")
    send, broadcast = Connection.send, Room._broadcast

    def draw() -> str:
        seed = f"{seeds.getrandbits(128):032x}"
        watched.seeds.append(seed)
        return seed

    def watched_send(conn: Connection, message: m.Reply | bytes) -> None:
        raw = message if isinstance(message, bytes) else encode(message)
        if not conn.closing:
            watched.wrote(conn, raw)
        send(conn, raw)

    def watched_broadcast(room: Room, events: list[Event]) -> None:
        watched.table(room)
        broadcast(room, events)
        watched.made(room)

    monkeypatch.setattr("cardavia.server.handlers.match_seed", draw)
    monkeypatch.setattr(Connection, "send", watched_send)
    monkeypatch.setattr(Room, "_broadcast", watched_broadcast)
    return watched


# ---------------------------------------------------------------------- clients
@dataclass
class Player:
    """One test client: its socket, its checks' sink, and how it plays."""

    wire: Wire
    ws: ClientConnection
    sink: Sink
    name: str
    rng: random.Random
    req: Requests = field(default_factory=Requests)
    resume: str | None = None
    acted_at: int | None = None

    @classmethod
    async def connect(cls, wire: Wire, url: str, name: str, seat: int | None, rng: random.Random) -> Player:
        ws = await connect(url, compression=None, max_size=2**20)
        placeholder = Table.__new__(Table)  # replaced by the room's table with its first frame
        player = cls(wire, ws, Sink(placeholder, seat, name), name, rng)
        await player.hello()
        return player

    async def send(self, message: m.Request) -> None:
        await self.ws.send(encode(message))

    async def recv(self) -> m.Reply:
        raw = await asyncio.wait_for(self.ws.recv(), READ_TIMEOUT)
        assert isinstance(raw, bytes)
        message = self.wire.read(self.ws, self.sink, raw)
        if isinstance(message, m.Error):
            raise AssertionError(f"{self.name} got {message}")
        return message

    async def expect(self, kind: type[m.Reply]) -> Any:
        while not isinstance(message := await self.recv(), kind):
            pass
        return message

    async def hello(self, last_seq: int | None = None) -> None:
        hello = self.req.hello(self.name, resume=self.resume).model_copy(update={"last_seq": last_seq})
        await self.send(hello)
        welcome: m.Welcome = await self.expect(m.Welcome)
        self.resume = welcome.resume

    async def play(self, matches: int, drop_after: int | None, with_last_seq: bool, url: str) -> None:
        """Play ``matches`` matches (asking for a rematch after each but the last); with
        ``drop_after``, drop after that many frames of the first match and come back."""
        frames = 0
        for number in range(matches):
            while True:
                message = await self.recv()
                frames += 1
                if isinstance(message, m.MatchResult):
                    break
                turn = self.sink.turn
                if turn is not None and turn.seq == self.sink.store.seq and self.acted_at != turn.seq:
                    self.acted_at, self.sink.turn = turn.seq, None
                    await self.send(self.req.act(turn.legal[self.rng.randrange(len(turn.legal))]))
                if number == 0 and frames == drop_after:
                    await self.come_back(url, with_last_seq)
            if number + 1 < matches:
                self.acted_at = None
                await self.send(self.req.rematch())

    async def come_back(self, url: str, with_last_seq: bool) -> None:
        """The connection goes; a new one resumes the session, knowing its view or not."""
        await self.ws.close()
        await asyncio.sleep(self.rng.choice((0.0, 0.02, 0.1)))  # the others play on meanwhile
        self.ws = await connect(url, compression=None, max_size=2**20)
        self.acted_at = None
        if not with_last_seq:
            self.sink.store = ViewStore()
        await self.hello(self.sink.store.seq if with_last_seq else None)
        self.wire.stats["returns with last_seq" if with_last_seq else "returns to a snapshot"] += 1

    async def watch(self, matches: int) -> None:
        seen = 0
        while seen < matches:
            if isinstance(await self.recv(), m.MatchResult):
                seen += 1


async def play_room(wire: Wire, url: str, game_id: str, number: int) -> None:
    """One private room: its humans, bots in the other seats, a spectator; three matches."""
    players = GAMES[game_id].players
    rng = random.Random(f"live/{game_id}/{number}")
    humans = players if number % 2 == 0 else rng.randrange(1, players)
    seated = [
        await Player.connect(wire, url, NAMES[seat], seat, random.Random(f"{game_id}/{number}/{seat}"))
        for seat in range(humans)
    ]
    owner = seated[0]
    await owner.send(owner.req.create_room(game_id, humans=humans, bot_level="basic", public=False))
    made: m.Snapshot = await owner.expect(m.Snapshot)
    watcher = await Player.connect(wire, url, WATCHER, None, rng)
    await watcher.send(watcher.req.spectate(code=made.room.code))
    await watcher.expect(m.Snapshot)
    for player in seated[1:]:
        await player.send(player.req.join(code=made.room.code))
        await player.expect(m.Snapshot)
    await owner.send(owner.req.start())
    drops = rng.randrange(humans)
    await asyncio.gather(
        watcher.watch(MATCHES_PER_ROOM),
        *(
            p.play(
                MATCHES_PER_ROOM,
                rng.randrange(4, 40) if seat == drops else None,
                with_last_seq=number % 4 < 2,
                url=url,
            )
            for seat, p in enumerate(seated)
        ),
    )
    for p in (*seated, watcher):
        await p.ws.close()
    wire.stats["matches"] += MATCHES_PER_ROOM


FIRST_GAMES = ("scopa", "briscola")
"""The games of test_frame_secrecy_live.py; test_frame_secrecy_live_rest.py plays every other game."""


async def no_frame_read_off_a_live_socket_shows_a_hidden_card_or_a_seed(
    game_id: str, wire: Wire, tmp_path: Path
) -> None:
    """What clients read off real sockets, through rematches and resumes, tells them no card
    they may not know and no seed; the checks of the frames a room hands over, end to end."""
    async with own_server(tmp_path, grace_seconds=5.0) as (_server, url):
        for number in range(ROOMS):
            await play_room(wire, url, game_id, number)
            assert not wire.problems, "\n".join(map(str, wire.problems[:5]))
    assert wire.stats["matches"] == ROOMS * MATCHES_PER_ROOM
    assert len(wire.seeds) == ROOMS * MATCHES_PER_ROOM
    reached = ("returns with last_seq", "returns to a snapshot", "deltas read again after a return")
    for what in (*reached, "rematch_votes frames"):
        assert wire.stats[what] > 0, f"no {what} in {dict(wire.stats)}"
