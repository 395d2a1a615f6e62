"""What nearly every part of a node shares: its settings, the lobby, the per-address limits, the
metrics and the node's background tasks, handed to each part as one value.

The parts of a node (the session table, the room keeper, the handshake, the
read loop, the request handlers, the front door, the node keeper) are given
their collaborators when the node is made, never the server itself. These few
are needed by nearly all of them, so they travel together instead of as the
same five parameters of every constructor; what only one or two parts need
(the records, the web page, the room keeper) is passed on its own. The
settings are read through this value at each use, so that new settings given
to a running node (``CardaviaServer.config``) reach every part alike.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from cardavia.server.config import ServerConfig
from cardavia.server.limits import AddressLimits
from cardavia.server.lobby import LobbyStore, MemoryLobby
from cardavia.server.metrics import Metrics


def make_lobby(config: ServerConfig) -> LobbyStore:
    """The Redis lobby when a URL is configured (one Redis, or a Redis Cluster for a
    ``redis+cluster://`` URL), else the embedded in-memory one."""
    if config.redis_url:
        from cardavia.server.lobby_redis import RedisLobby

        return RedisLobby(
            config.redis_url, prefix=config.redis_prefix, replicas_wait=config.redis_replicas_wait
        )
    return MemoryLobby()


class Background:
    """The node's background tasks (its heartbeat, the idle sweep, lobby writes nobody waits
    for): each kept referenced until it is done, so the loop does not lose it, and all
    cancelled together when the node goes down."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self) -> None:
        """Cancel every task still running."""
        for task in list(self._tasks):
            task.cancel()

    def __len__(self) -> int:
        return len(self._tasks)


@dataclass(slots=True)
class NodeServices:
    """The node's settings, lobby, limits, metrics and background tasks."""

    config: ServerConfig
    lobby: LobbyStore
    limits: AddressLimits
    metrics: Metrics
    background: Background
    lobby_reachable: bool = True
    """Whether the node's last heartbeat reached the lobby: ``/readyz`` answers from it."""

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background for as long as the node runs."""
        self.background.spawn(coro)
