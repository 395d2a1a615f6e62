"""Two nodes on one lobby in Redis (a cluster in one process), and what a client does when one
sends it to the other."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import LobbyStore
from cardavia.server.lobby_redis import RedisLobby
from tests.support.clients import Client, client
from tests.support.redis import REDIS_URL, delete_keys, own_prefix
from tests.support.waiting import wait_until


@contextlib.asynccontextmanager
async def two_nodes(
    config: ServerConfig, redis_url: str = REDIS_URL
) -> AsyncIterator[tuple[CardaviaServer, CardaviaServer]]:
    """Nodes a and b with ``config``, on the Redis (or Redis Cluster) at ``redis_url`` under a
    key prefix of their own (removed afterwards), once both heartbeats are in."""
    prefix = own_prefix()
    servers = []
    for node in ("node-a", "node-b"):
        srv = CardaviaServer(
            dataclasses.replace(config, redis_url=redis_url, redis_prefix=prefix, node_id=node)
        )
        await srv.start()
        servers.append(srv)
    await wait_until(lambda: both_beat(servers[0].lobby), "both nodes' heartbeats", timeout=2.0)
    try:
        yield servers[0], servers[1]
    finally:
        await _stop(servers, prefix)


async def _stop(servers: list[CardaviaServer], prefix: str) -> None:
    for srv in servers:
        await srv.shutdown()
    lobby = servers[0].lobby
    assert isinstance(lobby, RedisLobby)
    await delete_keys(lobby.redis, prefix)
    for srv in servers:
        assert isinstance(srv.lobby, RedisLobby)
        await srv.lobby.close()


async def both_beat(lobby: LobbyStore) -> bool:
    """Whether two nodes' heartbeats are in ``lobby``."""
    return len(await lobby.nodes()) == 2


async def stale(lobby: LobbyStore, node: str, beat: float) -> bool:
    """Whether ``node`` has missed its beats (of ``beat`` seconds) as ``lobby`` sees it."""
    return node not in await lobby.fresh_nodes(beat)


def node_url(srv: CardaviaServer) -> str:
    return f"ws://127.0.0.1:{srv.port}/"


async def follow(redirected: Client, redirect: m.Redirect) -> Client:
    """What a client does with a redirect: connect to the named node, resume, join with the reservation."""
    moved = await client(redirect.url, redirected.name)
    await moved.hello(resume=redirected.resume)
    await moved.send(m.JoinRoom(id=99, room=redirect.room, reservation=redirect.reservation))
    return moved


async def redirected(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> tuple[Client, m.Snapshot, Client, m.Redirect]:
    """Anna makes a Briscola room for two on node a; Bo, on node b, joins it by code and is sent there."""
    a, b = nodes
    anna = await client(node_url(a))
    await anna.hello()
    await anna.send(anna.req.create_room("briscola", humans=2, bot_level="random"))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    bo = await client(node_url(b), "Bo")
    await bo.hello()
    await bo.send(bo.req.join(code=made.room.code))
    redirect: m.Redirect = await bo.expect(m.Redirect)
    return anna, made, bo, redirect
