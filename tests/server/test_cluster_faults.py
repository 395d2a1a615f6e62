"""Faults of a Redis Cluster under play: a master killed, and the whole cluster gone and back.

Two nodes (in this process) run rooms, each a person (a test client) against bots, on a
cluster of three masters with a replica each (one cluster for the module: each test leaves it
whole again). What every test holds to: no move a player was told was accepted (a delta came
back) is missing afterwards from its room's journal, and each match's record replays.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster

from cardavia.games.records import replay
from cardavia.protocol import messages as m
from cardavia.redis_cluster import LocalRedisCluster
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import LobbyUnavailable
from cardavia.server.lobby_redis import RedisLobby
from tests.support.clients import Client, client
from tests.support.nodes import node_url, two_nodes
from tests.support.redis import delete_keys, own_prefix
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalRedisCluster]:
    """Three masters, each with a replica: what a failover needs."""
    with LocalRedisCluster(masters=3, replicas=1) as local:
        yield local


@pytest.fixture
async def nodes(
    config: ServerConfig, cluster: LocalRedisCluster
) -> AsyncIterator[tuple[CardaviaServer, CardaviaServer]]:
    quick = dataclasses.replace(config, grace_seconds=30.0, bot_delay=0.0)
    async with two_nodes(quick, cluster.url) as both:
        yield both


@pytest.fixture(autouse=True)
def server_logs(caplog: pytest.LogCaptureFixture) -> None:
    """The nodes' log lines, down to INFO: the tests read the events a fault leaves."""
    caplog.set_level(logging.INFO, logger="cardavia.server")


@dataclasses.dataclass
class Table:
    """A person playing a match against a bot, and what they were told."""

    player: Client
    room: str
    node: CardaviaServer
    sent: int = 0
    """Moves sent, each answered by its delta before the next (so each one acknowledged)."""
    result: m.MatchResult | None = None


async def _tables(nodes: tuple[CardaviaServer, CardaviaServer], count: int) -> list[Table]:
    tables = []
    for i in range(count):
        node = nodes[i % 2]
        player = await client(node_url(node), f"P{i}")
        await player.hello()
        await player.send(player.req.play_now("briscola", "random"))
        made: m.Snapshot = await player.expect(m.Snapshot)
        tables.append(Table(player, made.room.room, node))
    return tables


async def _move(table: Table, rng: random.Random) -> float | None:
    """One move of the person, once it is their turn: seconds until its delta came back (None
    when the match ended first)."""
    while True:
        message = await table.player.recv(timeout=30.0)
        if isinstance(message, m.MatchResult):
            table.result = message
            return None
        if isinstance(message, m.Error):
            raise AssertionError(f"unexpected error {message}")
        if isinstance(message, m.YourTurn):
            sent = time.monotonic()
            await table.player.send(table.player.req.act(rng.choice(message.legal)))
            table.sent += 1
            await table.player.expect(m.Delta, timeout=30.0)  # accepted: the player was told
            return time.monotonic() - sent


async def _play_to_end(table: Table, rng: random.Random) -> None:
    while table.result is None:
        await _move(table, rng)


async def _journal_holds_the_record(table: Table) -> None:
    """Every action of the match, as its record has them, in the room's journal, and the record
    replays; the person's own moves in it are exactly those they sent."""
    result = table.result
    assert result is not None
    await table.player.send(m.GetRecord(id=90, record=result.record or ""))
    record: dict[str, Any] = (await table.player.expect(m.RecordMessage)).record
    assert replay(record).ok
    played = [action for deal in record["deals"] for action in deal["actions"]]
    mine = [a for a in played if a["seat"] == 0 and not a.get("auto")]
    assert len(mine) == table.sent
    lobby = table.node.lobby

    async def journaled() -> bool:
        journal = await lobby.load_match(table.room)
        return journal is not None and len(journal[1]) == len(played)

    await wait_until(journaled, f"the journal of {table.room} caught up", timeout=10.0)
    journal = await lobby.load_match(table.room)
    assert journal is not None
    assert [action["seat"] for action in journal[1]] == [action["seat"] for action in played]


def _slot_of(lobby: RedisLobby, room: str) -> int:
    """The hash slot of ``room``'s journal (its own hash tag)."""
    assert isinstance(lobby.redis, RedisCluster)
    return lobby.redis.keyslot(lobby.journal_key("actions", room))


async def test_a_master_killed_during_play_fails_over_and_no_accepted_move_is_lost(
    nodes: tuple[CardaviaServer, CardaviaServer],
    cluster: LocalRedisCluster,
    caplog: pytest.LogCaptureFixture,
) -> None:
    lobby = nodes[0].lobby
    assert isinstance(lobby, RedisLobby)
    assert lobby.replicas_wait == 1  # the default: each journal group waits for its replica
    tables = await _tables(nodes, 6)
    masters: dict[str, int] = {}
    while True:
        for table in tables:
            slot = _slot_of(lobby, table.room)
            masters[table.room] = await asyncio.to_thread(cluster.master_of_slot, slot)
        if len(set(masters.values())) > 1:  # at least one room on another master than the first's
            break
        tables += await _tables(nodes, 1)
    victim = masters[tables[0].room]
    hit = [t for t in tables if masters[t.room] == victim]
    spared = [t for t in tables if masters[t.room] != victim]
    rng = random.Random(11)
    for _ in range(3):  # every room in play
        for table in tables:
            await _move(table, rng)

    killed = time.monotonic()
    await asyncio.to_thread(cluster.kill, victim)
    # every room plays on: the others throughout, the affected ones from their node's memory
    # while their journal waits for the failover
    answers = await asyncio.gather(*(_move(table, rng) for table in hit + spared))
    pause = max(a for a in answers[: len(hit)] if a is not None)
    await wait_until(
        lambda: asyncio.to_thread(_promoted, cluster, _slot_of(lobby, tables[0].room), victim),
        "the replica to take over the killed master's slots",
        timeout=15.0,
        interval=0.1,
    )
    await wait_until(lambda: _journaled(hit), "the affected rooms' journals caught up", timeout=15.0)
    caught_up = time.monotonic() - killed
    print(f"master killed: longest next move {pause:.3f}s; journals caught up {caught_up:.3f}s after")
    failed = f"event=journal_write_failed shard=127.0.0.1:{victim} "
    assert [r for r in caplog.records if r.getMessage().startswith(failed)]

    await asyncio.gather(*(_play_to_end(table, rng) for table in tables))
    for table in tables:
        await _journal_holds_the_record(table)
    await asyncio.to_thread(cluster.start_node, victim)  # back as a replica: the cluster whole again
    await asyncio.to_thread(cluster.wait_ready)


async def _journaled(tables: list[Table]) -> bool:
    """Whether each table's room has in its journal every action its node accepted (not yet
    while the failover is under way, and the journal's slot has no master)."""
    for table in tables:
        try:
            journal = await table.node.lobby.load_match(table.room)
        except LobbyUnavailable:
            return False
        if journal is None or len(journal[1]) < table.node.rooms[table.room].accepted:
            return False
    return True


def _promoted(cluster: LocalRedisCluster, slot: int, victim: int) -> int | None:
    try:
        port = cluster.master_of_slot(slot)
    except LookupError:
        return None
    return port if port != victim else None


async def test_the_whole_cluster_restarted_nodes_reconnect_and_no_accepted_move_is_lost(
    nodes: tuple[CardaviaServer, CardaviaServer],
    cluster: LocalRedisCluster,
    caplog: pytest.LogCaptureFixture,
) -> None:
    tables = await _tables(nodes, 4)
    rng = random.Random(12)
    for _ in range(3):
        for table in tables:
            await _move(table, rng)
    assert await _all_say(nodes, (200, "ready"))

    await asyncio.to_thread(cluster.stop_all)
    for table in tables:  # every game goes on from its node's memory
        await _move(table, rng)
    newcomer = await client(node_url(nodes[0]), "Newcomer")
    await newcomer.send(newcomer.req.hello("Newcomer"))
    refused = await newcomer.expect(m.Error)
    assert refused.code == "lobby_unavailable"
    not_ready = (503, "not ready: lobby_unavailable")
    await wait_until(lambda: _all_say(nodes, not_ready), "both nodes not ready", timeout=10.0)

    await asyncio.to_thread(cluster.start_all)
    await wait_until(lambda: _all_say(nodes, (200, "ready")), "both nodes ready again", timeout=20.0)
    for name in ("node-a", "node-b"):
        back = f"event=lobby_back node={name} "
        assert [r for r in caplog.records if r.getMessage().startswith(back)]
    again = await client(node_url(nodes[1]), "Newcomer")
    await again.hello()
    await again.send(again.req.play_now("briscola", "random"))
    await again.expect(m.Snapshot)
    await asyncio.gather(*(_play_to_end(table, rng) for table in tables))
    for table in tables:
        await _journal_holds_the_record(table)


async def _readiness(node: CardaviaServer) -> tuple[int, str]:
    """What the node's ``/readyz`` answers: its status and its text."""

    def get() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{node.port}/readyz", timeout=5) as response:
                return response.status, response.read().decode().strip()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode().strip()

    return await asyncio.to_thread(get)


async def _all_say(nodes: tuple[CardaviaServer, ...], answer: tuple[int, str]) -> bool:
    """Whether every node's ``/readyz`` gives ``answer``."""
    return all([await _readiness(node) == answer for node in nodes])


async def test_a_journaled_action_waits_for_its_replica_and_counts_as_unwritten_without_it(
    cluster: LocalRedisCluster,
) -> None:
    """``WAIT`` behind the journal script: while the replica hangs, an action is not taken as
    written (its room keeps it and writes it again), and once the replica answers it is."""
    lobby = RedisLobby(cluster.url, prefix=own_prefix(), replicas_wait=1)
    try:
        await lobby.save_match("r-waits", {"seed": "x"})
        await lobby.append_action("r-waits", 0, {"seat": 0, "play": "7D"})
        master = await asyncio.to_thread(cluster.master_of_slot, _slot_of(lobby, "r-waits"))
        (replica,) = await asyncio.to_thread(cluster.replicas_of, master)
        cluster.freeze(replica)
        try:
            with pytest.raises(LobbyUnavailable, match="reached 0 of 1 replicas"):
                await lobby.append_action("r-waits", 1, {"seat": 1, "play": "3S"})
        finally:
            cluster.freeze(replica, frozen=False)
        await lobby.append_action("r-waits", 1, {"seat": 1, "play": "3S"})  # written again: once
        journal = await lobby.load_match("r-waits")
        assert journal is not None
        assert journal[1] == [{"seat": 0, "play": "7D"}, {"seat": 1, "play": "3S"}]
    finally:
        await delete_keys(lobby.redis, lobby.prefix)
        await lobby.close()
