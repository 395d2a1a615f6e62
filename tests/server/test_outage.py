"""Redis goes away during games: play goes on, the lobby says it is unavailable, and after
Redis comes back (empty) the node writes back its rooms and journals: nothing is lost."""

from __future__ import annotations

import dataclasses
import random
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from tests.support.clients import client
from tests.support.ports import free_port, port_open
from tests.support.waiting import wait_until, wait_until_sync

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


class OwnRedis:
    """A redis-server of the test's own, on a free port, that keeps nothing on disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_until_sync(lambda: port_open(self.port), "redis-server listening")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    redis = OwnRedis()
    redis.start()
    yield redis
    redis.stop()


async def test_games_go_on_through_a_redis_outage_and_nothing_is_lost(
    config: ServerConfig, own_redis: OwnRedis
) -> None:
    srv = CardaviaServer(
        dataclasses.replace(config, redis_url=f"redis://127.0.0.1:{own_redis.port}/0", heartbeat_seconds=0.1)
    )
    await srv.start()
    try:
        url = f"ws://127.0.0.1:{srv.port}/"
        rng = random.Random(7)
        anna = await client(url)
        await anna.hello()
        await anna.send(anna.req.play_now("briscola", "random"))
        sent = 0
        result: m.MatchResult | None = None
        outage_checked = False
        while result is None:
            message = await anna.recv(timeout=10)
            if isinstance(message, m.YourTurn):
                if sent == 4:
                    own_redis.stop()  # Redis goes away mid-game
                if sent == 8 and not outage_checked:
                    await anna.send(m.ListRooms(id=500))
                    error: m.Error = await anna.expect(m.Error)
                    assert error.code == "lobby_unavailable"
                    outage_checked = True
                    own_redis.start()  # back, and empty
                await anna.send(anna.req.act(rng.choice(message.legal)))
                sent += 1
            elif isinstance(message, m.MatchResult):
                result = message
            elif isinstance(message, m.Error):
                raise AssertionError(f"unexpected error {message}")
        assert outage_checked
        room = next(iter(srv.rooms.values()))

        async def written_back() -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
            loaded = await srv.lobby.load_match(room.id)
            return loaded if loaded is not None and len(loaded[1]) == room.accepted else None

        # the heartbeat writes everything back
        stored = await wait_until(written_back, "every move written back to Redis")
        assert stored is not None
        assert len(stored[1]) == room.accepted == 40
        assert await srv.lobby.get_room(room.id) is not None
    finally:
        await srv.shutdown()
