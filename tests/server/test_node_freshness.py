"""When a node counts as gone for its players: from its first missed heartbeat, on every lobby.

A node's heartbeat expires ``node_ttl`` after its last beat, and only then are its
rooms adopted; between its first missed beat and that expiry it is stale: still
listed among the live nodes, but nobody is sent to it.
"""

from __future__ import annotations

import asyncio
import uuid

from cardavia.server.lobby import Heartbeat, LobbyStore
from cardavia.server.lobby_redis import RedisLobby
from tests.support.clock import Elapse
from tests.support.redis import REDIS_URL

BEAT = 0.1
"""The heartbeat interval the nodes of these tests keep."""


async def test_a_node_that_missed_a_beat_is_alive_but_not_fresh(lobby: LobbyStore, elapse: Elapse) -> None:
    await lobby.register_node("node-a", "ws://a.example/", 5.0)
    await lobby.register_node("node-b", "ws://b.example/", 5.0)
    await elapse(3 * BEAT)
    await lobby.register_node("node-b", "ws://b.example/", 5.0)  # node-a beats no more
    assert await lobby.nodes() == {"node-a": "ws://a.example/", "node-b": "ws://b.example/"}
    assert await lobby.fresh_nodes(BEAT) == {"node-b": "ws://b.example/"}
    beats = await lobby.heartbeats()
    assert 3 * BEAT <= beats["node-a"].age < 5.0
    assert beats["node-b"].age < 2 * BEAT


async def test_a_stale_node_is_fresh_again_when_it_beats(lobby: LobbyStore, elapse: Elapse) -> None:
    await lobby.register_node("node-a", "ws://a.example/", 5.0)
    await elapse(3 * BEAT)
    assert await lobby.fresh_nodes(BEAT) == {}
    await lobby.register_node("node-a", "ws://a.example/", 5.0)
    assert await lobby.fresh_nodes(BEAT) == {"node-a": "ws://a.example/"}


async def test_an_expired_heartbeat_is_neither_alive_nor_fresh(lobby: LobbyStore, elapse: Elapse) -> None:
    await lobby.register_node("node-a", "ws://a.example/", 0.05)
    await elapse(0.15)
    assert await lobby.heartbeats() == {}
    assert await lobby.fresh_nodes(10.0) == {}


def test_a_beat_is_fresh_until_two_intervals_have_passed() -> None:
    assert Heartbeat("ws://a.example/", 1.9 * BEAT).fresh(BEAT)
    assert not Heartbeat("ws://a.example/", 2.1 * BEAT).fresh(BEAT)


async def test_a_beat_that_does_not_say_its_lifetime_counts_as_fresh() -> None:
    """A node of an older version writes only its URL: it is judged by expiry alone, as before."""
    prefix = f"cardavia-test:{uuid.uuid4().hex}:"
    store = RedisLobby(REDIS_URL, prefix=prefix)
    try:
        await store.redis.set(store.node_key("node", "node-old"), "ws://old.example/", px=5000)
        await store.redis.sadd(store.node_key("nodes"), "node-old")
        await asyncio.sleep(3 * BEAT)  # three beats missed, on Redis's own clock: still fresh
        assert await store.fresh_nodes(BEAT) == {"node-old": "ws://old.example/"}
    finally:
        keys = [k async for k in store.redis.scan_iter(match=prefix + "*")]
        if keys:
            await store.redis.delete(*keys)
        await store.close()
