"""The lobby in Redis, so that several server nodes form one service: one Redis, or a Redis Cluster.

Theory of operation
-------------------
Each room is one JSON document that only Lua scripts change when a decision is
involved: claiming a seat and pairing a quick match read the document, decide
and write it back inside one script, which Redis runs atomically, so two
players can never get the same seat and a full room never takes one more,
whichever node they reached. Public rooms that are waiting with a free seat are
listed in sorted sets per game, scored by when they opened (Redis's ``TIME`` in
microseconds, so oldest first); the scripts keep them in step with the
documents. Keys of finished or closed rooms expire after ``finished_ttl``
seconds. The scripts are files of their own in ``server/lua/``, each opening
with the KEYS and ARGV it takes; the three that decide about seats share
``seats.lua``, the same rule ``MemoryLobby`` follows.

Key layout
----------
The URL's scheme chooses the client (``redis+cluster://``, ``rediss+cluster://``: redis-py's
``RedisCluster``; otherwise one Redis), and the keys are the same for both: a Redis Cluster
runs a script or a transaction only on keys of one hash slot, and a key's slot is that of its
hash tag (the part in braces) when it has one, so every multi-key script and transaction here
names keys of one tag. On one Redis the tags are just characters. ``<prefix>`` (no braces)
starts every key, so that several deployments can share one store.

- A room's lobby state lives in one of ``OPEN_SHARDS`` shards, chosen from its id
  (``room_shard``): its document ``room:{s<N>}:<id>`` and the open sets
  ``open:{s<N>}:<game>`` share the tag ``{s<N>}``, so a seat claim and the open set it
  updates are one script in one slot, and a game's open rooms spread over sixteen slots
  (sixteen masters at most). Quick match reads the oldest room of each of the game's shards
  (one pipelined read) and tries the shards oldest first until one seats the player.
- A room's journal and adoption lease carry the room's own id as tag: ``match:{<id>}``,
  ``actions:{<id>}``, ``lease:{<id>}``; an action in play touches only its room's
  ``actions`` list, so play spreads over every slot.
- Single keys, each a slot of its own: ``code:<CODE>`` (a room by its short code),
  ``node_rooms:<node>`` (the rooms a node runs), ``session:<id>`` and ``token:<hash>`` (a
  session, and the session a resume token names: a token is looked up by its hash alone, so
  the two cannot share a tag; a token is trusted only while its session names it back),
  ``reservation:<token>``.
- Heartbeats share the tag ``{nodes}``: ``node:{nodes}:<id>`` (its URL: the node is alive),
  ``beat:{nodes}:<id>`` (the beat's lifetime in milliseconds, so that its remaining
  lifetime tells how long ago the node beat, by Redis's clock alone; both expire together)
  and ``nodes:{nodes}``, every node that ever registered; one beat is one transaction, and
  every beat is read in one script (``heartbeats.lua``): each node reads them all at each beat.

What spans slots is written in an order that leaves nothing wrong if it stops half way: a
room's document and code before it is listed as a node's; a deleted room leaves its document
and open listing first (the lookups fail from then on), then the rest; a moved room joins
its new node's list before it leaves the old one's.

Journal writes are committed in groups: every action any room of the node
journals during one turn of the event loop goes to Redis in one pipeline at
the end of that turn (a cluster pipeline sends each master its part at once),
and each room's ``append_action`` returns when its own script has run (or
raises what it met), so no delta leaves before its action is in Redis. A room
journals its actions one after another, so a room's order is kept; a busy node
sends one round trip for many rooms' actions instead of one each (the round
trip and its socket calls were most of an action's cost on a node with a
Redis lobby).

A group reaches Redis's replicas before its deltas leave when ``replicas_wait`` says so
(``CARDAVIA_REDIS_REPLICAS_WAIT``, default 1): replication is asynchronous, so an action
written on a master that dies before its replica copied it would be gone after the failover,
though its player was told it was accepted. Redis's ``WAIT`` counts the replicas that hold
every write its own connection made, so each master gets its part of the group as one plain
pipeline, ``[EVALSHA ..., WAIT n 250]``, on one connection of a client of its own (the cluster
client cannot choose the connection), with ``n`` at most the replicas that master says it
has connected. A group that meets a moved slot or a dead master is sent again once on a fresh
slot map (the journal script is idempotent); what still fails, or reaches fewer replicas than asked,
raises ``LobbyUnavailable`` to its room, which keeps the action in its backlog (the game goes
on from memory, see ``Room.flush``) and writes it again. So an acknowledged action is on a
replica, or in the memory of the live node that runs its room.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import json
import logging
import zlib
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any, Final, ParamSpec, TypeVar, cast

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisClusterException, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from cardavia.games.registry import GAMES
from cardavia.server.config import CLUSTER_SCHEMES
from cardavia.server.lobby import (
    DEFAULT_RATING,
    RATING_WINDOW,
    RATING_WINDOW_GROWTH,
    Heartbeat,
    LobbyStore,
    LobbyUnavailable,
    RoomEntry,
    RoomState,
    SeatEntry,
    SessionEntry,
    claim_refused,
    normal_code,
)

log = logging.getLogger("cardavia.server")

P = ParamSpec("P")
R = TypeVar("R")


def _guarded(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Turn Redis connection failures into ``LobbyUnavailable``, the server's one word for an outage."""

    @functools.wraps(method)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except (RedisError, RedisClusterException, OSError) as exc:
            raise LobbyUnavailable(f"the lobby store cannot be reached ({type(exc).__name__})") from exc

    return call


LIVE_SESSION_SECONDS: Final = 86_400
"""A session in use carries this expiry, renewed whenever it is saved (each hello, each seat), so
that a session whose node died while it was connected does not stay in Redis for ever."""

_SCRIPTS: Final = files("cardavia.server") / "lua"
"""The lobby's Lua scripts, one a file, each opening with the KEYS and ARGV it takes."""
_SEAT_RULES: Final = ("claim_seat", "quick_match", "update_room")
"""The scripts that decide about seats: ``seats.lua``, their one rule, is loaded in front of each."""


@functools.cache
def lua_source(name: str) -> str:
    """The source of the script ``name`` as Redis runs it (with the seat rules where it uses them)."""
    source = (_SCRIPTS / f"{name}.lua").read_text(encoding="utf-8")
    if name in _SEAT_RULES:
        source = (_SCRIPTS / "seats.lua").read_text(encoding="utf-8") + "\n" + source
    return source


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _guest_arg(guest: int | None) -> str:
    """A guest number as the seat scripts take it: its digits, or '' for a player with a name."""
    return "" if guest is None else str(guest)


def _known(cls: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``data`` that ``cls`` (a dataclass) has: a document a newer node wrote, with a
    field this node does not know yet (as ``guest`` once was), still reads during a rolling upgrade."""
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in data.items() if k in names}


def _room_from(raw: str | bytes) -> RoomEntry:
    data = _known(RoomEntry, json.loads(raw))
    data["seats"] = [SeatEntry(**_known(SeatEntry, s)) for s in data["seats"]]
    for empty_map in ("options", "extra"):  # Lua's cjson writes an empty map as []
        if data.get(empty_map) == []:
            data[empty_map] = {}
    return RoomEntry(**data)


def _settle(written: asyncio.Future[None], error: Exception | None) -> None:
    """Tell a journal write's waiter its outcome, unless it stopped waiting."""
    if written.done():
        return
    if error is None:
        written.set_result(None)
    else:
        written.set_exception(error)


REPLICA_WAIT_MS: Final = 250
"""How long a journal group waits for its replicas (``WAIT``): past it, its actions are not yet
durable and stay in their rooms' backlogs, and the game goes on (a replica that is down costs each
move at most this long until its master drops it)."""

Group = list[tuple[str, int, str, asyncio.Future[None]]]
"""Journal writes committed together: (action list's key, index, action as JSON, its waiter)."""

RATED_ATTEMPTS: Final = 3
"""Rounds of a rated quick match: each reads every shard's nearest room and tries them nearest
first; only rooms taken by others meanwhile make another round necessary."""

OPEN_SHARDS: Final = 16
"""How many shards a game's open rooms are split over (see the module's docstring): each a hash
slot of its own, so on a cluster they spread over up to this many masters, while quick match
and the room list read one key per shard."""


def room_shard(room: str) -> int:
    """The shard of ``room``'s lobby state, from its id alone (any node finds it again)."""
    return zlib.crc32(room.encode()) % OPEN_SHARDS


Client = aioredis.Redis | RedisCluster


def lobby_client(url: str) -> Client:
    """The client for the lobby's URL: a Redis Cluster for ``redis+cluster://`` and
    ``rediss+cluster://`` (any one node of it; the client learns the others), else one Redis."""
    options: dict[str, Any] = {
        "decode_responses": True,
        "socket_timeout": 2.0,
        "socket_connect_timeout": 2.0,
        # a connection left stale by a Redis restart is retried on a fresh one
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
        "retry_on_error": [RedisConnectionError, RedisTimeoutError],
    }
    scheme, _, rest = url.partition("://")
    if scheme in CLUSTER_SCHEMES:
        return RedisCluster.from_url(scheme.removesuffix("+cluster") + "://" + rest, **options)
    return aioredis.Redis.from_url(url, **options)


async def cluster_answers(url: str) -> str | None:
    """Why the Redis Cluster at ``url`` cannot serve a lobby now (no node answers, or the
    cluster has a slot no master serves), or None when it can: ``cardavia serve`` asks before
    it starts, since a node on a cluster must learn the slot map from it before it can place
    a key, and a cluster that answers nothing at start is most often a wrong address."""
    client = lobby_client(url)
    try:
        if not isinstance(client, RedisCluster):
            return None
        await client.initialize()
        info = await client.cluster_info(target_nodes=RedisCluster.RANDOM)
        state = info.get("cluster_state") if isinstance(info, dict) else None
        return None if state in ("ok", None) else f"the cluster's state is {state}"
    except (RedisError, RedisClusterException, OSError) as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    finally:
        await client.aclose()


class RedisLobby(LobbyStore):
    def __init__(
        self, url: str, *, prefix: str = "cardavia:", finished_ttl: int = 3600, replicas_wait: int = 0
    ) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError(f"a Redis key prefix must not hold braces (a hash tag), not {prefix!r}")
        self.redis: Client = lobby_client(url)
        self.prefix = prefix
        self.finished_ttl = finished_ttl
        self._claim = self._script("claim_seat")
        self._quick = self._script("quick_match")
        self._update = self._script("update_room")
        self._append = self._script("append_action")
        self._release = self._script("release_lease")
        self._take = self._script("take_reservation")
        self._expire_session = self._script("expire_session")
        self._beats = self._script("heartbeats")
        self._appends: Group = []
        """Journal writes of this turn of the event loop, sent together at its end."""
        self._commits: set[asyncio.Task[None]] = set()
        self.replicas_wait = replicas_wait
        """Replicas a journal group waits for (see the module's docstring); 0: none."""
        self._masters: dict[str, aioredis.Redis] = {}
        """A plain client per master of a cluster, for journal groups that wait for replicas."""
        self._replicas: dict[str, int] = {}
        """The replicas each master has connected, by its address (see ``_replicas_of``)."""

    def _script(self, name: str) -> AsyncScript:
        """A script registered once: redis-py sends its SHA, and its source again if Redis lost it."""
        return self.redis.register_script(lua_source(name))

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # ------------------------------------------------------------- the key layout
    def room_key(self, room: str) -> str:
        """A room's document, in its shard's slot."""
        return self._key("room", f"{{s{room_shard(room)}}}", room)

    def open_key(self, shard: int, game: str) -> str:
        """The open rooms of ``game`` in one shard."""
        return self._key("open", f"{{s{shard}}}", game)

    def _open_of(self, room: str, game: str) -> str:
        return self.open_key(room_shard(room), game)

    def journal_key(self, kind: str, room: str) -> str:
        """A room's own keys (``kind``: match, actions, lease), tagged with its id."""
        return self._key(kind, f"{{{room}}}")

    def node_key(self, kind: str, node: str = "") -> str:
        """A heartbeat's keys (``kind``: node, beat; or nodes, the registry), all in one slot."""
        return self._key(kind, "{nodes}", node) if node else self._key(kind, "{nodes}")

    async def close(self) -> None:
        for master in self._masters.values():
            await master.aclose()
        await self.redis.aclose()

    # ---------------------------------------------------------------- rooms
    async def create_room(self, entry: RoomEntry) -> None:
        code_key = self._key("code", normal_code(entry.code))
        if not await self.redis.set(code_key, entry.room, nx=True):
            raise ValueError("room code already taken")
        if not await self.redis.set(
            self.room_key(entry.room), json.dumps(dataclasses.asdict(entry)), nx=True
        ):
            await self.redis.delete(code_key)
            raise ValueError("room id already taken")
        await self.redis.sadd(self._key("node_rooms", entry.node), entry.room)
        if entry.public and entry.state == "waiting" and entry.human_seats_free():
            await self._write(entry.room, entry.game, "state", entry.state, 0)  # lists it, by Redis's clock

    async def get_room(self, room: str) -> RoomEntry | None:
        raw = await self.redis.get(self.room_key(room))
        return _room_from(raw) if raw else None

    async def room_by_code(self, code: str) -> RoomEntry | None:
        room = await self.redis.get(self._key("code", normal_code(code)))
        return await self.get_room(_text(room)) if room else None

    async def _oldest(self, games: list[str], limit: int) -> list[tuple[float, str, int]]:
        """Up to ``limit`` open rooms of each shard of ``games``: (when it opened, room, shard)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game in games:
                for shard in range(OPEN_SHARDS):
                    pipe.zrange(self.open_key(shard, game), 0, limit - 1, withscores=True)
            answers = await pipe.execute()
        found = []
        for i, members in enumerate(answers):
            for member in members:
                room, score = cast("tuple[str, float]", member)
                found.append((score, room, i % OPEN_SHARDS))
        return sorted(found)

    async def list_open(self, game: str | None, limit: int) -> list[RoomEntry]:
        oldest = (await self._oldest([game] if game else sorted(GAMES), limit))[:limit]
        if not oldest:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for _, room, _ in oldest:
                pipe.get(self.room_key(room))
            found = await pipe.execute()
        return [_room_from(raw) for raw in found if raw]

    async def claim_seat(self, room: str, session: str, name: str, guest: int | None = None) -> int:
        entry = await self.get_room(room)
        game = entry.game if entry else "-"
        result = await self._claim(
            keys=[self.room_key(room), self._open_of(room, game)], args=[session, name, _guest_arg(guest)]
        )
        if isinstance(result, str):
            raise claim_refused(result, room)
        return int(result)

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
        shards = list(dict.fromkeys(shard for _, _, shard in await self._oldest([game], 1)))  # oldest first
        if not rated:
            for shard in shards:
                result = await self._quick_in(
                    shard, game, session, name, rated=False, rating=None, mode="", guest=guest
                )
                if result:
                    return str(result[0]), int(result[1])
            return None
        # rated: the nearest room of every shard, then a seat in the nearest of those; a room
        # taken meanwhile by someone else is passed over and the next nearest tried
        for _ in range(RATED_ATTEMPTS):
            peeks = await asyncio.gather(  # every shard at once: one round trip, not sixteen
                *(
                    self._quick_in(
                        shard, game, session, name, rated=True, rating=rating, mode="peek", guest=guest
                    )
                    for shard in shards
                )
            )
            nearest = [
                (float(peeked[1]), order, shard, str(peeked[0]))
                for order, (shard, peeked) in enumerate(zip(shards, peeks, strict=True))
                if peeked
            ]
            if not nearest:
                return None
            for _, _, shard, room in sorted(nearest):
                result = await self._quick_in(
                    shard, game, session, name, rated=True, rating=rating, mode=room, guest=guest
                )
                if result:
                    return str(result[0]), int(result[1])
        return None

    async def _quick_in(
        self,
        shard: int,
        game: str,
        session: str,
        name: str,
        *,
        rated: bool,
        rating: float | None,
        mode: str,
        guest: int | None = None,
    ) -> list[Any] | None:
        """``quick_match.lua`` on one shard of ``game``'s open rooms (its ARGV explains ``mode``)."""
        doc_prefix = self._key("room", f"{{s{shard}}}", "")
        args = [
            doc_prefix,
            session,
            name,
            "1" if rated else "0",
            repr(float(DEFAULT_RATING if rating is None else rating)),
            repr(RATING_WINDOW),
            repr(RATING_WINDOW_GROWTH),
            mode,
            _guest_arg(guest),
        ]
        result = await self._quick(keys=[self.open_key(shard, game)], args=args)
        return list(result) if result else None

    async def set_seat(self, room: str, seat: int, entry: SeatEntry) -> None:
        await self._apply(room, str(seat), dataclasses.asdict(entry), 0)

    async def set_state(self, room: str, state: RoomState) -> None:
        ttl = self.finished_ttl if state in ("finished", "closed") else 0
        entry = await self._apply(room, "state", state, ttl)
        if ttl and entry is not None:
            await self.redis.expire(self._key("code", entry.code), ttl)

    async def _apply(self, room: str, field: str, value: Any, ttl: int) -> RoomEntry | None:
        """Change one field of the room's document (``update_room.lua``); the entry as it was."""
        entry = await self.get_room(room)
        if entry is not None:
            await self._write(room, entry.game, field, value, ttl)
        return entry

    async def _write(self, room: str, game: str, field: str, value: Any, ttl: int) -> None:
        await self._update(
            keys=[self.room_key(room), self._open_of(room, game)], args=[field, json.dumps(value), ttl]
        )

    async def delete_room(self, room: str) -> None:
        entry = await self.get_room(room)
        if entry is None:
            return
        # the document and its listing go together (one slot), so no lookup finds half a room;
        # what is left (code, journal, the node's list) then goes in one round trip per master
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self.room_key(room))
            pipe.zrem(self._open_of(room, entry.game), room)
            await pipe.execute()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self._key("code", entry.code))
            pipe.delete(self.journal_key("match", room), self.journal_key("actions", room))
            pipe.srem(self._key("node_rooms", entry.node), room)
            await pipe.execute()

    # ------------------------------------------------------------- sessions
    async def save_session(self, entry: SessionEntry, ttl: float | None = None) -> None:
        key = self._key("session", entry.session)
        old = await self.redis.get(key)
        expiry = int((LIVE_SESSION_SECONDS if ttl is None else ttl) * 1000)
        old_token = json.loads(old)["token_hash"] if old else entry.token_hash
        # two slots, written in order: a new token only counts once its session names it back
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key("token", entry.token_hash), entry.session, px=expiry)
            pipe.set(key, json.dumps(dataclasses.asdict(entry)), px=expiry)
            if old_token != entry.token_hash:
                pipe.delete(self._key("token", old_token))
            await pipe.execute()

    async def expire_session(self, session: str, ttl: float, *, room: str | None = None) -> None:
        millis = max(1, int(ttl * 1000))
        token_hash = await self._expire_session(
            keys=[self._key("session", session)], args=[millis, room or ""]
        )
        if token_hash:
            await self.redis.pexpire(self._key("token", _text(token_hash)), millis)

    async def session_by_token(self, token_hash: str) -> SessionEntry | None:
        session = await self.redis.get(self._key("token", token_hash))
        if not session:
            return None
        raw = await self.redis.get(self._key("session", _text(session)))
        entry = SessionEntry(**_known(SessionEntry, json.loads(raw))) if raw else None
        return entry if entry is not None and entry.token_hash == token_hash else None

    async def drop_session(self, session: str) -> None:
        key = self._key("session", session)
        raw = await self.redis.get(key)
        if raw:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.delete(key)
                pipe.delete(self._key("token", json.loads(raw)["token_hash"]))
                await pipe.execute()

    # ------------------------------------------------------------- nodes
    async def register_node(self, node: str, url: str, ttl: float) -> None:
        millis = max(1, int(ttl * 1000))
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self.node_key("node", node), url, px=millis)
            pipe.set(self.node_key("beat", node), millis, px=millis)
            pipe.sadd(self.node_key("nodes"), node)
            await pipe.execute()

    async def heartbeats(self) -> dict[str, Heartbeat]:
        flat = await self._beats(keys=[self.node_key("nodes")], args=[self.prefix])
        beats: dict[str, Heartbeat] = {}
        for i in range(0, len(flat), 4):
            node, url, lifetime, left = flat[i : i + 4]
            # a beat written without its lifetime (a node of an older version) counts as just made
            age = (int(lifetime) - int(left)) / 1000 if lifetime and int(left) >= 0 else 0.0
            beats[str(node)] = Heartbeat(str(url), max(0.0, age))
        return dict(sorted(beats.items()))

    async def reserve(self, token: str, room: str, seat: int, session: str, ttl: float) -> None:
        value = json.dumps([room, seat, session])
        await self.redis.set(self._key("reservation", token), value, px=int(ttl * 1000))

    async def take_reservation(self, token: str, session: str) -> tuple[str, int] | None:
        raw = await self._take(keys=[self._key("reservation", token)], args=[session])
        if not raw:
            return None
        room, seat, _ = json.loads(raw)
        return str(room), int(seat)

    # ------------------------------------------------------------ journals
    async def save_match(self, room: str, header: dict[str, Any]) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self.journal_key("match", room), json.dumps(header))
            pipe.delete(self.journal_key("actions", room))
            await pipe.execute()

    async def append_action(self, room: str, index: int, action: dict[str, Any]) -> None:
        """Journal one action, committed with the others of this turn (see the module's docstring)."""
        loop = asyncio.get_running_loop()
        written: asyncio.Future[None] = loop.create_future()
        if not self._appends:
            loop.call_soon(self._commit)
        self._appends.append((self.journal_key("actions", room), index, json.dumps(action), written))
        await written

    def _commit(self) -> None:
        group, self._appends = self._appends, []
        task = asyncio.get_running_loop().create_task(self._write_group(group))
        self._commits.add(task)
        task.add_done_callback(self._commits.discard)

    async def _write_group(self, group: Group) -> None:
        """One pipeline for the group; each waiter gets its own script's outcome."""
        if self.replicas_wait:
            await self._write_replicated(group)
            return
        if len(group) == 1:  # alone in its turn: a plain call costs less than a pipeline
            key, index, text, written = group[0]
            _settle(written, await self._append_alone(key, index, text))
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, index, text, _ in group:
                    # the command itself: redis-py's cluster pipeline refuses its evalsha method, which
                    # could not reload a script a master lost (NoScriptError is handled below)
                    pipe.execute_command("EVALSHA", self._append.sha, 1, key, index, text)
                results = await pipe.execute(raise_on_error=False)
        except BaseException as exc:  # the whole group failed (an outage): every waiter is told
            for *_, written in group:
                _settle(written, exc if isinstance(exc, Exception) else LobbyUnavailable(repr(exc)))
            if not isinstance(exc, Exception):
                raise
            return
        for (key, index, text, written), result in zip(group, results, strict=True):
            error = result if isinstance(result, Exception) else None
            if isinstance(error, NoScriptError) and not written.done():  # Redis restarted
                error = await self._append_alone(key, index, text)
            _settle(written, error)

    async def _write_replicated(self, group: Group) -> None:
        """The group on each master with ``WAIT`` behind it; sent again once on a fresh slot map
        where a slot moved or a master failed (see the module's docstring)."""
        pending = group
        for attempt in (1, 2):
            failed: Group = []
            try:
                parts = await self._by_master(pending)
                outcomes = await asyncio.gather(*(self._commit_on(*part[1:]) for part in parts))
                done = [(p[0], p[3], errors) for p, errors in zip(parts, outcomes, strict=True)]
            except (RedisError, RedisClusterException, OSError) as exc:  # no slot map: nothing sent
                done = [("unknown", pending, [exc] * len(pending))]
            for shard, items, errors in done:
                shown = next((e for e in errors if e is not None), None)
                if shown is not None:  # a master that failed over, or is gone with the whole store
                    log.warning(
                        "event=journal_write_failed shard=%s actions=%s attempt=%s error=%s",
                        shard, len(items), attempt, type(shown).__name__,
                    )  # fmt: skip
                for item, error in zip(items, errors, strict=True):
                    if error is None or attempt == 2:
                        _settle(item[3], error)
                    else:
                        failed.append(item)
            if not failed:
                return
            pending = failed
            await self._refresh_topology()

    async def _by_master(self, group: Group) -> list[tuple[str, aioredis.Redis, int, Group]]:
        """The group split by the master that holds each key: its address, its client, the
        replicas to wait for, its part."""
        if not isinstance(self.redis, RedisCluster):
            return [("redis", self.redis, await self._replicas_of("redis", self.redis), group)]
        if not self.redis.nodes_manager.slots_cache:
            await self.redis.initialize()
        parts: dict[str, tuple[str, aioredis.Redis, int, Group]] = {}
        for item in group:
            nodes = self.redis.nodes_manager.slots_cache.get(self.redis.keyslot(item[0]))
            if not nodes:
                raise RedisClusterException(f"no master holds the slot of {item[0]}")
            master = nodes[0]
            if master.name not in self._masters:
                pool = aioredis.ConnectionPool(
                    connection_class=master.connection_class, **master.connection_kwargs
                )
                self._masters[master.name] = aioredis.Redis(connection_pool=pool)
            if master.name not in parts:
                client = self._masters[master.name]
                parts[master.name] = (master.name, client, await self._replicas_of(master.name, client), [])
            parts[master.name][3].append(item)
        return list(parts.values())

    async def _replicas_of(self, name: str, client: aioredis.Redis) -> int:
        """The replicas a group waits for on one master: ``replicas_wait``, at most as many as it
        has connected (``INFO replication``, asked once and again after a failed group; redis-py's
        slot map lists no replicas unless it reads from them)."""
        if name not in self._replicas:
            info = await client.info("replication")
            self._replicas[name] = int(info.get("connected_slaves", 0))
        return min(self.replicas_wait, self._replicas[name])

    async def _commit_on(self, client: aioredis.Redis, replicas: int, items: Group) -> list[Exception | None]:
        """One master's part of a group and ``WAIT`` on one connection: each item's error, if any."""
        for reload in (False, True):
            try:
                async with client.pipeline(transaction=False) as pipe:
                    for key, index, text, _ in items:
                        pipe.evalsha(self._append.sha, 1, key, index, text)
                    if replicas:
                        pipe.wait(replicas, REPLICA_WAIT_MS)
                    results = await pipe.execute(raise_on_error=False)
            except (RedisError, OSError) as exc:
                return [exc] * len(items)
            if reload or not any(isinstance(r, NoScriptError) for r in results):
                break
            try:  # Redis restarted and lost the script
                await client.script_load(lua_source("append_action"))
            except (RedisError, OSError) as exc:
                return [exc] * len(items)
        errors: list[Exception | None] = [r if isinstance(r, Exception) else None for r in results]
        if replicas:
            reached = errors.pop()
            if reached is None and int(results[-1]) < replicas:
                reached = LobbyUnavailable(
                    f"a journal write reached {results[-1]} of {replicas} replicas in {REPLICA_WAIT_MS} ms"
                )
            errors = [error or reached for error in errors]
        return errors

    async def _refresh_topology(self) -> None:
        """Read again which master holds which slots (a failover moved some) or how many replicas
        one Redis has."""
        self._replicas.clear()
        if isinstance(self.redis, RedisCluster):
            try:
                await self.redis.nodes_manager.initialize()
            except (RedisError, RedisClusterException, OSError) as exc:
                log.warning("event=lobby_topology_unknown error=%s", type(exc).__name__)

    async def _append_alone(self, key: str, index: int, text: str) -> Exception | None:
        """The journal script called alone (it loads itself into a Redis that lost it): what it raised."""
        try:
            await self._append(keys=[key], args=[index, text])
        except Exception as exc:
            return exc
        return None

    async def load_match(self, room: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        header = await self.redis.get(self.journal_key("match", room))
        if not header:
            return None
        actions = await self.redis.lrange(self.journal_key("actions", room), 0, -1)
        return json.loads(header), [json.loads(a) for a in actions]

    async def rooms_of(self, node: str) -> list[str]:
        return sorted(_text(r) for r in await self.redis.smembers(self._key("node_rooms", node)))

    async def known_nodes(self) -> list[str]:
        return sorted(_text(n) for n in await self.redis.smembers(self.node_key("nodes")))

    async def take_lease(self, room: str, node: str, ttl: float) -> bool:
        key = self.journal_key("lease", room)
        if await self.redis.set(key, node, nx=True, px=int(ttl * 1000)):
            return True
        return _text(await self.redis.get(key) or "") == node

    async def move_room(self, room: str, node: str) -> None:
        entry = await self.get_room(room)
        if entry is None:
            return
        # listed under the new node before the old one lets go: a room is never nobody's
        await self.redis.sadd(self._key("node_rooms", node), room)
        await self._write(room, entry.game, "node", node, 0)
        if entry.node != node:
            await self.redis.srem(self._key("node_rooms", entry.node), room)
        await self.redis.delete(self.journal_key("lease", room))

    async def release_lease(self, room: str, node: str) -> None:
        await self._release(keys=[self.journal_key("lease", room)], args=[node])

    async def forget_room(self, room: str, node: str) -> None:
        if not await self.redis.exists(self.room_key(room)):
            await self.redis.srem(self._key("node_rooms", node), room)


for _name, _method in list(vars(RedisLobby).items()):
    if inspect.iscoroutinefunction(_method) and not _name.startswith("_") and _name != "close":
        setattr(RedisLobby, _name, _guarded(_method))
