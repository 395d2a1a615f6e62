"""The lobby store: rooms, seats and sessions that every node may see.

An interface with two backends: ``MemoryLobby`` (the embedded default, one
process) and ``RedisLobby`` (several nodes, on one Redis or a Redis Cluster). The interface is
async and every operation that decides something (claiming a seat, pairing a
quick match) is atomic in the store itself, so two players can never get the
same seat whatever the backend.
"""

from __future__ import annotations

import dataclasses
import heapq
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from cardavia.games.errors import ServerError
from cardavia.protocol.errors import ProtocolError


def normal_code(code: str) -> str:
    """A room code as typed or read aloud (``abcd-efgh``, ``ABCD EFGH``) in the form codes are kept in."""
    return code.upper().replace("-", "").replace(" ", "")


class LobbyUnavailable(ServerError):
    """The lobby store cannot be reached; games in progress go on, lobby requests wait."""

    code = "lobby_unavailable"


SeatKind = Literal["open", "human", "bot"]
RoomState = Literal["waiting", "playing", "finished", "closed"]


@dataclass(slots=True)
class SeatEntry:
    kind: SeatKind = "open"
    name: str | None = None
    session: str | None = None
    bot: str | None = None
    guest: int | None = None
    """A guest's number (a person who chose no name; ``name`` is then "Player 563")."""

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot, "guest": self.guest}


@dataclass(slots=True)
class RoomEntry:
    room: str
    code: str
    game: str
    deck: str
    options: dict[str, Any]
    public: bool
    seats: list[SeatEntry]
    humans: int
    bot_level: str
    owner: str | None = None
    node: str = ""
    state: RoomState = "waiting"
    turn_seconds: float | None = None
    fill_after: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    rated: bool = False
    """A rated room: its match changes the ratings of the profiles seated in it."""
    rating: float | None = None
    """A rated quick-match room's waiting player's rating, which quick match pairs by."""

    def copy(self) -> RoomEntry:
        return dataclasses.replace(self, seats=[dataclasses.replace(s) for s in self.seats])

    def human_seats_free(self) -> list[int]:
        taken = sum(1 for s in self.seats if s.kind == "human")
        if taken >= self.humans:
            return []
        return [i for i, s in enumerate(self.seats) if s.kind == "open"]

    def take_seat(self, session: str, name: str, guest: int | None = None) -> int | None:
        """Seat ``session`` in the first free seat for people, if any: its index.

        The one seat-claim rule of the in-memory lobby, for a join and a quick match alike
        (the Redis lobby's is ``server/lua/seats.lua``)."""
        free = self.human_seats_free()
        if not free:
            return None
        self.seats[free[0]] = SeatEntry("human", name, session, guest=guest)
        return free[0]


CLAIM_REFUSALS: Final = {
    "unknown_room": "no room {room!r}",
    "room_started": "the room's game has already started",
    "room_full": "every seat for people is taken",
}
"""Why a seat claim fails, by error code: the same words whichever backend refused."""


def claim_refused(code: str, room: str) -> ProtocolError:
    """The error for a seat claim on ``room`` refused with ``code`` (one of ``CLAIM_REFUSALS``)."""
    return ProtocolError(code, CLAIM_REFUSALS[code].format(room=room))


MISSED_BEATS: Final = 2.0
"""A node whose last heartbeat is this many heartbeat intervals old has missed a beat: it is
stale. Its heartbeat only expires ``node_ttl`` after that last beat, so for a while a node that
died is still listed among the live ones; no player is sent to it meanwhile (see ``fresh``)."""


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """A live node's last heartbeat: where clients reach the node, and how long ago it beat."""

    url: str
    age: float

    def fresh(self, heartbeat_seconds: float) -> bool:
        """True while the node has missed no beat (it beats every ``heartbeat_seconds``).

        The one test of a node that may be sent players, whichever lobby holds the beats:
        expiry (``node_ttl``) has to wait out a few lost beats before another node adopts the
        rooms, or a node that was slow once would lose them; a player need not wait that long
        to be told the room is moving, rather than sent to a node that is probably dead. A
        live node judged stale by mistake only makes a player try again a moment later."""
        return self.age < MISSED_BEATS * heartbeat_seconds


DEFAULT_RATING: Final = 1500.0
"""The rating of a player who has played no rated match of a game (Glicko's starting point)."""
RATING_WINDOW: Final = 150.0
"""How far apart two ratings may be for a rated quick match to pair them at once."""
RATING_WINDOW_GROWTH: Final = 50.0
"""How much the window of a waiting rated room widens per second it has waited: nobody waits for
ever for a perfect opponent (after ten seconds a room takes anyone within 650 points)."""
UNRATED_DISTANCE: Final = 1e9
"""The distance of a rated room that carries no rating (a public rated room made by
``create_room``): it takes any rated player, after every room with a rating in the window."""


def pairing_distance(room_rating: float | None, rating: float, waited: float) -> float | None:
    """How far a rated room is from a player's ``rating``, or None when the room's window (which
    has widened for the ``waited`` seconds the room has been open) does not reach it. The rule of
    both lobbies (``lua/quick_match.lua`` is the Redis twin)."""
    if room_rating is None:
        return UNRATED_DISTANCE
    distance = abs(room_rating - rating)
    if distance > RATING_WINDOW + RATING_WINDOW_GROWTH * max(0.0, waited):
        return None
    return distance


@dataclass(slots=True)
class SessionEntry:
    session: str
    name: str
    token_hash: str
    room: str | None = None
    seat: int | None = None
    player: str | None = None
    """The profile the session holds (a player id), so a resumed session keeps it."""
    guest: int | None = None
    """The guest number the session is seated under (None: its player chose a name)."""


class LobbyStore(ABC):
    """What the server needs of a lobby, whichever backend holds it."""

    @abstractmethod
    async def create_room(self, entry: RoomEntry) -> None: ...

    @abstractmethod
    async def get_room(self, room: str) -> RoomEntry | None: ...

    @abstractmethod
    async def room_by_code(self, code: str) -> RoomEntry | None: ...

    @abstractmethod
    async def list_open(self, game: str | None, limit: int) -> list[RoomEntry]:
        """Public rooms waiting for players, oldest first."""

    @abstractmethod
    async def claim_seat(self, room: str, session: str, name: str, guest: int | None = None) -> int:
        """Atomically take a free human seat; ``ProtocolError`` when there is none. ``guest``: the
        guest number of a player who chose no name, kept with the seat."""

    @abstractmethod
    async def quick_match(
        self,
        game: str,
        session: str,
        name: str,
        *,
        rated: bool = False,
        rating: float | None = None,
        guest: int | None = None,
    ) -> tuple[str, int] | None:
        """Atomically take a seat in an open public room of ``game``, if any: for a casual request
        the oldest casual room; for a rated one the rated room nearest ``rating`` (None: the
        default rating) within its window (``pairing_distance``)."""

    @abstractmethod
    async def set_seat(self, room: str, seat: int, entry: SeatEntry) -> None: ...

    @abstractmethod
    async def set_state(self, room: str, state: RoomState) -> None: ...

    @abstractmethod
    async def delete_room(self, room: str) -> None: ...

    @abstractmethod
    async def save_session(self, entry: SessionEntry, ttl: float | None = None) -> None:
        """Keep a session (replacing its old token); ``ttl``: it expires after that many seconds,
        None: it lives as long as it is in use (a backend may still bound that, see Redis)."""

    @abstractmethod
    async def expire_session(self, session: str, ttl: float, *, room: str | None = None) -> None:
        """The session (and its token) expires in ``ttl`` seconds unless saved again meanwhile.
        With ``room``: only if the session is still that room's (a player may have moved on)."""

    @abstractmethod
    async def session_by_token(self, token_hash: str) -> SessionEntry | None: ...

    @abstractmethod
    async def drop_session(self, session: str) -> None: ...

    # ------------------------------------------------------ nodes and seats held for a redirect
    @abstractmethod
    async def register_node(self, node: str, url: str, ttl: float) -> None:
        """Say this node is alive (and where clients reach it) for the next ``ttl`` seconds."""

    @abstractmethod
    async def heartbeats(self) -> dict[str, Heartbeat]:
        """The last heartbeat of each live node (one whose heartbeat has not expired)."""

    async def nodes(self) -> dict[str, str]:
        """Live nodes and their public URLs."""
        return {node: beat.url for node, beat in (await self.heartbeats()).items()}

    async def fresh_nodes(self, heartbeat_seconds: float) -> dict[str, str]:
        """Live nodes that have missed no heartbeat, and their public URLs: where players may be
        sent. Adoption still waits for ``nodes`` to drop a node (see ``Heartbeat.fresh``)."""
        beats = await self.heartbeats()
        return {node: beat.url for node, beat in beats.items() if beat.fresh(heartbeat_seconds)}

    @abstractmethod
    async def reserve(self, token: str, room: str, seat: int, session: str, ttl: float) -> None:
        """Hold a claimed seat for a client sent to another node, for ``ttl`` seconds."""

    @abstractmethod
    async def take_reservation(self, token: str, session: str) -> tuple[str, int] | None:
        """(room, seat) of a reservation held for ``session``, which is gone once taken (or expired).

        Another session's attempt finds nothing and leaves the reservation to its owner."""

    # ------------------------------------------------- matches that outlive their node
    @abstractmethod
    async def save_match(self, room: str, header: dict[str, Any]) -> None:
        """Start a room's journal: what a new match needs (seed, options, seats); clears old actions."""

    @abstractmethod
    async def append_action(self, room: str, index: int, action: dict[str, Any]) -> None:
        """Journal the ``index``-th accepted action (0-based); a repeat of a known index is ignored."""

    @abstractmethod
    async def load_match(self, room: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None: ...

    @abstractmethod
    async def rooms_of(self, node: str) -> list[str]:
        """Rooms a node runs (those it created or adopted and has not closed)."""

    @abstractmethod
    async def known_nodes(self) -> list[str]:
        """Every node that ever registered and still has rooms or a heartbeat."""

    @abstractmethod
    async def take_lease(self, room: str, node: str, ttl: float) -> bool:
        """Exclusive right to adopt ``room`` for ``ttl`` seconds: exactly one caller wins."""

    @abstractmethod
    async def move_room(self, room: str, node: str) -> None:
        """``room`` now runs on ``node``; its adoption lease ends, so that if ``node``
        dies too, another node may adopt the room at once."""

    @abstractmethod
    async def release_lease(self, room: str, node: str) -> None:
        """End ``node``'s lease on ``room`` without moving it (a lease another node holds stays)."""

    @abstractmethod
    async def forget_room(self, room: str, node: str) -> None:
        """Take ``room`` off the rooms of ``node`` once the lobby no longer has it (its entry expired)."""

    def table_sizes(self) -> dict[str, int]:
        """Entries in each table this process keeps for the lobby (for ``/metrics``); a backend
        that keeps its tables elsewhere (Redis) has none here."""
        return {}


class MemoryLobby(LobbyStore):
    """The embedded lobby: plain dicts in this process. Atomic because nothing awaits inside a step."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        """Where the lobby reads the time of expiries and heartbeats (a test passes a clock it steps)."""
        self._rooms: dict[str, RoomEntry] = {}
        self._codes: dict[str, str] = {}
        self._opened: dict[str, float] = {}
        """When each room was made (of ``_clock``): how long a rated room has waited widens its window."""
        self._sessions: dict[str, SessionEntry] = {}
        self._tokens: dict[str, str] = {}
        self._nodes: dict[str, tuple[str, float, float]] = {}
        """Heartbeats by node: (url, expiry, when it beat), both times of ``_clock``."""
        self._matches: dict[str, dict[str, Any]] = {}
        self._actions: dict[str, list[dict[str, Any]]] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._reservations: dict[str, tuple[str, int, str, float]] = {}
        self._expires: dict[str, float] = {}
        """Sessions that expire, by id: when (of ``_clock``)."""
        self._deadlines: list[tuple[float, str]] = []
        """A heap of (when, session); an entry whose time no longer matches ``_expires`` is stale."""

    async def create_room(self, entry: RoomEntry) -> None:
        if entry.room in self._rooms or entry.code in self._codes:
            raise ValueError("room id or code already taken")
        self._rooms[entry.room] = entry.copy()
        self._codes[entry.code] = entry.room
        self._opened[entry.room] = self._clock()

    async def get_room(self, room: str) -> RoomEntry | None:
        entry = self._rooms.get(room)
        return entry.copy() if entry else None

    async def room_by_code(self, code: str) -> RoomEntry | None:
        room = self._codes.get(normal_code(code))
        return await self.get_room(room) if room else None

    async def list_open(self, game: str | None, limit: int) -> list[RoomEntry]:
        found: list[RoomEntry] = []
        for e in self._rooms.values():
            if e.public and e.state == "waiting" and game in (None, e.game) and e.human_seats_free():
                found.append(e.copy())
                if len(found) == limit:
                    break
        return found

    async def claim_seat(self, room: str, session: str, name: str, guest: int | None = None) -> int:
        entry = self._rooms.get(room)
        if entry is None:
            raise claim_refused("unknown_room", room)
        if entry.state != "waiting":
            raise claim_refused("room_started", room)
        seat = entry.take_seat(session, name, guest)
        if seat is None:
            raise claim_refused("room_full", room)
        return seat

    async def quick_match(
        self,
        game: str,
        session: str,
        name: str,
        *,
        rated: bool = False,
        rating: float | None = None,
        guest: int | None = None,
    ) -> tuple[str, int] | None:
        now = self._clock()
        wanted = DEFAULT_RATING if rating is None else rating
        best: RoomEntry | None = None
        nearest = 0.0
        for entry in self._rooms.values():  # oldest first
            if not (
                entry.public
                and entry.state == "waiting"
                and entry.game == game
                and entry.rated == rated
                and entry.human_seats_free()
            ):
                continue
            if not rated:
                best = entry
                break
            distance = pairing_distance(entry.rating, wanted, now - self._opened.get(entry.room, now))
            if distance is not None and (best is None or distance < nearest):
                best, nearest = entry, distance
        if best is None:
            return None
        seat = best.take_seat(session, name, guest)
        return None if seat is None else (best.room, seat)

    async def set_seat(self, room: str, seat: int, entry: SeatEntry) -> None:
        if room in self._rooms:
            self._rooms[room].seats[seat] = dataclasses.replace(entry)

    async def set_state(self, room: str, state: RoomState) -> None:
        if room in self._rooms:
            self._rooms[room].state = state

    async def delete_room(self, room: str) -> None:
        entry = self._rooms.pop(room, None)
        self._opened.pop(room, None)
        if entry:
            self._codes.pop(entry.code, None)
        self._matches.pop(room, None)
        self._actions.pop(room, None)
        self._leases.pop(room, None)

    async def save_session(self, entry: SessionEntry, ttl: float | None = None) -> None:
        self._expire_due()
        old = self._sessions.get(entry.session)
        if old:
            self._tokens.pop(old.token_hash, None)
        self._sessions[entry.session] = dataclasses.replace(entry)
        self._tokens[entry.token_hash] = entry.session
        if ttl is None:
            self._expires.pop(entry.session, None)
        else:
            self._set_expiry(entry.session, ttl)

    async def expire_session(self, session: str, ttl: float, *, room: str | None = None) -> None:
        self._expire_due()
        entry = self._sessions.get(session)
        if entry is not None and (room is None or entry.room == room):
            self._set_expiry(session, ttl)

    def _set_expiry(self, session: str, ttl: float) -> None:
        when = self._clock() + ttl
        self._expires[session] = when
        heapq.heappush(self._deadlines, (when, session))

    def _expire_due(self) -> None:
        """Drop every session whose time has come (each step pops what it has to, so it stays cheap)."""
        now = self._clock()
        while self._deadlines and self._deadlines[0][0] <= now:
            when, session = heapq.heappop(self._deadlines)
            if self._expires.get(session) == when:
                del self._expires[session]
                entry = self._sessions.pop(session)
                self._tokens.pop(entry.token_hash, None)

    async def session_by_token(self, token_hash: str) -> SessionEntry | None:
        self._expire_due()
        session = self._tokens.get(token_hash)
        entry = self._sessions.get(session) if session else None
        return dataclasses.replace(entry) if entry else None

    async def drop_session(self, session: str) -> None:
        entry = self._sessions.pop(session, None)
        self._expires.pop(session, None)
        if entry:
            self._tokens.pop(entry.token_hash, None)

    async def register_node(self, node: str, url: str, ttl: float) -> None:
        now = self._clock()
        self._nodes[node] = (url, now + ttl, now)

    async def heartbeats(self) -> dict[str, Heartbeat]:
        now = self._clock()
        return {
            node: Heartbeat(url, now - beat)
            for node, (url, until, beat) in self._nodes.items()
            if until > now
        }

    async def reserve(self, token: str, room: str, seat: int, session: str, ttl: float) -> None:
        now = self._clock()
        for old in [t for t, held in self._reservations.items() if held[3] < now]:
            del self._reservations[old]  # never taken: the client did not follow its redirect
        self._reservations[token] = (room, seat, session, now + ttl)

    async def take_reservation(self, token: str, session: str) -> tuple[str, int] | None:
        held = self._reservations.get(token)
        if held is None or held[2] != session:
            return None
        del self._reservations[token]
        if held[3] < self._clock():
            return None
        return held[0], held[1]

    async def save_match(self, room: str, header: dict[str, Any]) -> None:
        self._matches[room] = dict(header)
        self._actions[room] = []

    async def append_action(self, room: str, index: int, action: dict[str, Any]) -> None:
        log = self._actions.setdefault(room, [])
        if index == len(log):
            log.append(dict(action))

    async def load_match(self, room: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        header = self._matches.get(room)
        return (dict(header), [dict(a) for a in self._actions.get(room, [])]) if header else None

    async def rooms_of(self, node: str) -> list[str]:
        return [r.room for r in self._rooms.values() if r.node == node and r.state != "closed"]

    async def known_nodes(self) -> list[str]:
        return sorted({*self._nodes, *(r.node for r in self._rooms.values())})

    async def take_lease(self, room: str, node: str, ttl: float) -> bool:
        now = self._clock()
        holder = self._leases.get(room)
        if holder is not None and holder[1] > now and holder[0] != node:
            return False
        self._leases[room] = (node, now + ttl)
        return True

    async def move_room(self, room: str, node: str) -> None:
        self._leases.pop(room, None)
        if room in self._rooms:
            self._rooms[room].node = node

    async def release_lease(self, room: str, node: str) -> None:
        if self._leases.get(room, ("", 0.0))[0] == node:
            del self._leases[room]

    async def forget_room(self, room: str, node: str) -> None:
        """Nothing to do: the rooms of a node are read from the entries, so this one is listed nowhere."""

    def table_sizes(self) -> dict[str, int]:
        self._expire_due()
        return {
            "lobby_rooms": len(self._rooms),
            "lobby_codes": len(self._codes),
            "lobby_room_times": len(self._opened),
            "lobby_sessions": len(self._sessions),
            "lobby_tokens": len(self._tokens),
            "lobby_session_deadlines": len(self._deadlines),
            "lobby_nodes": len(self._nodes),
            "lobby_journals": len(self._matches),
            "lobby_leases": len(self._leases),
            "lobby_reservations": len(self._reservations),
        }
