"""A node dies while its heartbeat is still in the lobby: its players are told to wait, not sent there.

After a kill -9 the dead node's heartbeat stays listed for up to ``node_ttl``, and
only then does another node adopt its rooms. A player coming back through a live
node meanwhile must hear ``node_unavailable`` (the room is moving), not be sent
to the dead node, and must sit down again in the same room once it is adopted.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import AsyncIterator

import pytest

from cardavia.clients.cli.session import ROOM_MOVING, Reconnected, Reconnecting, Session
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.lobby_redis import RedisLobby
from cardavia.server.wire import Listener
from tests.support.clients import client
from tests.support.nodes import both_beat, stale
from tests.support.redis import delete_keys, own_prefix
from tests.support.waiting import wait_until

BEAT = 0.2
TTL = 2.5
"""Long enough after the last beat for the session to come back through node-b a few times."""

Node = tuple[CardaviaServer, Listener]


@pytest.fixture
async def nodes(config: ServerConfig, lobby_url: str) -> AsyncIterator[tuple[Node, Node]]:
    """node-a and node-b on one lobby in Redis (each backend), both heartbeating; shut down and
    cleaned up afterwards."""
    prefix = own_prefix()
    started: list[Node] = []
    for name in ("node-a", "node-b"):
        srv = CardaviaServer(
            dataclasses.replace(
                config,
                redis_url=lobby_url,
                redis_prefix=prefix,
                node_id=name,
                heartbeat_seconds=BEAT,
                node_ttl=TTL,
                grace_seconds=30.0,  # the seat waits for its player: no stand-in plays it meanwhile
            )
        )
        started.append((srv, await srv.start()))
    lobby = started[0][0].lobby
    await wait_until(lambda: both_beat(lobby), "both nodes' heartbeats", timeout=2.0)
    yield started[0], started[1]
    for srv, _ in started:
        await srv.shutdown()
    assert isinstance(lobby, RedisLobby)
    await delete_keys(lobby.redis, prefix)
    for srv, _ in started:
        assert isinstance(srv.lobby, RedisLobby)
        await srv.lobby.close()


def _url(srv: CardaviaServer) -> str:
    return f"ws://127.0.0.1:{srv.port}/"


async def _stop_heartbeat(srv: CardaviaServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first half of a kill -9: the node beats no more and starts no move (nothing is
    deregistered), so its heartbeat stays in the lobby until it expires."""

    async def hang(node: str, url: str, ttl: float) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(srv.lobby, "register_node", hang)
    for room in srv.rooms.values():
        room.freeze()


def _cut_sockets(srv: CardaviaServer, server: Listener) -> None:
    """The second half: nothing listens any more and every connection breaks without a close frame."""
    server.close()
    for conn in list(srv.connections):
        conn.wire.abort()


async def test_a_player_back_through_another_node_before_the_dead_one_expires_waits_for_its_room(
    nodes: tuple[Node, Node], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (a, a_server), (b, _) = nodes
    caplog.set_level(logging.INFO, logger="cardavia.client")
    bo = await client(_url(a), "Bo")
    await bo.hello()
    # Bo leaves before the game: it starts by itself, with a bot in his seat and Anna its only person
    await bo.send(bo.req.create_room("briscola", humans=2, bot_level="random", fill_after=2.0))
    made: m.Snapshot = await bo.expect(m.Snapshot)
    session = Session(_url(b), "Anna", max_backoff=0.3, give_up_after=30.0)  # comes in through node-b
    await session.connect()
    try:
        seated = await session.request(session.requests.join(code=made.room.code))
        assert isinstance(seated, m.Snapshot)
        assert (seated.room.room, seated.seat, session.url) == (made.room.room, 1, _url(a))
        await bo.send(bo.req.leave())
        await bo.expect(m.Left)

        rng = random.Random(3)
        moves_on_a = moves_on_b = 0
        killed = False
        killed_at = 0
        back = False
        notices: list[Reconnecting] = []
        result: m.MatchResult | None = None
        async with asyncio.timeout(30):
            async for item in session.messages():
                assert not isinstance(item, m.Error), item  # nothing for the player to act on
                if isinstance(item, Reconnecting):
                    notices.append(item)
                elif isinstance(item, Reconnected):
                    assert item.resumed
                    back = True
                elif isinstance(item, m.YourTurn):
                    if not killed and moves_on_a >= 2:
                        await _stop_heartbeat(a, monkeypatch)
                        await wait_until(lambda: stale(b.lobby, "node-a", BEAT), "node-a stale on node-b")
                        assert "node-a" in await b.lobby.nodes()  # stale, not yet expired
                        _cut_sockets(a, a_server)
                        killed_at = len(caplog.records)  # the redirect that seated Anna came before
                        killed = True
                        continue
                    await session.send(session.requests.act(rng.choice(item.legal)))
                    moves_on_a += not killed
                    moves_on_b += back
                elif isinstance(item, m.MatchResult):
                    result = item
                    break
        assert killed
        assert back
        assert result is not None
        assert moves_on_b > 0  # the match went on where it was, to its end
        assert session.room is not None
        assert session.room.room == made.room.room
        assert session.url == _url(b)  # node-b adopted the room and the player sat down there again
        assert made.room.room in b.rooms

        # every attempt through node-b before the room was back was told the room is moving
        through_b = [n.reason for n in notices if n.attempt >= 3 and n.attempt % 2 == 1]
        assert through_b
        assert set(through_b) == {ROOM_MOVING}
        dead = f"event=redirect url={_url(a)}"
        assert not [r for r in caplog.records[killed_at:] if r.getMessage().startswith(dead)]
    finally:
        await session.close()


async def test_a_join_by_code_for_a_room_of_a_node_that_missed_its_beats_is_told_to_retry(
    nodes: tuple[Node, Node], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not sent to a node that is probably dead: the seat claimed for the redirect is given back."""
    (a, _), (b, _) = nodes
    anna = await client(_url(a), "Anna")
    await anna.hello()
    await anna.send(anna.req.create_room("briscola", humans=2, bot_level="random"))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    await _stop_heartbeat(a, monkeypatch)
    await wait_until(lambda: stale(b.lobby, "node-a", BEAT), "node-a stale on node-b")
    bo = await client(_url(b), "Bo")
    await bo.hello()
    await bo.send(m.JoinRoom(id=7, code=made.room.code))
    refused: m.Error = await bo.expect(m.Error)
    assert (refused.code, refused.id) == ("node_unavailable", 7)
    assert refused.retry_after is not None
    assert refused.retry_after > 0
    entry = await b.lobby.get_room(made.room.room)
    assert entry is not None
    assert entry.seats[1].kind == "open"
