"""The WebSocket server node: the shell that makes its parts, wires them together, starts them
and stops them.

Each part is given the collaborators it needs and nothing else (no part holds
the server): the session table (``sessions.py``), the rooms and their lifetime
(``rooms.py``), the ``hello`` handshake (``handshake.py``), the read loop
(``requests.py``) and its dispatch table of request handlers
(``handlers.py``), the HTTP answers and the WebSocket upgrade
(``front_door.py``), and the node's heartbeat and adoption of rooms
(``nodes.py``). Decoding and validation are the protocol package's, rules the
engines', and each room (``room.py``) owns its game. Here: start and shutdown
(the listening socket, ``wire.py``, handed the front door), and the tables
``/metrics`` reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Coroutine
from typing import Any

from cardavia import __version__
from cardavia.server.archiver import MatchArchiver
from cardavia.server.bot_runner import BotRunner
from cardavia.server.config import ServerConfig
from cardavia.server.connection import Connection
from cardavia.server.front_door import FrontDoor
from cardavia.server.gc_pacer import GcPacer
from cardavia.server.handlers import RequestHandlers
from cardavia.server.handshake import Handshake
from cardavia.server.limits import AddressLimits
from cardavia.server.lobby import LobbyStore
from cardavia.server.metrics import Metrics
from cardavia.server.nodes import NodeKeeper
from cardavia.server.profiles import ProfileHandlers
from cardavia.server.replays import Replays
from cardavia.server.requests import ErrorReplies, RequestLoop
from cardavia.server.room import Room
from cardavia.server.rooms import RoomKeeper
from cardavia.server.services import Background, NodeServices, make_archive, make_lobby
from cardavia.server.sessions import SessionKeeper
from cardavia.server.store import Archive
from cardavia.server.web_assets import WebAssets
from cardavia.server.wire import Listener

log = logging.getLogger("cardavia.server")

DRAIN_SECONDS = 5.0
"""How long a node going down waits for its match ends to reach the archive."""


class CardaviaServer:
    """One node: construct it with its configuration (and a lobby to share, in tests), then
    ``serve_forever`` (the command line) or ``start`` and ``shutdown`` (tests, embedding)."""

    def __init__(
        self, config: ServerConfig, lobby: LobbyStore | None = None, archive: Archive | None = None
    ) -> None:
        self.lobby = lobby or make_lobby(config)
        self.archive = archive or make_archive(config)
        self.metrics = Metrics()
        self.runner = BotRunner(config.bot_workers, think_seconds=self.metrics.bot_think)
        self.archiver = MatchArchiver(self.archive, keep_days=config.records_keep_days)
        self.limits = AddressLimits(
            max_connections=config.max_connections_per_ip,
            sessions_per_minute=config.sessions_per_minute,
            lookups_per_minute=config.failed_lookups_per_minute,
            codes_per_minute=config.transfer_codes_per_minute,
        )
        self._background = Background()
        shared = self.shared = NodeServices(
            config, self.lobby, self.limits, self.metrics, self._background, self.archive
        )
        self._server: Listener | None = None
        self._stopping = asyncio.Event()
        self._port = config.port
        self.web = WebAssets.load(config.web_dir, public_url=config.public_url)
        sessions = self.session_keeper = SessionKeeper(shared)
        rooms = self.room_keeper = RoomKeeper(
            shared, runner=self.runner, archiver=self.archiver, sessions=sessions
        )
        self.archiver.on_ratings = rooms.push_ratings
        self.replays = Replays(
            self.archiver,
            self.runner,
            concurrent=max(1, config.bot_workers - 1),  # a worker stays free for bots' moves
            budget=config.analysis_budget or None,
        )
        replies = ErrorReplies(shared)
        self.profiles = ProfileHandlers(shared, sessions=sessions)
        self.handlers = RequestHandlers(
            shared,
            archiver=self.archiver,
            replays=self.replays,
            sessions=sessions,
            rooms=rooms,
            replies=replies,
            profiles=self.profiles,
        )
        self.handshake = Handshake(shared, sessions=sessions, rooms=rooms.rooms, replies=replies)
        self.requests = RequestLoop(
            shared, replies=replies, hello=self.handshake.hello, dispatch=self.handlers.dispatch
        )
        self.front_door = FrontDoor(
            shared,
            web=self.web,
            sessions=sessions,
            rooms=rooms,
            receive=self.requests.receive,
            refresh_gauges=self._refresh_gauges,
        )
        self.node_keeper = NodeKeeper(
            shared, rooms=rooms, sessions=sessions, web=self.web, public_url=lambda: self.public_url
        )

    @property
    def config(self) -> ServerConfig:
        """The node's settings."""
        return self.shared.config

    @config.setter
    def config(self, config: ServerConfig) -> None:
        """New settings for a running node (a test shortens its timers): every part reads them
        from its next use on."""
        self.shared.config = config

    @property
    def rooms(self) -> dict[str, Room]:
        """The rooms this node runs, by id (the room keeper's table)."""
        return self.room_keeper.rooms

    @property
    def sessions(self) -> dict[str, Connection]:
        """Each session connected to this node: its current connection."""
        return self.session_keeper.live

    @property
    def connections(self) -> set[Connection]:
        """Every open WebSocket connection of this node."""
        return self.session_keeper.connections

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> Listener:
        """Open the archive, bind, heartbeat, take back this node's rooms from its last run, then serve.

        Until its rooms are rebuilt the node refuses connections (and /healthz),
        so nobody meets a room of its that is not there yet. A database that cannot be opened
        stops the start (``StorageUnavailable``: ``cardavia serve`` exits with code 2).
        """
        self.config.records_path().mkdir(parents=True, exist_ok=True)
        await self.archive.open()
        self._server = Listener(
            self.front_door,
            max_size=max(65536, self.config.max_frame * 4),
            ping_interval=self.config.ping_interval,
        )
        try:
            await self._server.bind(self.config.host, self.config.port)
        except BaseException:
            await self.archive.close()  # no connection left to a loop that is about to end
            raise
        self._port = self._server.port
        self.archiver.start()  # before any room is reclaimed: a finished one submits its end
        self.spawn(self.node_keeper.heartbeat())
        self.spawn(self.session_keeper.close_idle())
        self.spawn(self.shared.watch_storage())
        await self.node_keeper.reclaim_own_rooms()
        await self._server.start_serving()
        return self._server

    @property
    def listener(self) -> Listener | None:
        """The node's listening socket and its connections' wires, once ``start`` has bound it."""
        return self._server

    @property
    def port(self) -> int:
        """The port this node listens on (the real one when configured as 0)."""
        return self._port

    @property
    def public_url(self) -> str:
        """Where clients reach this node: the configured URL, else the address it really listens on."""
        return self.config.public_url or f"ws://{self.config.host}:{self.port}/"

    async def serve_forever(self) -> None:
        server = await self.start()
        # The collector is paced for the whole process, so only here and not in start():
        # a server embedded in tests or another program leaves it as it found it.
        pacer = GcPacer(
            self.config.gc_freeze_seconds, self.config.gc_full_seconds, pauses=self.metrics.gc_pause
        )
        self.spawn(pacer.run())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, self._stopping.set)
        log.info("event=serving version=%s url=%s node=%s", __version__, self.public_url, self.config.node_id)
        await self._stopping.wait()
        await self.shutdown(server)

    async def shutdown(self, server: Listener | None = None) -> None:
        """Stop accepting, tell every client with close code 1012, and end."""
        server = server or self._server
        if server is None:
            return
        self._background.cancel()  # no heartbeat or adoption while going down
        self.room_keeper.freeze()  # and no new move: once the heartbeat stops, another node may adopt
        server.close()
        self.session_keeper.close_all()
        await server.wait_closed()
        self._background.cancel()
        await self.room_keeper.close_all()  # a move under way is journaled and applied whole
        # every finished match's end reaches the archive before the process ends, unless its
        # database is away: those stay in their rooms' journals, which the next node adopts
        await self.archiver.drain(timeout=DRAIN_SECONDS)
        await self.archiver.close()
        self.runner.close()
        await self.archive.close()

    def stop(self) -> None:
        self._stopping.set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        self._background.spawn(coro)

    # ------------------------------------------------------------ metrics
    def _refresh_gauges(self) -> None:
        self.metrics.connections.set(len(self.connections))
        for table, size in self.table_sizes().items():
            self.metrics.table_size.labels(table).set(size)
        self.metrics.rooms.clear()
        counts: dict[tuple[str, str], int] = {}
        for room in self.rooms.values():
            key = (room.entry.game, room.entry.state)
            counts[key] = counts.get(key, 0) + 1
        for (game, state), count in counts.items():
            self.metrics.rooms.labels(game, state).set(count)

    def table_sizes(self) -> dict[str, int]:
        """Entries in every table this node keeps: each goes back to its idle size when play stops."""
        rooms = list(self.rooms.values())
        return {
            "rooms": len(rooms),
            "connections": len(self.connections),
            "sessions": len(self.sessions),
            "players": self.session_keeper.players,
            "spectators": sum(len(r.spectators) for r in rooms),
            "room_tasks": sum(r.task_count() for r in rooms),
            "background_tasks": len(self._background),
            "records_in_memory": self.archiver.pending,
            **self.limits.sizes(),
            **self.lobby.table_sizes(),
        }
