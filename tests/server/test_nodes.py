"""Several nodes on one Redis: any node lists every room; joins elsewhere are redirected."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.lobby_redis import RedisLobby
from tests.support.clients import client
from tests.support.nodes import follow, node_url, redirected
from tests.support.redis import delete_keys, own_prefix


async def test_any_node_lists_every_nodes_rooms(nodes: tuple[CardaviaServer, CardaviaServer]) -> None:
    a, b = nodes
    anna = await client(node_url(a))
    await anna.hello()
    await anna.send(anna.req.create_room("scopa", humans=2))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    bo = await client(node_url(b), "Bo")
    await bo.hello()
    await bo.send(m.ListRooms(id=2, game="scopa"))
    listed: m.Rooms = await bo.expect(m.Rooms)
    assert [(r.room, r.node) for r in listed.rooms] == [(made.room.room, "node-a")]


async def test_joining_a_room_of_another_node_redirects_with_a_one_time_reservation(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> None:
    a, _ = nodes
    anna, made, bo, redirect = await redirected(nodes)
    assert redirect.url == node_url(a)
    assert redirect.reservation
    moved = await follow(bo, redirect)
    seated: m.Snapshot = await moved.expect(m.Snapshot)
    assert (seated.room.room, seated.seat) == (made.room.room, 1)

    again = await client(node_url(a), "Bo")
    await again.hello(resume=moved.resume)
    await again.send(m.JoinRoom(id=5, room=redirect.room, reservation=redirect.reservation))
    refused: m.Error = await again.expect(m.Error)
    assert refused.code == "bad_reservation"

    await anna.send(anna.req.start())
    results = await asyncio.gather(
        anna.play_until_over(random.Random(1)), again.play_until_over(random.Random(2))
    )
    assert results[0].record == results[1].record


async def test_an_expired_reservation_is_refused(nodes: tuple[CardaviaServer, CardaviaServer]) -> None:
    a, b = nodes
    b.config = dataclasses.replace(b.config, reservation_seconds=0.05)
    anna = await client(node_url(a))
    await anna.hello()
    await anna.send(anna.req.create_room("scopa", humans=2))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    bo = await client(node_url(b), "Bo")
    await bo.hello()
    await bo.send(bo.req.join(room=made.room.room))
    redirect: m.Redirect = await bo.expect(m.Redirect)
    await asyncio.sleep(0.2)  # past the reservation's 0.05 s, on Redis's own clock (no test can step it)
    moved = await follow(bo, redirect)
    refused: m.Error = await moved.expect(m.Error)
    assert refused.code == "bad_reservation"


async def test_quick_match_pairs_players_on_different_nodes(
    nodes: tuple[CardaviaServer, CardaviaServer],
) -> None:
    a, b = nodes
    anna = await client(node_url(a))
    await anna.hello()
    await anna.send(anna.req.quick_match("scopa"))
    first: m.Snapshot = await anna.expect(m.Snapshot)
    bo = await client(node_url(b), "Bo")
    await bo.hello()
    await bo.send(bo.req.quick_match("scopa"))
    redirect: m.Redirect = await bo.expect(m.Redirect)
    assert redirect.room == first.room.room
    moved = await follow(bo, redirect)
    results = await asyncio.gather(
        anna.play_until_over(random.Random(3)), moved.play_until_over(random.Random(4))
    )
    assert results[0].record == results[1].record


async def test_a_node_restarted_under_its_id_takes_its_rooms_back(
    config: ServerConfig, lobby_url: str
) -> None:
    """A rolling update brings a node back before anyone sees its heartbeat stop."""
    prefix = own_prefix()
    node = dataclasses.replace(config, redis_url=lobby_url, redis_prefix=prefix, node_id="node-r")
    first = CardaviaServer(node)
    await first.start()
    anna = await client(node_url(first))
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", bot_level="random"))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    rng = random.Random(5)
    for _ in range(3):
        turn: m.YourTurn = await anna.expect(m.YourTurn)
        await anna.send(anna.req.act(rng.choice(turn.legal)))
        await anna.expect(m.Delta)
    await first.shutdown()
    accepted = first.rooms[made.room.room].accepted
    journaled = await first.lobby.load_match(made.room.room)
    assert journaled is not None
    made_first = journaled[1]
    assert len(made_first) == accepted  # the drain journaled exactly the moves it made
    assert isinstance(first.lobby, RedisLobby)
    await first.lobby.close()

    second = CardaviaServer(node)
    await second.start()
    try:
        assert made.room.room in second.rooms  # rebuilt before the node served anyone
        loaded = await second.lobby.load_match(made.room.room)
        assert loaded is not None
        rebuilt = loaded[1]
        # every move of the first node, in order; the rebuilt room goes on at once, so the
        # bot (seat 1) may already have made its next move, but nobody else can have
        assert rebuilt[:accepted] == made_first
        assert all(entry["seat"] == 1 for entry in rebuilt[accepted:])
        assert len(rebuilt) <= accepted + 1
        back = await client(node_url(second))
        await back.hello(resume=anna.resume)
        result = await back.play_until_over(rng)
        assert result.winner in (0, 1, None)
    finally:
        await second.shutdown()
        lobby = second.lobby
        assert isinstance(lobby, RedisLobby)
        await delete_keys(lobby.redis, prefix)
        await lobby.close()


@pytest.mark.parametrize(
    "gone", ["redis://127.0.0.1:1/0", "redis+cluster://127.0.0.1:1"], ids=["redis", "cluster"]
)
async def test_a_node_whose_lobby_does_not_answer_at_start_serves_and_says_so(
    config: ServerConfig, gone: str
) -> None:
    """One Redis or a Redis Cluster alike: the node starts (it reclaims its rooms once the lobby
    answers), and a request that needs the lobby is told ``lobby_unavailable``."""
    srv = CardaviaServer(dataclasses.replace(config, redis_url=gone, redis_prefix=own_prefix()))
    await srv.start()
    try:
        anna = await client(node_url(srv))
        await anna.send(anna.req.hello("Anna"))
        refused: m.Error = await anna.expect(m.Error)
        assert refused.code == "lobby_unavailable"
    finally:
        await srv.shutdown()
        assert isinstance(srv.lobby, RedisLobby)
        await srv.lobby.close()
