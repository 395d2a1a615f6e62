"""The lobby's keys on a Redis Cluster: every script and transaction stays in one hash slot, and
a game's open rooms are spread over several slots, so no one master takes every room's traffic.

A Redis Cluster refuses a script or a transaction whose keys lie in several slots (CROSSSLOT,
or a script that reaches a key of another slot), so every lobby operation is called here on a
real cluster: any that broke the layout would fail with ``LobbyUnavailable``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from cardavia.server.lobby import RoomEntry, SeatEntry, SessionEntry
from cardavia.server.lobby_redis import OPEN_SHARDS, RedisLobby
from tests.support.redis import delete_keys, own_prefix


@pytest.fixture
async def lobby(redis_cluster: str) -> AsyncIterator[RedisLobby]:
    store = RedisLobby(redis_cluster, prefix=own_prefix(), finished_ttl=60)
    yield store
    await delete_keys(store.redis, store.prefix)
    await store.close()


def _room(room: str, *, node: str = "node-a") -> RoomEntry:
    return RoomEntry(
        room=room,
        code=room.upper().replace("-", ""),
        game="scopa",
        deck="bolognese",
        options={},
        public=True,
        seats=[SeatEntry(), SeatEntry()],
        humans=2,
        bot_level="basic",
        node=node,
    )


async def test_every_lobby_operation_runs_on_a_cluster(lobby: RedisLobby) -> None:
    await lobby.register_node("node-a", "ws://a.example/", 30.0)
    await lobby.register_node("node-b", "ws://b.example/", 30.0)
    assert await lobby.nodes() == {"node-a": "ws://a.example/", "node-b": "ws://b.example/"}
    rooms = [f"r-layout{n:04d}" for n in range(8)]
    for room in rooms:
        await lobby.create_room(_room(room))
    assert await lobby.claim_seat(rooms[0], "s-1", "Anna") == 0
    assert await lobby.quick_match("scopa", "s-2", "Bo") == (rooms[0], 1)  # the oldest open room
    await lobby.set_seat(rooms[1], 1, SeatEntry("bot", "Bot", None, "basic"))
    await lobby.set_state(rooms[1], "playing")
    assert [e.room for e in await lobby.list_open("scopa", 20)] == rooms[2:]

    await lobby.save_session(SessionEntry("s-1", "Anna", "hash-1", rooms[0], 0))
    await lobby.save_session(SessionEntry("s-1", "Anna", "hash-2", rooms[0], 0))  # a new token
    assert await lobby.session_by_token("hash-1") is None
    assert await lobby.session_by_token("hash-2") == SessionEntry("s-1", "Anna", "hash-2", rooms[0], 0)
    await lobby.expire_session("s-1", 30.0, room=rooms[0])
    await lobby.drop_session("s-1")
    assert await lobby.session_by_token("hash-2") is None

    await lobby.reserve("rsv-1", rooms[0], 1, "s-2", 30.0)
    assert await lobby.take_reservation("rsv-1", "s-2") == (rooms[0], 1)

    await asyncio.gather(*(lobby.save_match(room, {"room": room}) for room in rooms))
    await asyncio.gather(*(lobby.append_action(room, 0, {"seat": 0}) for room in rooms))  # one group
    for room in rooms:
        assert await lobby.load_match(room) == ({"room": room}, [{"seat": 0}])

    assert await lobby.take_lease(rooms[1], "node-b", 30.0)
    await lobby.move_room(rooms[1], "node-b")
    assert await lobby.rooms_of("node-b") == [rooms[1]]
    assert await lobby.take_lease(rooms[2], "node-b", 30.0)
    await lobby.release_lease(rooms[2], "node-b")
    await lobby.set_state(rooms[1], "finished")
    await lobby.delete_room(rooms[1])
    await lobby.forget_room(rooms[1], "node-b")
    assert await lobby.get_room(rooms[1]) is None
    assert await lobby.rooms_of("node-b") == []
    assert await lobby.known_nodes() == ["node-a", "node-b"]


async def test_a_games_open_rooms_spread_over_several_slots_and_masters(lobby: RedisLobby) -> None:
    for n in range(64):
        await lobby.create_room(_room(f"r-spread{n:04d}"))
    open_keys = [lobby.open_key(shard, "scopa") for shard in range(OPEN_SHARDS)]
    counts = [await lobby.redis.zcard(key) for key in open_keys]
    assert sum(counts) == 64
    assert sum(1 for c in counts if c) >= OPEN_SHARDS // 2  # not all in a few shards
    slots = {key_slot(key.encode()) for key, count in zip(open_keys, counts, strict=True) if count}
    assert len(slots) == sum(1 for c in counts if c)  # one slot a shard
    assert isinstance(lobby.redis, RedisCluster)
    masters = {lobby.redis.get_node_from_key(key).name for key in open_keys}
    assert len(masters) == 3  # every master holds some of them

    # and each room's document shares its shard's slot, its journal a slot of its own
    for n in range(64):
        room = f"r-spread{n:04d}"
        listed = [key for key in open_keys if await lobby.redis.zscore(key, room) is not None]
        assert len(listed) == 1
        assert key_slot(lobby.room_key(room).encode()) == key_slot(listed[0].encode())
        assert key_slot(lobby.journal_key("actions", room).encode()) == key_slot(room.encode())
