"""What nearly every part of a node shares: its settings, the lobby, the archive, the per-address
limits, the metrics and the node's background tasks, handed to each part as one value.

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
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from cardavia.server.config import ServerConfig
from cardavia.server.limits import AddressLimits
from cardavia.server.lobby import LobbyStore, MemoryLobby
from cardavia.server.metrics import Metrics
from cardavia.server.store import Archive, StorageUnavailable, open_archive

log = logging.getLogger("cardavia.server")

STORAGE_PING_SECONDS: Final = 2.0
"""How often a node pings the archive's database (a trivial query) to know whether it answers."""
STORAGE_RETRY_SECONDS: Final = 5.0
"""The ``retry_after`` of a ``storage_unavailable`` refusal: a few pings' time."""


def make_lobby(config: ServerConfig) -> LobbyStore:
    """The Redis lobby when a URL is configured (one Redis, or a Redis Cluster for a
    ``redis+cluster://`` URL), else the embedded in-memory one."""
    if config.redis_url:
        from cardavia.server.lobby_redis import RedisLobby

        return RedisLobby(
            config.redis_url, prefix=config.redis_prefix, replicas_wait=config.redis_replicas_wait
        )
    return MemoryLobby()


def make_archive(config: ServerConfig) -> Archive:
    """The archive the settings name (not yet opened): ``database_url``, or the embedded SQLite
    file in ``records_dir``. ``ValueError`` (one line) for a URL no backend reads."""
    return open_archive(config.archive_url())


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
    """The node's settings, lobby, archive, limits, metrics and background tasks."""

    config: ServerConfig
    lobby: LobbyStore
    limits: AddressLimits
    metrics: Metrics
    background: Background
    archive: Archive
    """Profiles, ratings and finished matches (``server/store/``), shared by every node of a cluster."""
    lobby_reachable: bool = True
    """Whether the node's last heartbeat reached the lobby: ``/readyz`` answers from it."""
    storage_reachable: bool = True
    """Whether the archive's database answered the node's last call or ping: ``/healthz`` says
    ``degraded`` while it does not (play goes on; profile requests are refused meanwhile)."""

    def storage_failed(self) -> None:
        """A call to the archive raised ``StorageUnavailable``: the database is away until a ping
        or a later call says otherwise."""
        if self.storage_reachable:
            log.warning("event=storage_unavailable")
        self.storage_reachable = False
        self.metrics.storage_up.set(0)

    def storage_answered(self) -> None:
        """A call to the archive succeeded (or a ping was answered): the database is back."""
        if not self.storage_reachable:
            log.info("event=storage_available")
        self.storage_reachable = True
        self.metrics.storage_up.set(1)

    async def watch_storage(self, seconds: float = STORAGE_PING_SECONDS) -> None:
        """Ping the archive every ``seconds`` for as long as the node runs, so ``/healthz`` and
        ``storage_reachable`` follow the database even while nobody asks it anything."""
        while True:
            await asyncio.sleep(seconds)
            try:
                answered = await self.archive.ping()
            except StorageUnavailable:  # ping says False; a backend that raises all the same
                answered = False
            if answered:
                self.storage_answered()
            else:
                self.storage_failed()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background for as long as the node runs."""
        self.background.spawn(coro)

    async def node_to_send_to(self, node: str) -> str | None:
        """The public URL of ``node`` if a player may be redirected there now, else None.

        Only a node that has missed no heartbeat (``fresh_nodes``), and whose port does not
        refuse a connection: a node killed a moment ago still has a fresh heartbeat for up to
        ``MISSED_BEATS`` beats, but nothing listens on its port any more. Only a refusal
        counts: a connection that is not answered in time, or a URL this node cannot reach
        (behind an ingress, say), leaves the redirect to the heartbeat alone."""
        url = (await self.lobby.fresh_nodes(self.config.heartbeat_seconds)).get(node)
        if url is None or await _refuses(url):
            return None
        return url


PROBE_SECONDS: Final = 0.25
"""How long a redirect waits to learn whether the target's port refuses connections."""


async def _refuses(url: str) -> bool:
    """Whether the host and port of a node's public URL refuse a TCP connection right now."""
    parts = urlsplit(url)
    if parts.hostname is None:
        return False
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    try:
        async with asyncio.timeout(PROBE_SECONDS):
            _, writer = await asyncio.open_connection(parts.hostname, port)
    except ConnectionRefusedError:
        return True
    except (OSError, TimeoutError, ValueError):
        return False
    writer.close()
    return False
