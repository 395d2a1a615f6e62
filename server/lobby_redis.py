"""The lobby in Redis, so that several server nodes form one service.

Theory of operation
-------------------
Each room is one JSON document (``{prefix}room:{id}``) that only Lua scripts
change when a decision is involved: claiming a seat and pairing a quick match
read the document, decide and write it back inside one script, which Redis
runs atomically, so two players can never get the same seat and a full room
never takes one more, whichever node they reached. A sorted set per game
(``{prefix}open:{game}``) lists public rooms that are waiting with a free seat,
oldest first; the scripts keep it in step with the documents. Short codes
(``{prefix}code:{CODE}``) and sessions (``{prefix}session:{id}``, found by
``{prefix}token:{hash}``) are plain keys. Keys of finished or closed rooms
expire after ``finished_ttl`` seconds. A node's heartbeat is two keys that expire together:
``{prefix}node:{id}`` (its URL: the node is alive) and ``{prefix}beat:{id}`` (the
beat's lifetime in milliseconds, so that its remaining lifetime tells how long
ago the node beat, by Redis's clock alone). Every key starts with ``prefix`` so that
several deployments can share one Redis. The scripts are files of their own in
``server/lua/``, each opening with the KEYS and ARGV it takes; the three that
decide about seats share ``seats.lua``, the same rule ``MemoryLobby`` follows.

Journal writes are committed in groups: every action any room of the node
journals during one turn of the event loop goes to Redis in one pipeline at
the end of that turn, and each room's ``append_action`` returns when its own
script has run (or raises what it met), so no delta leaves before its action
is in Redis. A room journals its actions one after another, so a room's order
is kept; a busy node sends one round trip for many rooms' actions instead of
one each (the round trip and its socket calls were most of an action's cost on
a node with a Redis lobby).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import json
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any, Final, ParamSpec, TypeVar, cast

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from cardavia.games.registry import GAMES
from cardavia.server.lobby import (
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

P = ParamSpec("P")
R = TypeVar("R")


def _guarded(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Turn Redis connection failures into ``LobbyUnavailable``, the server's one word for an outage."""

    @functools.wraps(method)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except (RedisError, OSError) as exc:
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


def _room_from(raw: str | bytes) -> RoomEntry:
    data = json.loads(raw)
    data["seats"] = [SeatEntry(**s) for s in data["seats"]]
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


class RedisLobby(LobbyStore):
    def __init__(self, url: str, *, prefix: str = "cardavia:", finished_ttl: int = 3600) -> None:
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
            # a connection left stale by a Redis restart is retried on a fresh one
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
        self.prefix = prefix
        self.finished_ttl = finished_ttl
        self._claim = self._script("claim_seat")
        self._quick = self._script("quick_match")
        self._update = self._script("update_room")
        self._append = self._script("append_action")
        self._release = self._script("release_lease")
        self._take = self._script("take_reservation")
        self._expire_session = self._script("expire_session")
        self._appends: list[tuple[str, int, str, asyncio.Future[None]]] = []
        """Journal writes of this turn of the event loop, sent together at its end."""
        self._commits: set[asyncio.Task[None]] = set()

    def _script(self, name: str) -> AsyncScript:
        """A script registered once: redis-py sends its SHA, and its source again if Redis lost it."""
        return self.redis.register_script(lua_source(name))

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def close(self) -> None:
        await self.redis.aclose()

    # ---------------------------------------------------------------- rooms
    async def create_room(self, entry: RoomEntry) -> None:
        code_key = self._key("code", normal_code(entry.code))
        if not await self.redis.set(code_key, entry.room, nx=True):
            raise ValueError("room code already taken")
        if not await self.redis.set(
            self._key("room", entry.room), json.dumps(dataclasses.asdict(entry)), nx=True
        ):
            await self.redis.delete(code_key)
            raise ValueError("room id already taken")
        await self.redis.sadd(self._key("node_rooms", entry.node), entry.room)
        if entry.public and entry.state == "waiting" and entry.human_seats_free():
            order = await self.redis.incr(self._key("seq"))
            await self.redis.zadd(self._key("open", entry.game), {entry.room: order})

    async def get_room(self, room: str) -> RoomEntry | None:
        raw = await self.redis.get(self._key("room", room))
        return _room_from(raw) if raw else None

    async def room_by_code(self, code: str) -> RoomEntry | None:
        room = await self.redis.get(self._key("code", normal_code(code)))
        return await self.get_room(_text(room)) if room else None

    async def list_open(self, game: str | None, limit: int) -> list[RoomEntry]:
        games = [game] if game else sorted(GAMES)
        found: list[tuple[float, str]] = []
        for name in games:
            members = await self.redis.zrange(self._key("open", name), 0, limit - 1, withscores=True)
            for member in members:
                room, score = cast("tuple[str, float]", member)
                found.append((score, room))
        rooms = []
        for _, room in sorted(found)[:limit]:
            entry = await self.get_room(room)
            if entry is not None:
                rooms.append(entry)
        return rooms

    async def claim_seat(self, room: str, session: str, name: str) -> int:
        entry = await self.get_room(room)
        game = entry.game if entry else "-"
        result = await self._claim(
            keys=[self._key("room", room), self._key("open", game)], args=[session, name]
        )
        if isinstance(result, str):
            raise claim_refused(result, room)
        return int(result)

    async def quick_match(self, game: str, session: str, name: str) -> tuple[str, int] | None:
        result = await self._quick(keys=[self._key("open", game)], args=[self.prefix, session, name])
        if not result:
            return None
        return str(result[0]), int(result[1])

    async def set_seat(self, room: str, seat: int, entry: SeatEntry) -> None:
        await self._apply(room, str(seat), dataclasses.asdict(entry), 0)

    async def set_state(self, room: str, state: RoomState) -> None:
        ttl = self.finished_ttl if state in ("finished", "closed") else 0
        await self._apply(room, "state", state, ttl)
        if ttl:
            entry = await self.get_room(room)
            if entry is not None:
                await self.redis.expire(self._key("code", entry.code), ttl)

    async def _apply(self, room: str, field: str, value: Any, ttl: int) -> None:
        entry = await self.get_room(room)
        if entry is None:
            return
        await self._update(
            keys=[self._key("room", room), self._key("open", entry.game), self._key("seq")],
            args=[field, json.dumps(value), ttl],
        )

    async def delete_room(self, room: str) -> None:
        entry = await self.get_room(room)
        if entry is None:
            return
        # one transaction: a room is never half gone (listed as open, or as a node's, with no entry)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(
                self._key("room", room),
                self._key("code", entry.code),
                self._key("match", room),
                self._key("actions", room),
            )
            pipe.zrem(self._key("open", entry.game), room)
            pipe.srem(self._key("node_rooms", entry.node), room)
            await pipe.execute()

    # ------------------------------------------------------------- sessions
    async def save_session(self, entry: SessionEntry, ttl: float | None = None) -> None:
        key = self._key("session", entry.session)
        old = await self.redis.get(key)
        expiry = int((LIVE_SESSION_SECONDS if ttl is None else ttl) * 1000)
        async with self.redis.pipeline(transaction=True) as pipe:
            if old:
                pipe.delete(self._key("token", json.loads(old)["token_hash"]))
            pipe.set(key, json.dumps(dataclasses.asdict(entry)), px=expiry)
            pipe.set(self._key("token", entry.token_hash), entry.session, px=expiry)
            await pipe.execute()

    async def expire_session(self, session: str, ttl: float, *, room: str | None = None) -> None:
        await self._expire_session(
            keys=[self._key("session", session)],
            args=[self._key("token", ""), max(1, int(ttl * 1000)), room or ""],
        )

    async def session_by_token(self, token_hash: str) -> SessionEntry | None:
        session = await self.redis.get(self._key("token", token_hash))
        if not session:
            return None
        raw = await self.redis.get(self._key("session", _text(session)))
        return SessionEntry(**json.loads(raw)) if raw else None

    async def drop_session(self, session: str) -> None:
        key = self._key("session", session)
        raw = await self.redis.get(key)
        if raw:
            await self.redis.delete(key, self._key("token", json.loads(raw)["token_hash"]))

    # ------------------------------------------------------------- nodes
    async def register_node(self, node: str, url: str, ttl: float) -> None:
        millis = max(1, int(ttl * 1000))
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self._key("node", node), url, px=millis)
            pipe.set(self._key("beat", node), millis, px=millis)
            pipe.sadd(self._key("nodes"), node)
            await pipe.execute()

    async def heartbeats(self) -> dict[str, Heartbeat]:
        names = sorted(_text(n) for n in await self.redis.smembers(self._key("nodes")))
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in names:
                pipe.get(self._key("node", node))
                pipe.get(self._key("beat", node))
                pipe.pttl(self._key("beat", node))
            answers = await pipe.execute()
        beats: dict[str, Heartbeat] = {}
        for i, node in enumerate(names):
            url, lifetime, left = answers[3 * i : 3 * i + 3]
            if not url:
                continue
            # a beat written without its lifetime (a node of an older version) counts as just made
            age = (int(lifetime) - int(left)) / 1000 if lifetime and int(left) >= 0 else 0.0
            beats[node] = Heartbeat(_text(url), max(0.0, age))
        return beats

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
            pipe.set(self._key("match", room), json.dumps(header))
            pipe.delete(self._key("actions", room))
            await pipe.execute()

    async def append_action(self, room: str, index: int, action: dict[str, Any]) -> None:
        """Journal one action, committed with the others of this turn (see the module's docstring)."""
        loop = asyncio.get_running_loop()
        written: asyncio.Future[None] = loop.create_future()
        if not self._appends:
            loop.call_soon(self._commit)
        self._appends.append((self._key("actions", room), index, json.dumps(action), written))
        await written

    def _commit(self) -> None:
        group, self._appends = self._appends, []
        task = asyncio.get_running_loop().create_task(self._write_group(group))
        self._commits.add(task)
        task.add_done_callback(self._commits.discard)

    async def _write_group(self, group: list[tuple[str, int, str, asyncio.Future[None]]]) -> None:
        """One pipeline for the group; each waiter gets its own script's outcome."""
        if len(group) == 1:  # alone in its turn: a plain call costs less than a pipeline
            key, index, text, written = group[0]
            _settle(written, await self._append_alone(key, index, text))
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for key, index, text, _ in group:
                    pipe.evalsha(self._append.sha, 1, key, index, text)
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

    async def _append_alone(self, key: str, index: int, text: str) -> Exception | None:
        """The journal script called alone (it loads itself into a Redis that lost it): what it raised."""
        try:
            await self._append(keys=[key], args=[index, text])
        except Exception as exc:
            return exc
        return None

    async def load_match(self, room: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        header = await self.redis.get(self._key("match", room))
        if not header:
            return None
        actions = await self.redis.lrange(self._key("actions", room), 0, -1)
        return json.loads(header), [json.loads(a) for a in actions]

    async def rooms_of(self, node: str) -> list[str]:
        return sorted(_text(r) for r in await self.redis.smembers(self._key("node_rooms", node)))

    async def known_nodes(self) -> list[str]:
        return sorted(_text(n) for n in await self.redis.smembers(self._key("nodes")))

    async def take_lease(self, room: str, node: str, ttl: float) -> bool:
        key = self._key("lease", room)
        if await self.redis.set(key, node, nx=True, px=int(ttl * 1000)):
            return True
        return _text(await self.redis.get(key) or "") == node

    async def move_room(self, room: str, node: str) -> None:
        entry = await self.get_room(room)
        if entry is None:
            return
        await self.redis.smove(self._key("node_rooms", entry.node), self._key("node_rooms", node), room)
        entry.node = node
        await self.redis.set(self._key("room", room), json.dumps(dataclasses.asdict(entry)), keepttl=True)
        await self.redis.delete(self._key("lease", room))

    async def release_lease(self, room: str, node: str) -> None:
        await self._release(keys=[self._key("lease", room)], args=[node])

    async def forget_room(self, room: str, node: str) -> None:
        if not await self.redis.exists(self._key("room", room)):
            await self.redis.srem(self._key("node_rooms", node), room)


for _name, _method in list(vars(RedisLobby).items()):
    if inspect.iscoroutinefunction(_method) and not _name.startswith("_") and _name != "close":
        setattr(RedisLobby, _name, _guarded(_method))
