"""A client survives its server being killed (kill -9) and started again on the same port mid-game.

With the Redis lobby the player's session and the match's journal live in
Redis: a node restarted under its old id (a rolling update, a restarted
container) rebuilds its rooms before it serves, and one under a new id
adopts them once the old id's heartbeat has expired. Either way the client
reconnects by itself with its resume token and plays the same match to the
end. With the
embedded lobby nothing survives the process: the client is welcomed back as a
new session and (play now) sits down in a new game.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cardavia.clients.cli.sdk import BotClient, Turn
from cardavia.clients.cli.session import Item, Reconnected
from cardavia.games.records import replay
from cardavia.protocol import messages as m
from cardavia.server.store import open_archive
from tests.clients.processes import ServerProcess
from tests.support.ports import free_port
from tests.support.redis import delete_redis_keys, own_prefix
from tests.support.waiting import wait_until


@pytest.fixture
async def redis_server(tmp_path: Path, lobby_url: str) -> AsyncIterator[ServerProcess]:
    prefix = own_prefix()
    settings = {
        "CARDAVIA_REDIS_URL": lobby_url,
        "CARDAVIA_REDIS_PREFIX": prefix,
        "CARDAVIA_NODE_ID": "node-1",
        "CARDAVIA_HEARTBEAT_SECONDS": "0.2",
        "CARDAVIA_NODE_TTL": "1.0",
    }
    node = ServerProcess(tmp_path, free_port(), settings)
    await node.start()
    yield node
    node.kill()
    delete_redis_keys(lobby_url, prefix)


class KillsItsServer:
    """Plays random moves, and at its 10th turn kills the server and starts it again."""

    def __init__(self, node: ServerProcess, comes_back_as: str | None = None) -> None:
        self.node = node
        self.comes_back_as = comes_back_as
        self.rng = random.Random(11)
        self.decisions = 0
        self.restart: asyncio.Task[None] | None = None

    async def __call__(self, turn: Turn) -> dict[str, Any]:
        self.decisions += 1
        if self.decisions == 10:
            self.node.kill()  # this decision never reaches a server: it is not counted below
            if self.comes_back_as is not None:
                self.node.settings["CARDAVIA_NODE_ID"] = self.comes_back_as
            self.restart = asyncio.ensure_future(self.node.start())
        return self.rng.choice(turn.legal)


@pytest.mark.parametrize("comes_back_as", [None, "node-2"], ids=["same-node-id", "new-node-id"])
@pytest.mark.slow
async def test_the_client_reconnects_by_itself_after_a_restart_and_the_same_match_finishes(
    redis_server: ServerProcess, comes_back_as: str | None
) -> None:
    """Under its old id the node rebuilds its rooms before serving; under a new one it adopts them
    once the old id's heartbeat has expired, and the client keeps trying until then."""
    bot = KillsItsServer(redis_server, comes_back_as)
    seen: list[Item] = []
    client = BotClient(
        redis_server.url, bot, "scopa", name="Anna", bot_level="random", on_message=seen.append
    )
    [result] = await asyncio.wait_for(client.run(), 120)
    assert bot.restart is not None
    await bot.restart
    assert redis_server.starts == 2, redis_server.log()
    assert Reconnected(resumed=True) in seen
    first_room = next(i.room.room for i in seen if isinstance(i, m.Snapshot))
    assert result.room == first_room  # the same match, rebuilt from its journal
    assert result.reconnects >= 1
    # the server's archiver writes it just after the match_result, to its embedded SQLite file
    archive = open_archive(f"sqlite:///{(redis_server.records / 'cardavia.db').resolve()}")
    await archive.open()
    try:
        await wait_until(lambda: archive.load_record(result.record or ""), "the match's record archived")
        record = await archive.load_record(result.record or "")
    finally:
        await archive.close()
    assert record is not None
    assert replay(record).ok
    mine = [
        a for d in record["deals"] for a in d["actions"] if a["seat"] == result.seat and not a.get("auto")
    ]
    assert len(mine) == bot.decisions - 1  # every move that reached the server, once


async def test_with_the_embedded_lobby_a_restart_loses_the_room_and_the_bot_sits_down_again(
    tmp_path: Path,
) -> None:
    node = ServerProcess(tmp_path, free_port(), {})
    await node.start()
    try:
        bot = KillsItsServer(node)
        seen: list[Item] = []
        client = BotClient(node.url, bot, "briscola", name="Anna", bot_level="random", on_message=seen.append)
        [result] = await asyncio.wait_for(client.run(), 120)
        assert Reconnected(resumed=False) in seen
        rooms = {i.room.room for i in seen if isinstance(i, m.Snapshot)}
        assert len(rooms) == 2
        assert result.room != next(i.room.room for i in seen if isinstance(i, m.Snapshot))
    finally:
        node.kill()
