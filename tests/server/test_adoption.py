"""Which node rebuilds a room whose node stopped, and what happens to rooms nobody can rebuild.

The lobby is prepared by hand as a node that stopped left it (its rooms, their
journals, its heartbeat gone), then a live node (in this process) meets it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import AsyncIterator

import pytest

from cardavia.games.records import replay
from cardavia.games.registry import get_game
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import RoomEntry, SeatEntry, SessionEntry
from cardavia.server.lobby_redis import RedisLobby
from cardavia.server.sessions import token_hash as _token_hash
from tests.support.clients import client
from tests.support.redis import delete_keys, own_prefix
from tests.support.waiting import wait_until

GONE = "node-gone"
"""A node whose heartbeat has expired."""


@pytest.fixture
async def lobby(lobby_url: str) -> AsyncIterator[RedisLobby]:
    prefix = own_prefix()
    store = RedisLobby(lobby_url, prefix=prefix)
    await store.register_node(GONE, "ws://gone.example/", 0.001)  # known to the lobby, and dead
    yield store
    await delete_keys(store.redis, prefix)
    await store.close()


@pytest.fixture
def node(config: ServerConfig, lobby_url: str, lobby: RedisLobby) -> ServerConfig:
    return dataclasses.replace(
        config,
        redis_url=lobby_url,
        redis_prefix=lobby.prefix,
        node_id="node-a",
        heartbeat_seconds=0.05,
        node_ttl=0.5,
    )


@pytest.fixture
async def servers() -> AsyncIterator[list[CardaviaServer]]:
    """Servers a test starts; shut down and disconnected afterwards."""
    started: list[CardaviaServer] = []
    yield started
    for srv in started:
        await srv.shutdown()
        assert isinstance(srv.lobby, RedisLobby)
        await srv.lobby.close()


async def _start(servers: list[CardaviaServer], srv: CardaviaServer) -> CardaviaServer:
    servers.append(srv)
    await srv.start()
    return srv


async def _journaled_room(lobby: RedisLobby, room: str, owner: str, *, finished: bool) -> None:
    """A Briscola room of ``owner``: Anna against a bot, with a journal of random moves
    (the whole match when ``finished``, else its first four)."""
    game = get_game("briscola")
    options = game.options({})
    seed = f"{room}/0/seed"
    entry = RoomEntry(
        room, room[-5:].upper(), "briscola", "napoletane", options, False,
        [SeatEntry("human", "Anna", "s-anna"), SeatEntry()], 1, "random",
    )  # fmt: skip
    entry.node, entry.state = owner, "playing"
    await lobby.create_room(entry)
    seats = [
        {"kind": "human", "name": "Anna", "session": "s-anna", "bot": None},
        {"kind": "bot", "name": "Bot 2 (random)", "session": None, "bot": "random"},
    ]
    await lobby.save_match(room, {"seed": seed, "options": options, "seats": seats, "matches": 0})
    state, rng = game.new(options, seed), random.Random(room)
    index = 0
    while not state.is_over and (finished or index < 4):
        seat = state.to_move
        assert seat is not None
        action = rng.choice(state.legal_actions(seat))
        await lobby.append_action(room, index, {"seat": seat, **action.to_data()})
        state, _ = state.apply(action, seat=seat)
        index += 1


async def _annas_room(lobby: RedisLobby, room: str, token: str, *, finished: bool) -> None:
    """``_journaled_room`` on the stopped node, and Anna's session seated in it under ``token``."""
    await _journaled_room(lobby, room, GONE, finished=finished)
    await lobby.save_session(SessionEntry("s-anna", "Anna", _token_hash(token), room, 0))


async def test_a_finished_room_adopted_from_a_stopped_node_closes_when_nobody_comes_back(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer], caplog: pytest.LogCaptureFixture
) -> None:
    # Its players were gone with the node, so it waits for them as for players who dropped.
    caplog.set_level(logging.INFO, logger="cardavia.server")
    await _journaled_room(lobby, "r-done000001", GONE, finished=True)
    config = dataclasses.replace(node, grace_seconds=0.1, result_seconds=0.3)
    srv = await _start(servers, CardaviaServer(config))
    # The adoption is read from the node's log, not from its room table: on a busy loop the
    # room can be adopted and already dropped again before a look at the table.
    adopted = "event=room_adopted room=r-done000001 "
    await wait_until(lambda: _logged(caplog, adopted), "the finished room was adopted", timeout=10.0)
    room = srv.rooms.get("r-done000001")
    assert room is None or room.finished
    await wait_until(
        lambda: _gone(srv, lobby, "r-done000001"), "nobody came back, and the room was dropped", timeout=10.0
    )
    # the room's document goes first and the node lists after it, in another round trip (other
    # slots on a Redis Cluster): the lists are waited on, not read the moment the document is gone
    await wait_until(lambda: _lists_none(lobby, "node-a"), "node-a lists no room", timeout=10.0)


async def test_a_player_back_at_a_finished_adopted_room_gets_its_result_and_record(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer]
) -> None:
    token = "a-resume-token-of-annas"
    await _annas_room(lobby, "r-done000002", token, finished=True)
    srv = await _start(servers, CardaviaServer(node))
    await wait_until(lambda: _in(srv, "r-done000002"), "the finished room was adopted", timeout=10.0)
    anna = await client(f"ws://127.0.0.1:{srv.port}/")
    await anna.hello(resume=token)
    snapshot = await anna.expect(m.Snapshot)
    assert snapshot.view["result"] is not None
    result: m.MatchResult = await anna.expect(m.MatchResult)
    assert result.record == "r-done000002-1"
    assert result.scores == snapshot.view["result"]["scores"]
    await anna.send(m.GetRecord(id=5, record=result.record))
    record = (await anna.expect(m.RecordMessage)).record
    assert replay(record).ok
    journal = await lobby.load_match("r-done000002")
    assert journal is not None
    moves = [a for deal in record["deals"] for a in deal["actions"]]
    assert moves == journal[1]  # the record holds exactly the journaled moves


async def _logged(caplog: pytest.LogCaptureFixture, text: str) -> bool:
    return any(text in record.getMessage() for record in caplog.records)


async def _in(srv: CardaviaServer, room: str) -> bool:
    return room in srv.rooms


async def _gone(srv: CardaviaServer, lobby: RedisLobby, room: str) -> bool:
    return room not in srv.rooms and await lobby.get_room(room) is None


async def _lists_none(lobby: RedisLobby, node: str) -> bool:
    return await lobby.rooms_of(node) == []


@pytest.mark.parametrize("owner", [GONE, "node-a"], ids=["a-stopped-node", "this-node-restarted"])
async def test_a_listed_room_whose_entry_expired_is_dropped_from_the_nodes_rooms(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer], owner: str
) -> None:
    await _journaled_room(lobby, "r-expired001", owner, finished=True)
    await _journaled_room(lobby, "r-playing001", owner, finished=False)
    await lobby.redis.delete(lobby.room_key("r-expired001"))  # what its TTL does after an hour
    srv = await _start(servers, CardaviaServer(node))
    await wait_until(lambda: _in(srv, "r-playing001"), "the room in play was rebuilt", timeout=10.0)

    async def forgotten() -> bool:
        return "r-expired001" not in await lobby.rooms_of(owner)

    await wait_until(forgotten, f"the expired room left the rooms of {owner}", timeout=10.0)
    assert await lobby.rooms_of("node-a") == ["r-playing001"]
    assert "r-expired001" not in srv.rooms
    assert await lobby.take_lease("r-expired001", "node-c", 30.0)  # nobody keeps trying it


async def test_a_room_that_moved_after_it_was_listed_stays_where_it_went(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer]
) -> None:
    """Another adopter moved the room between this node's reading of the list and its lease."""
    await lobby.register_node("node-b", "ws://b.example/", 30.0)
    await _journaled_room(lobby, "r-a-moved001", GONE, finished=False)
    await _journaled_room(lobby, "r-b-orphan01", GONE, finished=False)
    await lobby.move_room("r-a-moved001", "node-b")
    await lobby.redis.sadd(lobby.prefix + "node_rooms:" + GONE, "r-a-moved001")  # the list as read before
    srv = await _start(servers, CardaviaServer(node))
    # the list is taken in order: once the second room is here, the first was decided
    await wait_until(lambda: _in(srv, "r-b-orphan01"), "the orphan was adopted", timeout=10.0)
    assert "r-a-moved001" not in srv.rooms
    entry = await lobby.get_room("r-a-moved001")
    assert entry is not None
    assert entry.node == "node-b"
    assert await lobby.take_lease("r-a-moved001", "node-c", 30.0)  # its lease was given back


class ComesBack(RedisLobby):
    """A lobby in which ``node`` starts heartbeating again just as the room's lease is taken."""

    def __init__(self, url: str, *, prefix: str, node: str) -> None:
        super().__init__(url, prefix=prefix)
        self.node = node
        self.released: list[str] = []

    async def take_lease(self, room: str, node: str, ttl: float) -> bool:
        await self.register_node(self.node, "ws://back.example/", 30.0)
        return await super().take_lease(room, node, ttl)

    async def release_lease(self, room: str, node: str) -> None:
        self.released.append(room)
        await super().release_lease(room, node)


async def test_a_node_that_comes_back_while_its_room_is_being_taken_keeps_it(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer]
) -> None:
    """The node restarted under its id and rebuilt the room from its journal meanwhile."""
    await _journaled_room(lobby, "r-back000001", GONE, finished=False)
    racing = ComesBack(node.redis_url, prefix=lobby.prefix, node=GONE)
    srv = await _start(servers, CardaviaServer(node, lobby=racing))

    async def released() -> bool:
        return "r-back000001" in racing.released

    await wait_until(released, "the lease was given back", timeout=10.0)
    assert "r-back000001" not in srv.rooms
    assert await lobby.rooms_of(GONE) == ["r-back000001"]


@pytest.mark.parametrize("holder_moves_it", [False, True], ids=["holder-gives-up", "holder-moves-it"])
async def test_a_restarted_node_waits_for_a_lease_another_node_holds(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer], holder_moves_it: bool
) -> None:
    """node-b began adopting the room when node-a came back: whichever ends with it, one does."""
    await _journaled_room(lobby, "r-leased0001", "node-a", finished=False)
    assert await lobby.take_lease("r-leased0001", "node-b", 30.0)
    srv = CardaviaServer(node)
    starting = asyncio.create_task(_start(servers, srv))
    await asyncio.sleep(0.3)  # time passes on purpose: the start must still be waiting after it
    assert not starting.done()  # it does not serve without the room, nor with it twice
    if holder_moves_it:
        await lobby.move_room("r-leased0001", "node-b")
    else:
        await lobby.release_lease("r-leased0001", "node-b")
    await starting
    assert ("r-leased0001" in srv.rooms) is not holder_moves_it
    entry = await lobby.get_room("r-leased0001")
    assert entry is not None
    assert entry.node == ("node-b" if holder_moves_it else "node-a")


async def test_a_journal_that_does_not_replay_stops_no_other_adoption(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer]
) -> None:
    await _journaled_room(lobby, "r-a-broken01", GONE, finished=False)
    await _journaled_room(lobby, "r-b-intact01", GONE, finished=False)
    await lobby.redis.rpush(lobby.journal_key("actions", "r-a-broken01"), '{"seat": 0, "play": "ZZ"}')
    srv = await _start(servers, CardaviaServer(node))
    await wait_until(lambda: _in(srv, "r-b-intact01"), "the intact room was adopted", timeout=10.0)
    assert "r-a-broken01" not in srv.rooms
    assert not await lobby.take_lease("r-a-broken01", "node-c", 30.0)  # tried again when the lease ends


async def test_a_player_whose_room_is_being_adopted_is_told_to_retry_until_it_is_back(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer]
) -> None:
    """Between a node's death and the adoption of its room, a returning player is not welcomed
    as if its seat were lost: it gets ``node_unavailable`` with a hint, and later its seat."""
    token = "a-resume-token-of-annas"
    await _annas_room(lobby, "r-moving0001", token, finished=False)
    assert await lobby.take_lease("r-moving0001", "node-c", 30.0)  # node-c is adopting it, slowly
    srv = await _start(servers, CardaviaServer(node))
    anna = await client(f"ws://127.0.0.1:{srv.port}/")
    welcome = await anna.hello(resume=token)
    assert welcome.room is None
    moving: m.Error = await anna.expect(m.Error)
    assert (moving.code, moving.id) == ("node_unavailable", 1)
    assert moving.retry_after is not None
    assert moving.retry_after > 0
    await lobby.release_lease("r-moving0001", "node-c")  # node-c died too: node-a adopts it
    await wait_until(lambda: _in(srv, "r-moving0001"), "the room was adopted", timeout=10.0)
    back = await client(f"ws://127.0.0.1:{srv.port}/")
    again = await back.hello(resume=welcome.resume)
    assert again.room == "r-moving0001"
    assert (await back.expect(m.Snapshot)).seat == 0


async def test_the_python_session_keeps_trying_while_its_room_moves_and_sits_down_again(
    node: ServerConfig, lobby: RedisLobby, servers: list[CardaviaServer]
) -> None:
    from cardavia.clients.cli.session import Reconnected, Session

    token = "another-resume-token-of-annas"
    await _annas_room(lobby, "r-moving0002", token, finished=False)
    assert await lobby.take_lease("r-moving0002", "node-c", 30.0)
    srv = await _start(servers, CardaviaServer(node))
    session = Session(f"ws://127.0.0.1:{srv.port}/", "Anna", resume=token, max_backoff=0.2)
    await session.connect()
    await asyncio.sleep(0.5)  # a few attempts, each told the room is moving
    await lobby.release_lease("r-moving0002", "node-c")
    try:
        async with asyncio.timeout(10):
            async for item in session.messages():
                assert not isinstance(item, m.Error), item  # nothing for the player to act on
                if isinstance(item, Reconnected):
                    assert item.resumed
                if isinstance(item, m.Snapshot):
                    break
        assert session.room is not None
        assert session.room.room == "r-moving0002"
        assert session.store.seat == 0
    finally:
        await session.close()
