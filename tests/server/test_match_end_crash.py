"""A node killed (kill -9) at a rated match's end: the match is written, and the rating changes,
exactly once, by the node that adopts the room.

The nodes are ``cardavia serve`` processes on one Redis and a PostgreSQL of the test's own,
which the first scenario stops (as a crash or a pulled cable looks to its clients) before the
match ends: the node that ran the match cannot write it and holds it in memory, and the room's
journal and lobby entry stay. That node is killed, the database comes back, and the other node
adopts the room, rebuilds the finished match from its journal and writes its end. In the second
scenario the node is killed right after the archive has the match: the adopter writes the same
end again, which the archive takes as already done.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from cardavia.games.records import replay
from cardavia.protocol import messages as m
from cardavia.server.lobby_redis import RedisLobby
from cardavia.server.store import Archive, open_archive
from tests.support.clients import Client, client
from tests.support.ports import free_port, port_open
from tests.support.postgres_server import PostgresServer
from tests.support.redis import REDIS_URL, delete_redis_keys, own_prefix
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow


@pytest.fixture
def database() -> Iterator[PostgresServer]:
    server = PostgresServer(Path(f"/tmp/cardavia-postgres-crash-{uuid.uuid4().hex[:12]}"))
    yield server
    server.remove()


@pytest.fixture
def prefix() -> Iterator[str]:
    name = own_prefix()
    yield name
    delete_redis_keys(REDIS_URL, name)


@pytest.fixture
async def archive(database: PostgresServer) -> AsyncIterator[Archive]:
    """The test's own look at the nodes' database (opened, and so migrated, before any node)."""
    store = open_archive(database.url)
    await store.open()
    yield store
    await store.close()


class Serve:
    """``cardavia serve`` as a process on the test's Redis prefix and database."""

    def __init__(self, name: str, prefix: str, database: str, folder: Path) -> None:
        self.name = name
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/"
        self.log = folder / f"{name}.log"
        settings = {
            "REDIS_URL": REDIS_URL,
            "REDIS_PREFIX": prefix,
            "DATABASE_URL": database,
            "NODE_ID": name,
            "BOT_DELAY": "0",
            "BOT_WORKERS": "0",
            "GRACE_SECONDS": "30",
            "RATE_PER_SECOND": "1000",
            "RATE_BURST": "1000",
            "RECORDS_DIR": str(folder / name),
        }
        env = os.environ | {f"CARDAVIA_{key}": value for key, value in settings.items()}
        with self.log.open("wb") as out:
            command = [sys.executable, "-m", "cardavia", "serve", "--port", str(self.port)]
            self.proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)

    def said(self, *pieces: str) -> bool:
        """Whether one line of the node's log holds every piece."""
        lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        return any(all(piece in line for piece in pieces) for line in lines)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
async def nodes(
    database: PostgresServer, archive: Archive, prefix: str, tmp_path: Path
) -> AsyncIterator[tuple[Serve, Serve]]:
    a = Serve("node-a", prefix, database.url, tmp_path)
    b = Serve("node-b", prefix, database.url, tmp_path)
    lobby = RedisLobby(REDIS_URL, prefix=prefix)
    try:
        for node in (a, b):
            await wait_until(lambda: port_open(node.port), f"{node.name} listening", timeout=20.0)  # noqa: B023
        await wait_until(lambda: _both_beat(lobby), "both nodes' heartbeats", timeout=5.0)
        yield a, b
    finally:
        for node in (a, b):
            node.kill()
        await lobby.close()


async def _both_beat(lobby: RedisLobby) -> bool:
    return len(await lobby.nodes()) == 2


async def _rated_match(node: Serve) -> tuple[Client, m.Profile, m.Snapshot]:
    anna = await client(node.url)
    await anna.hello()
    await anna.send(anna.req.create_profile("Anna"))
    profile: m.Profile = await anna.expect(m.Profile)
    await anna.send(anna.req.play_now("briscola", "random", rated=True))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    assert snapshot.room.rated
    return anna, profile, snapshot


async def _written_once(archive: Archive, player: str, record: str) -> None:
    """The archive holds the match once, and the player's rating moved once."""
    history = await archive.history(player)
    assert [(e.record, e.rated) for e in history] == [(record, True)]
    [rating] = await archive.ratings(player)
    assert (rating.game, rating.games) == ("briscola", 1)
    assert history[0].rating_after == rating.rating
    stored = await archive.load_record(record)
    assert stored is not None
    assert replay(stored).ok


async def _in_history(archive: Archive, player: str, record: str) -> bool:
    return any(e.record == record for e in await archive.history(player))


async def test_a_match_that_ended_while_the_database_was_away_is_written_once_by_the_adopter(
    nodes: tuple[Serve, Serve], database: PostgresServer, archive: Archive
) -> None:
    a, b = nodes
    anna, profile, snapshot = await _rated_match(a)
    database.stop()
    result = await anna.play_until_over(random.Random(3), timeout=30)
    record = result.record or ""
    await wait_until(lambda: a.said("event=match_end_waiting", f"record={record}"), "node a's write refused")
    a.kill()
    database.start()
    # node b adopts the room once node a's heartbeat has expired, and writes the match's end
    await wait_until(
        lambda: b.said("event=room_adopted", f"room={snapshot.room.room}"), "the room adopted", timeout=20
    )
    await wait_until(
        lambda: _in_history(archive, profile.player.id, record), "the match archived", timeout=30
    )
    await wait_until(lambda: b.said("event=match_archived", f"record={record}", "changes=1"), "b's write")
    await _written_once(archive, profile.player.id, record)
    bo = await client(b.url, "Bo")  # any node serves the record now
    await bo.hello()
    await bo.send(bo.req.get_record(record))
    fetched: m.RecordMessage = await bo.expect(m.RecordMessage)
    assert fetched.record == await archive.load_record(record)


async def test_a_node_killed_right_after_the_archive_has_the_match_changes_the_rating_once(
    nodes: tuple[Serve, Serve], archive: Archive
) -> None:
    a, b = nodes
    anna, profile, snapshot = await _rated_match(a)
    result = await anna.play_until_over(random.Random(4), timeout=30)
    record = result.record or ""
    await wait_until(
        lambda: _in_history(archive, profile.player.id, record), "the match archived", timeout=10
    )
    a.kill()
    # the finished room is still listed (its grace period had not passed): node b re-finishes it
    await wait_until(
        lambda: b.said("event=room_adopted", f"room={snapshot.room.room}"), "the room adopted", timeout=20
    )
    await wait_until(lambda: b.said("event=match_archived", f"record={record}", "changes=0"), "b's rewrite")
    await _written_once(archive, profile.player.id, record)
