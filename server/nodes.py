"""Node liveness and room adoption: the heartbeat, leases, reclaim before serving, re-registration.

Theory of operation. A room runs on exactly one node, and the lobby lists it
under that node's id (``RoomEntry.node``). Every ``heartbeat_seconds`` a node
writes its heartbeat (``register_node``: alive, and reachable at its public
URL, for the next ``node_ttl`` seconds), catches up its rooms' journals, and
looks for rooms listed under nodes that have no heartbeat any more.

Adoption. Each orphaned room has a lease in the lobby (``take_lease``, held
for ``LEASE_SECONDS``): of all the live nodes that try, exactly one wins it.
The list of a node's rooms may be older than the lease, so the winner reads
the room's entry again and leaves the room (releasing the lease) if it has
moved meanwhile or its node is alive again. Otherwise it replays the room's
journal through the engine (``Room.restore``) and moves the room to itself,
which ends the lease at once, so that if the adopter dies too the next node
need not wait for it. A room whose entry has expired is dropped from the dead
node's list, a room that never started (no journal) is deleted, and a
finished one closes after its grace period as on the node that ran it. A
journal that does not replay is logged and skipped; its lease runs out.

Adoption timing. A killed node's rooms wait out its heartbeat's expiry (``node_ttl``, 1.5 s:
three beats, so a node whose loop stalls for two keeps its rooms), not a heartbeat more: a node
that sees another one stale (``Heartbeat.fresh``) looks again the moment that heartbeat expires,
by Redis's clock. From kill to the room played elsewhere is then at most ``node_ttl`` plus the
replay (about 1.5 s measured). The cost to Redis is one beat every ``heartbeat_seconds`` per node,
plus a few looks per node that dies. After a lobby failure a node adopts nothing until every live
node has had time to beat again (their retry pause, then ``node_ttl``): an outage, or the
failover of the heartbeats' master, may have let every beat expire, and the live nodes' rooms
are not orphans.

Reclaim before serving. A node restarted under the same id (a rolling
update) may come back before the others notice its heartbeat stopped, and
then nobody adopts its rooms. So ``CardaviaServer.start`` binds the port,
starts the heartbeat and rebuilds every room the lobby still lists under this
node's id before it accepts a connection. It takes each room's lease like an
adopter; while another node holds that lease it waits, and a room that node
moved meanwhile stays there. Because this node's heartbeat is already in the
lobby, a node that wins one of those leases later sees the owner alive and
lets the room go.

Re-registration. While the lobby is unreachable games go on in memory, and
the heartbeat retries with a pause that doubles up to eight heartbeats. When
the lobby answers again the node writes back the rooms the lobby lacks, every
room's journal and its players' sessions, in case the store came back empty;
a reclaim that the outage postponed at start-up runs then.

A node going down (``CardaviaServer.shutdown``) first stops its heartbeat and
freezes its rooms (no new move starts; one under way completes, journal
first), since once the heartbeat expires another node may adopt them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from cardavia.server.lobby import Heartbeat, LobbyUnavailable
from cardavia.server.rooms import RoomKeeper
from cardavia.server.services import NodeServices
from cardavia.server.sessions import SessionKeeper
from cardavia.server.web_assets import WebAssets

log = logging.getLogger("cardavia.server")

EXPIRY_MARGIN = 0.02
"""Seconds past a stale node's expiry at which the others look again: its heartbeat is gone."""

BACKOFF_BEATS = 8
"""While the lobby is unreachable a node retries its heartbeat with a pause that doubles up to
this many heartbeats."""

LEASE_SECONDS = 30.0
"""How long a node may take to rebuild a room it won the lease on before another node may try."""


class NodeKeeper:
    """Keeps one server's node alive in the lobby and brings rooms to it: its own after a restart,
    and those of nodes that died."""

    def __init__(
        self,
        shared: NodeServices,
        *,
        rooms: RoomKeeper,
        sessions: SessionKeeper,
        web: WebAssets,
        public_url: Callable[[], str],
    ) -> None:
        self._shared = shared
        self._keeper = rooms
        self._sessions = sessions
        self._web = web
        self._public_url = public_url
        """Where clients reach this node, known once it listens: what its heartbeat advertises."""
        self.reclaimed = (
            False  # this node's rooms from its last run are back (the lobby may be down at start)
        )
        self._reclaiming = asyncio.Lock()
        self._steady_since: float | None = None
        """When this node's heartbeats last began to reach the lobby without a failure: it adopts
        nothing until every live node has had time to beat again (see ``_steady``)."""
        self._outage_seen = False
        """Whether the lobby ever failed this node: then the others may be in their retry pause."""

    async def heartbeat(self) -> None:
        """Tell the lobby this node is alive, catch up journals, and adopt rooms of nodes that died.

        While the lobby is unreachable the node retries with a growing pause; when
        it answers again, the node writes back its rooms, players and journals, in
        case the store came back empty.
        """
        failures = 0
        wait = self._shared.config.heartbeat_seconds
        while True:
            began = time.monotonic()
            try:
                await self._shared.lobby.register_node(
                    self._shared.config.node_id, self._public_url(), self._shared.config.node_ttl
                )
                if failures:
                    await self._reregister()
                    log.info(
                        "event=lobby_back node=%s after_failures=%s", self._shared.config.node_id, failures
                    )
                failures = 0
                self._shared.lobby_reachable = True
                if self._steady_since is None:
                    self._steady_since = time.monotonic()
                for room in list(self._keeper.rooms.values()):
                    try:
                        await room.flush()
                    except LobbyUnavailable:
                        raise
                    except Exception:  # one room's fault must not stop the heartbeat of all
                        log.exception("event=journal_flush_failed room=%s", room.id)
                if not self.reclaimed and not self._reclaiming.locked():  # the lobby was down at start
                    await self.reclaim_own_rooms()
                beats = await self._shared.lobby.heartbeats()
                alive = {other: beat.url for other, beat in beats.items()}
                node = self._shared.config.node_id  # the page may follow redirects to the others
                self._web.set_peers(url for other, url in alive.items() if other != node)
                if self._steady():
                    await self._adopt_orphans(alive)
                wait = self._next_look(beats)
            except LobbyUnavailable as exc:  # games go on in memory
                failures += 1
                self._shared.lobby_reachable = False
                self._steady_since = None
                self._outage_seen = True
                log.warning(
                    "event=lobby_unreachable node=%s failures=%s error=%s",
                    self._shared.config.node_id,
                    failures,
                    exc,
                )
            pause = self._shared.config.heartbeat_seconds * min(2 ** max(failures - 1, 0), BACKOFF_BEATS)
            # counted from the start of this round, not its end: the others judge a node by its
            # beat's age, and a round slowed by its flushes and adoptions must not age the next beat
            due = began + (min(pause, wait) if not failures else pause)
            await asyncio.sleep(max(due - time.monotonic(), 0.0))

    def _steady(self) -> bool:
        """Whether this node may adopt: its heartbeats have reached the lobby for as long as any
        live node may take to beat again (``node_ttl``; after the lobby failed, for them too
        perhaps, their retry pause first). Right after a lobby outage, or a failover of the
        heartbeats' master, every beat may have expired; a node that adopted then would take
        live nodes' rooms."""
        return self._steady_since is not None and time.monotonic() - self._steady_since >= self._settle()

    def _settle(self) -> float:
        config = self._shared.config
        return config.node_ttl + (BACKOFF_BEATS * config.heartbeat_seconds if self._outage_seen else 0.0)

    def _next_look(self, beats: dict[str, Heartbeat]) -> float:
        """Seconds until this node should look for orphans again: at the next heartbeat, or as
        soon as a node that has missed its beats expires (its rooms are adopted then, not up to a
        heartbeat later), or when this node becomes steady."""
        config = self._shared.config
        soonest = config.heartbeat_seconds
        for other, beat in beats.items():
            if other != config.node_id and not beat.fresh(config.heartbeat_seconds):
                soonest = min(soonest, config.node_ttl - beat.age + EXPIRY_MARGIN)
        if self._steady_since is not None and not self._steady():
            soonest = min(soonest, self._steady_since + self._settle() - time.monotonic())
        return max(soonest, EXPIRY_MARGIN)

    async def _reregister(self) -> None:
        """Write this node's rooms, their journals and its players' sessions back into the lobby."""
        lobby = self._shared.lobby
        for room in list(self._keeper.rooms.values()):
            if await lobby.get_room(room.id) is None:
                await lobby.create_room(room.entry.copy())
                if room.entry.state != "waiting":
                    await lobby.set_state(room.id, room.entry.state)
            await room.rejournal()
        for conn in list(self._sessions.connections):
            if conn.session:
                seat_room = conn.room.id if conn.room is not None else None
                await lobby.save_session(conn.session_entry(seat_room, conn.seat))

    async def _adopt_orphans(self, alive: dict[str, str]) -> None:
        """Rebuild here the rooms of nodes whose heartbeat stopped (those not ``alive``); a lease
        makes one node win each."""
        lobby = self._shared.lobby
        for node in await lobby.known_nodes():
            if node in alive or node == self._shared.config.node_id:
                continue
            for room_id in await lobby.rooms_of(node):
                if room_id in self._keeper.rooms or not await lobby.take_lease(
                    room_id, self._shared.config.node_id, LEASE_SECONDS
                ):
                    continue
                await self._adopt(room_id, node)

    async def reclaim_own_rooms(self) -> None:
        """Rebuild the rooms the lobby still lists under this node's id (before serving).

        A node restarted under the same id (a rolling update) may come back before
        the others see its heartbeat stop, and then nobody else adopts its rooms. Its
        heartbeat goes into the lobby first, so a node that takes one of their leases
        later sees it alive and leaves the room; one that took a lease earlier holds
        it, and this node waits for it: a room that node moved stays there.
        """
        lobby = self._shared.lobby
        node = self._shared.config.node_id
        async with self._reclaiming:
            try:
                await lobby.register_node(node, self._public_url(), self._shared.config.node_ttl)
                for room_id in await lobby.rooms_of(node):
                    if room_id not in self._keeper.rooms and await self._wait_for_lease(room_id):
                        await self._adopt(room_id, node)
            except LobbyUnavailable as exc:  # the heartbeat tries again once the lobby is back
                log.warning("event=reclaim_postponed node=%s error=%s", node, exc)
                return
            self.reclaimed = True

    async def _wait_for_lease(self, room_id: str) -> bool:
        """This node's lease on one of its rooms, waited for while another node holds it;
        False if the room is gone or that node moved it meanwhile."""
        lobby = self._shared.lobby
        node = self._shared.config.node_id
        while not await lobby.take_lease(room_id, node, LEASE_SECONDS):
            entry = await lobby.get_room(room_id)
            if entry is None or entry.node != node:
                return False
            await asyncio.sleep(self._shared.config.heartbeat_seconds / 2)
        return True

    async def _adopt(self, room_id: str, owner: str) -> None:
        """Rebuild a room listed under ``owner`` from its journal; this node holds its lease.

        The list may be older than the lease: if the room has moved since, or
        ``owner`` (another node) is alive again, the room is left to them.
        """
        lobby = self._shared.lobby
        me = self._shared.config.node_id
        entry = await lobby.get_room(room_id)
        if entry is None:  # expired: drop it from the list, or every lease would try it again
            await lobby.forget_room(room_id, owner)
            await lobby.release_lease(room_id, me)
            return
        if entry.node != owner or (owner != me and owner in await lobby.nodes()):
            await lobby.release_lease(room_id, me)
            return
        journal = await lobby.load_match(room_id)
        if journal is None:  # never started: nothing to play on
            await lobby.delete_room(room_id)
            await lobby.release_lease(room_id, me)
            return
        started = time.perf_counter()
        entry.node = me
        try:
            room = self._keeper.make_room(entry)
            room.restore(*journal)
        except Exception:  # one journal that does not replay must not stop every other adoption
            log.exception("event=adoption_failed room=%s from=%s", room_id, owner)  # its lease runs out
            return
        self._keeper.adopted(room)
        await lobby.move_room(room_id, me)
        log.info(
            "event=room_adopted room=%s from=%s actions=%s seconds=%.3f",
            room_id, owner, len(journal[1]), time.perf_counter() - started,
        )  # fmt: skip
        if room.finished:  # nobody may come back for it: it goes the way of every finished room
            self._keeper.close_if_abandoned(room)
