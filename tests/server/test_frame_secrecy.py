"""The frames a room really sends show nobody a card it may not know, nor the match seed.

The conformance suite checks ``State.view``; this checks the bytes. Real ``Room``
objects play whole seeded matches of every game, their seats taken by recording
sinks that answer ``your_turn`` with a random legal move, by the server's basic
bots, and by a player who drops and comes back (resuming with ``last_seq``, with
a snapshot, or from a second connection that replaces the first), watched by one
or two spectators. Every message a sink is sent is encoded as ``Connection``
would send it and read back with msgpack, and:

* no string in it is the code of a card (of the game's pack) that its recipient
  may not know *when the frame is sent* (``State.secret_cards``), since a card
  may become public later;
* no string in it, nor its bytes, holds the match seed, which fixes every shuffle
  (checked in every frame, those sent at and after the end included: the record,
  which names the seed, is fetched on request and never sent into a room's streams);
* the recipient's ``ViewStore``, fed the snapshots and deltas, equals the engine's
  view of its seat after every frame and every action: the delta stream is exact.

Two kinds of frame carry cards of another deal than the one in play when they
are sent, where a card's code names a card the new shuffle may have hidden
again, so each part is held to the deal it speaks of:

* the delta of a deal's last action holds that deal's closing events (the last
  play, the score) before the next deal's: those come before the last ``deal``
  or ``redeal`` event, and are checked against what was secret just before the
  action, less the cards the action itself shows (``deal_result`` likewise);
* deltas a returning player gets from the seat's buffer were made when their
  action was played: each is checked against the state that made it (and, if
  that is still the same deal, against the state at sending as well).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest

from cardavia.games.briscola import BriscolaState
from cardavia.games.cards import DECKS
from cardavia.games.engine import State, View
from cardavia.games.registry import GAMES
from cardavia.games.traditions import default_tradition
from cardavia.protocol import messages as m
from cardavia.protocol.client import ViewStore
from cardavia.protocol.codec import encode, encode_delta
from cardavia.server.bot_runner import BotRunner
from cardavia.server.lobby import MemoryLobby, RoomEntry, SeatEntry
from cardavia.server.room import Room
from cardavia.server.rooms import make_bot

MATCHES = {"scopa": 200, "briscola": 300, "schnapsen": 250, "doudizhu": 250}
"""Whole matches per game, each with its own seed: Schnapsen to 7 game points, Dou Dizhu of one
deal (one in five of two), Scopa to 11 (every other one to 4, to fit more seeds in the time)."""

NAMES = ("Anna", "Bruno", "Carla")
"""Players' names, none of which looks like a card code (names are strings in every snapshot)."""

REPLIES = {t.model_fields["type"].default: t for t in m.SERVER_TYPES}
NEW_DEAL = frozenset({"deal", "redeal"})
RETURN_MODES = ("last_seq", "snapshot", "replaced")
STALL_LIMIT = 200


def _strings(data: Any) -> Iterator[str]:
    """Every string in decoded msgpack data, map keys included."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


def _where(data: Any, text: str, path: str = "") -> str | None:
    """The path of the first place ``text`` appears in ``data`` (for reports)."""
    if data == text:
        return path or "."
    items: list[tuple[Any, Any]] = []
    if isinstance(data, dict):
        items = list(data.items())
        if text in data:
            return f"{path}/{text} (a key)"
    elif isinstance(data, list):
        items = list(enumerate(data))
    for key, value in items:
        found = _where(value, text, f"{path}/{key}")
        if found is not None:
            return found
    return None


def _deal_key(state: State[Any]) -> tuple[int, int]:
    """Which shuffle is in play: a new deal or a thrown-in redeal changes it."""
    return (len(state.log), len(state.log[-1].redeals)) if state.log else (0, 0)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing a frame must not do, with what is needed to find it again."""

    kind: str  # card | seed | stream
    match: str
    recipient: str
    frame: str
    detail: str

    def __str__(self) -> str:
        return f"{self.match}: {self.recipient} got {self.frame}: {self.detail}"


class Sink:
    """A client connection as a room sees it: every frame it is sent goes to the table's checks."""

    def __init__(self, table: Table, seat: int | None, session: str, store: ViewStore | None = None) -> None:
        self.table = table
        self.seat = seat
        self.session = session
        self.store = store or ViewStore()
        self.turn: m.YourTurn | None = None
        self.replaced = False

    def send(self, message: m.Reply | bytes) -> None:
        frame = message if isinstance(message, bytes) else encode(message)  # as Connection.send
        self.table.receive(self, frame)

    @property
    def who(self) -> str:
        return "a spectator" if self.seat is None else f"seat {self.seat}"


@dataclass(slots=True)
class Frame:
    """One frame a sink was sent, as sent and decoded."""

    table: Table
    sink: Sink
    raw: bytes
    data: dict[str, Any]

    def fail(self, kind: str, detail: str) -> None:
        seq = f" (seq {self.data['seq']})" if "seq" in self.data else ""
        self.table.fail(kind, self.sink, f"a {self.data['type']} frame{seq}", detail)


@dataclass
class Table:
    """One room under watch: every state it has been through, and what its frames did wrong."""

    room: Room
    match: str
    codes: frozenset[str]
    primary: Sink | None = None
    """The first spectator: it is sent each action's delta after every seat, so on its delta
    every seat's stream is complete for that action."""
    states: list[State[Any]] = field(default_factory=list)
    index: dict[int, int] = field(default_factory=dict)
    built: list[dict[int, State[Any]]] = field(default_factory=list)
    """Per seat, the state each delta sequence number was made from (for frames sent again later)."""
    problems: list[Problem] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)
    _secrets: dict[tuple[int, int | None], frozenset[str]] = field(default_factory=dict)
    _views: dict[tuple[int, int | None], View] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.built = [{} for _ in self.room.seats]

    # ---------------------------------------------------------------- states
    def current(self) -> State[Any] | None:
        """The room's state now, noted if new; every accepted action must be seen."""
        state = self.room.state
        if state is None or (self.states and state is self.states[-1]):
            return state
        expected = len(self.states)
        if self.room.accepted != expected:
            self.fail("stream", None, "-", f"state after {self.room.accepted} actions, expected {expected}")
        if self.states:
            mover = self.states[-1].to_move
            slot = self.room.seats[mover] if mover is not None else None
            if slot is not None and (slot.kind == "bot" or slot.conn is None):
                self.stats["bot moves"] += 1
        self.index[id(state)] = len(self.states)
        self.states.append(state)  # kept alive, so the ids the caches use stay unique
        return state

    def secret(self, state: State[Any] | None, seat: int | None) -> frozenset[str]:
        if state is None:
            return frozenset()
        key = (id(state), seat)
        found = self._secrets.get(key)
        if found is None:
            found = self._secrets[key] = frozenset(c.code for c in state.secret_cards(seat))
        return found

    def view(self, state: State[Any] | None, seat: int | None) -> View:
        if state is None:
            return {}
        key = (id(state), seat)
        found = self._views.get(key)
        if found is None:
            found = self._views[key] = state.view(seat)
        return found

    def before(self, state: State[Any]) -> State[Any] | None:
        number = self.index[id(state)]
        return self.states[number - 1] if number else None

    def ended_secret(self, state: State[Any], seat: int | None) -> frozenset[str]:
        """What was secret at the end of the deal that the action leading to ``state`` closed:
        the secrets before it, less the cards the action itself showed."""
        before = self.before(state)
        if before is None:
            return frozenset()
        if len(state.log) > len(before.log):
            action = state.log[-2].actions[-1][1]
        elif state.log[-1].actions:
            action = state.log[-1].actions[-1][1]
        else:  # a thrown-in deal: the action that threw it was a bid, which shows no card
            return self.secret(before, seat)
        return self.secret(before, seat) - frozenset(_strings(action.to_data()))

    # ---------------------------------------------------------------- checks
    def fail(self, kind: str, sink: Sink | None, frame: str, detail: str) -> None:
        who = sink.who if sink is not None else "the room"
        self.problems.append(Problem(kind, self.match, who, frame, detail))

    def cards(self, frame: Frame, part: Any, secret: frozenset[str], when: str = "") -> None:
        """Report each card of ``secret`` that a string in ``part`` (of the frame) names.

        msgpack writes a string as its UTF-8 bytes, so a card's code is a string of the frame
        only if its two bytes are in the frame: the bytes sort out the few codes worth looking
        for, and the decoded strings decide (a code inside a longer string is no card).
        """
        suspects = {code for code in secret if code.encode() in frame.raw}
        if not suspects:
            return
        texts = set(_strings(part))
        for code in sorted(texts & suspects & self.codes):
            frame.fail("card", f"{code} at {_where(part, code)}, which it may not know{when}")

    def receive(self, sink: Sink, raw: bytes) -> None:
        state = self.current()
        data = msgpack.unpackb(raw, raw=False)
        message = REPLIES[data["type"]].model_validate(data)  # as decode_server validates it
        self.stats[f"{data['type']} frames"] += 1
        frame = Frame(self, sink, raw, data)
        seed = self.room.entry.extra.get("seed")
        if seed and seed.encode() in raw:  # in any string, whose bytes the frame holds as they are
            where = next((text for text in _strings(data) if seed in text), "its bytes")
            frame.fail("seed", f"the match seed {seed!r}, in {where!r}")
        seat = sink.seat
        if isinstance(message, m.Delta):
            assert state is not None, "a delta before the match began"
            self.delta(frame, message, state)
        elif isinstance(message, m.Snapshot):
            self.cards(frame, data, self.secret(state, seat))
            sink.store.on_snapshot(message)
            if sink.store.view != self.view(state, seat):
                frame.fail("stream", "the snapshot is not the seat's view")
        elif isinstance(message, m.DealResult) and state is not None:
            before = self.before(state)
            closing = before is not None and _deal_key(before) != _deal_key(state)
            secret = self.ended_secret(state, seat) if closing else self.secret(state, seat)
            self.cards(frame, data, secret)
        else:
            self.cards(frame, data, self.secret(state, seat))
            if isinstance(message, m.YourTurn):
                sink.turn = message
                if message.seq != sink.store.seq:
                    frame.fail("stream", f"it names seq {message.seq}; the view is at {sink.store.seq}")
            elif isinstance(message, m.Left):
                sink.replaced = True

    def delta(self, frame: Frame, message: m.Delta, now: State[Any]) -> None:
        """A delta is held to the state that made it: the one now, unless sent again on a return."""
        sink, seat = frame.sink, frame.sink.seat
        built = self.built[seat].get(message.seq) if seat is not None else None
        if built is None:  # sent as its action is played
            if seat is not None and message.seq != self.room.seats[seat].recipient.seq:
                frame.fail("stream", "a delta sent again that no action made")
            built = now
        else:
            self.stats["deltas sent again"] += 1
            if _deal_key(built) != _deal_key(now):
                self.stats["deltas sent again from an earlier deal"] += 1
        events = frame.data.get("events", [])
        cut = max((i for i, e in enumerate(events) if e.get("type") in NEW_DEAL), default=0)
        in_play = {"ops": frame.data["ops"], f"events[{cut}:]": events[cut:]} if cut else frame.data
        self.cards(frame, in_play, self.secret(built, seat))
        if built is not now and _deal_key(built) == _deal_key(now):
            self.cards(frame, in_play, self.secret(now, seat), " now")
        if cut:
            self.stats["deltas closing a deal"] += 1
            closing = {"events": events[:cut]}
            self.cards(frame, closing, self.ended_secret(built, seat), " at the end of its deal")
        if not sink.store.on_delta(message):
            frame.fail("stream", f"out of sequence after seq {sink.store.seq}")
        elif sink.store.view != self.view(built, seat):
            frame.fail("stream", "the view rebuilt from the deltas is not the seat's view")
        if sink is self.primary:
            self.action_done(now)

    def action_done(self, state: State[Any]) -> None:
        """Every seat's stream has this action now: note which state made each seq, and check
        that every connected player's rebuilt view is the engine's view of its seat."""
        for seat, slot in enumerate(self.room.seats):
            self.built[seat].setdefault(slot.recipient.seq, state)
            conn = slot.conn
            if isinstance(conn, Sink) and conn.store.view != self.view(state, seat):
                self.fail("stream", conn, "an action", "its rebuilt view is not the engine's view")
        self.stats["actions checked"] += 1


# -------------------------------------------------------------------- matches
@dataclass(frozen=True, slots=True)
class Plan:
    """One seeded match: who plays each seat, and whether a player drops and comes back."""

    game: str
    number: int
    options: dict[str, Any]
    bots: frozenset[int]
    drops: bool


def plan(game_id: str, number: int) -> Plan:
    """Matches cycle through four kinds: all sinks; some bot seats; a drop; bots and a drop.
    One Dou Dizhu match in five has two deals, so a deal also ends there with cards still
    hidden in hands."""
    options: dict[str, Any] = {}
    if game_id == "doudizhu" and number % 5 == 4:
        options = {"deals": 2}
    elif game_id == "scopa" and number // 4 % 2:  # every other block of the four kinds above
        options = {"target": 4}
    rng = random.Random(f"plan/{game_id}/{number}")
    players = GAMES[game_id].players
    bots: frozenset[int] = frozenset()
    if number % 4 in (1, 3):
        bots = frozenset(rng.sample(range(players), rng.randrange(1, players)))
    return Plan(game_id, number, options, bots, drops=number % 4 >= 2)


@dataclass
class Away:
    """The player who drops: when, for how many actions, and how it comes back."""

    seat: int
    at: int
    actions: int
    mode: str
    sink: Sink | None = None
    since: int = 0
    done: bool = False


async def play(runner: BotRunner, match: Plan) -> Table:
    """Play one whole match in a real room and return what its frames were checked for."""
    game = GAMES[match.game]
    rng = random.Random(f"play/{match.game}/{match.number}")
    seed = f"{rng.getrandbits(128):032x}"
    entry = RoomEntry(
        room=f"r-frames{match.number:04d}",
        code="WXYZW",
        game=match.game,
        deck=default_tradition(match.game).id,
        options=game.options(match.options),
        public=False,
        seats=[SeatEntry() for _ in range(game.players)],
        humans=game.players - len(match.bots),
        bot_level="basic",
        owner="s-frames-owner",
    )
    lobby = MemoryLobby()
    await lobby.create_room(entry)
    room = Room(
        entry,
        runner=runner,
        make_bot=make_bot,
        bot_delay=0.0,
        grace_seconds=rng.choice((0.0, 60.0)),  # 0: a stand-in bot plays the seat at once
        on_finish=lambda room, record: f"{room.id}-{room.matches}",
        journal=lobby,
    )
    label = f"{match.game} match {match.number} (seed {seed}, {entry.options}, bots {sorted(match.bots)})"
    table = Table(room, label, frozenset(c.code for c in DECKS[str(game.deck_size)]))
    humans = [s for s in range(game.players) if s not in match.bots]
    movers = {s: random.Random(f"{seed}/{s}") for s in humans}
    for seat in humans:
        room.sit(seat, Sink(table, seat, f"s-frames-{seat}"), NAMES[seat])
    table.primary = Sink(table, None, "s-frames-watcher")
    room.watch(table.primary)
    away = (
        Away(rng.choice(humans), rng.randrange(40), rng.randrange(1, 100), rng.choice(RETURN_MODES))
        if match.drops
        else None
    )
    late_watcher = rng.randrange(60) if match.number % 3 == 0 else None
    try:
        await room.start(seed)
        await _drive(room, table, movers, away, late_watcher)
        if away is not None and away.sink is not None and not away.done:  # back after the end
            _come_back(room, table, away)
            table.stats["returns after the end"] += 1
    finally:
        room.close()
    if not table.problems:
        assert room.state is not None
        assert room.state.is_over, f"{label} did not end"
    return table


async def _drive(
    room: Room, table: Table, movers: dict[int, random.Random], away: Away | None, late_watcher: int | None
) -> None:
    """Play until the end: sinks move when sent ``your_turn``; bots, stand-ins and grace periods
    are the room's own tasks, which run whenever the loop yields. The player who drops comes
    back after its actions, or at once if its seat waits for it."""
    idle = 0
    while room.state is not None and not room.finished and not table.problems:
        played = room.accepted
        if late_watcher is not None and played >= late_watcher and len(room.spectators) == 1:
            room.watch(Sink(table, None, "s-frames-late"))
        if away is not None and not away.done:
            if away.sink is None and played >= away.at:
                _drop(room, away)
            elif away.sink is not None and (
                played - away.since >= away.actions or (idle > 10 and room.state.to_move == away.seat)
            ):
                _come_back(room, table, away)
        seat = room.state.to_move
        assert seat is not None
        sink = room.seats[seat].conn
        if isinstance(sink, Sink) and sink.turn is not None and seat in movers:
            legal = sink.turn.legal
            sink.turn = None
            await room.act(seat, legal[movers[seat].randrange(len(legal))])
            idle = 0
            continue
        await asyncio.sleep(0)  # a bot's (or stand-in's, or grace period's) task runs
        idle = idle + 1 if room.accepted == played else 0
        if idle > STALL_LIMIT:
            table.fail("stream", None, "-", f"stalled after {played} actions: seat {seat} got no turn")


def _drop(room: Room, away: Away) -> None:
    """The connection goes away (or, for ``replaced``, a second one is about to take over)."""
    conn = room.seats[away.seat].conn
    assert isinstance(conn, Sink)
    away.sink, away.since = conn, room.accepted
    if away.mode != "replaced":
        room.dropped(away.seat, conn)


def _come_back(room: Room, table: Table, away: Away) -> None:
    old = away.sink
    assert old is not None
    away.done = True
    session = f"s-frames-{away.seat}"
    if away.mode == "snapshot":
        room.sit(away.seat, Sink(table, away.seat, session), NAMES[away.seat])
    else:  # the client keeps its view and says how far it got
        store = old.store
        room.sit(away.seat, Sink(table, away.seat, session, store), NAMES[away.seat], last_seq=store.seq)
        if away.mode == "replaced" and not old.replaced:
            table.fail("stream", old, "-", "the replaced connection was not told it left")
    table.stats[f"returns ({away.mode})"] += 1


# ---------------------------------------------------------------------- tests
async def _play_all(game_id: str, count: int) -> tuple[list[Problem], Counter[str]]:
    runner = BotRunner(0)
    problems: list[Problem] = []
    stats: Counter[str] = Counter()
    try:
        for number in range(count):
            table = await play(runner, plan(game_id, number))
            problems += table.problems
            stats += table.stats
            stats["matches"] += 1
            if problems:
                break
    finally:
        runner.close()
    return problems, stats


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_no_frame_shows_a_hidden_card_or_the_seed_and_every_stream_is_exact(game_id: str) -> None:
    """What a client is sent is all it can ever learn, whatever ``State.view`` promises: this is
    the check on the frames themselves, through bots, resumes and deal changes."""
    problems, stats = await _play_all(game_id, MATCHES[game_id])
    assert not problems, "\n".join(map(str, problems[:5]))
    assert stats["matches"] == MATCHES[game_id]
    # the matches reached every path the checks are for
    for what in ("bot moves", "deltas sent again", "returns (last_seq)", "returns (snapshot)"):
        assert stats[what] > 0, f"no {what} in {dict(stats)}"
    assert stats["returns (replaced)"] + stats["returns after the end"] > 0
    if game_id != "briscola":  # Briscola is one deal
        assert stats["deltas closing a deal"] > 0


async def test_a_view_that_shows_one_hidden_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail: a view that, from the third action on, shows one card its seat may
    not know reaches the sinks only inside deltas, and is reported there, card and place."""
    honest = BriscolaState.view

    def leaky(self: BriscolaState, seat: int | None) -> View:
        view = honest(self, seat)
        hidden = sorted(self.secret_cards(seat))
        if len(self.history()) >= 3 and hidden:
            view = {**view, "peek": hidden[0].code}
        return view

    monkeypatch.setattr(BriscolaState, "view", leaky)
    monkeypatch.setattr(BriscolaState, "view_update", State.view_update)  # every delta from the leaky view
    table = await _one(plan("briscola", 0))
    assert table.problems, "a leaked card went unnoticed"
    first = table.problems[0]
    assert first.kind == "card"
    assert first.frame.startswith("a delta frame")
    assert "at /ops/" in first.detail


async def test_the_seed_in_a_frame_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A room that names its seed among its options (in every snapshot) is reported."""
    honest = Room.info

    def telling(self: Room) -> m.RoomInfo:
        info = honest(self)
        options = {**info.options, "shuffle": f"from {self.entry.extra.get('seed')}"}
        return info.model_copy(update={"options": options})

    monkeypatch.setattr(Room, "info", telling)
    table = await _one(plan("briscola", 0))
    assert any(p.kind == "seed" for p in table.problems)


async def test_a_delta_that_loses_an_op_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rebuilt views are compared, not just the frames' cards: a short delta is reported."""

    def short(seq: int, ops: list[Any], events: list[dict[str, Any]]) -> bytes:
        return encode_delta(seq, ops[:-3] if len(ops) > 3 else ops, events)

    monkeypatch.setattr("cardavia.server.room.encode_delta", short)
    table = await _one(plan("briscola", 0))
    assert any(p.kind == "stream" for p in table.problems)


async def _one(match: Plan) -> Table:
    runner = BotRunner(0)
    try:
        return await play(runner, match)
    finally:
        runner.close()
