"""The lobby store contract: every backend passes the same suite (the ``lobby`` fixture gives each)."""

from __future__ import annotations

import asyncio

import pytest

from cardavia.protocol.errors import ProtocolError
from cardavia.server.lobby import (
    LobbyStore,
    LobbyUnavailable,
    MemoryLobby,
    RoomEntry,
    SeatEntry,
    SessionEntry,
)
from cardavia.server.lobby_redis import RedisLobby
from tests.support.clock import Elapse, FakeClock
from tests.support.redis import delete_keys, own_prefix


def _entry(
    room: str, *, game: str = "scopa", public: bool = True, humans: int = 2, code: str = ""
) -> RoomEntry:
    return RoomEntry(
        room=room,
        code=code or room.upper()[-5:],
        game=game,
        deck="bolognese",
        options={"target": 11},
        public=public,
        seats=[SeatEntry(), SeatEntry()],
        humans=humans,
        bot_level="basic",
    )


async def test_create_get_and_find_by_code(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-aaaaa", code="KX4PQ"))
    entry = await lobby.get_room("r-aaaaa")
    assert entry is not None
    assert entry.game == "scopa"
    assert (await lobby.room_by_code("kx4pq")) == entry
    assert await lobby.get_room("r-nope") is None
    assert await lobby.room_by_code("ZZZZZ") is None


async def test_a_returned_entry_is_a_copy(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-bbbbb"))
    entry = await lobby.get_room("r-bbbbb")
    assert entry is not None
    entry.seats[0] = SeatEntry("human", "Mallory", "s-x")
    again = await lobby.get_room("r-bbbbb")
    assert again is not None
    assert again.seats[0].kind == "open"


async def test_list_open_shows_public_waiting_rooms_with_free_seats(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-00001"))
    await lobby.create_room(_entry("r-00002", public=False))
    await lobby.create_room(_entry("r-00003", game="briscola"))
    await lobby.create_room(_entry("r-00004"))
    await lobby.set_state("r-00004", "playing")
    await lobby.create_room(_entry("r-00005", humans=1))
    await lobby.claim_seat("r-00005", "s-1", "Anna")
    assert [e.room for e in await lobby.list_open(None, 10)] == ["r-00001", "r-00003"]
    assert [e.room for e in await lobby.list_open("briscola", 10)] == ["r-00003"]
    assert len(await lobby.list_open(None, 1)) == 1


async def test_claims_fill_human_seats_then_refuse(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-ccccc"))
    assert await lobby.claim_seat("r-ccccc", "s-1", "Anna") == 0
    assert await lobby.claim_seat("r-ccccc", "s-2", "Bo") == 1
    with pytest.raises(ProtocolError) as full:
        await lobby.claim_seat("r-ccccc", "s-3", "Carl")
    assert full.value.code == "room_full"
    with pytest.raises(ProtocolError) as unknown:
        await lobby.claim_seat("r-nope", "s-3", "Carl")
    assert unknown.value.code == "unknown_room"
    await lobby.set_state("r-ccccc", "playing")
    await lobby.set_seat("r-ccccc", 1, SeatEntry())
    with pytest.raises(ProtocolError) as started:
        await lobby.claim_seat("r-ccccc", "s-3", "Carl")
    assert started.value.code == "room_started"


async def test_a_hundred_racing_joiners_get_exactly_the_two_seats(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-race0"))

    async def join(number: int) -> int | str:
        try:
            return await lobby.claim_seat("r-race0", f"s-{number}", f"p{number}")
        except ProtocolError as error:
            return error.code

    seats = await asyncio.gather(*(join(n) for n in range(100)))
    assert sorted(s for s in seats if isinstance(s, int)) == [0, 1]
    assert [s for s in seats if not isinstance(s, int)] == ["room_full"] * 98
    entry = await lobby.get_room("r-race0")
    assert entry is not None
    assert len({s.session for s in entry.seats}) == 2


async def test_quick_match_takes_a_seat_in_an_open_room_of_the_game(lobby: LobbyStore) -> None:
    assert await lobby.quick_match("scopa", "s-1", "Anna") is None
    await lobby.create_room(_entry("r-briscola", game="briscola"))
    await lobby.create_room(_entry("r-scopa1"))
    assert await lobby.quick_match("scopa", "s-1", "Anna") == ("r-scopa1", 0)
    assert await lobby.quick_match("scopa", "s-2", "Bo") == ("r-scopa1", 1)
    assert await lobby.quick_match("scopa", "s-3", "Carl") is None


async def test_delete_frees_the_code(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-ddddd", code="AAAAA"))
    await lobby.delete_room("r-ddddd")
    assert await lobby.get_room("r-ddddd") is None
    assert await lobby.room_by_code("AAAAA") is None
    await lobby.create_room(_entry("r-eeeee", code="AAAAA"))


async def test_sessions_are_found_by_their_current_token_only(lobby: LobbyStore) -> None:
    await lobby.save_session(SessionEntry("s-1", "Anna", "hash-1"))
    found = await lobby.session_by_token("hash-1")
    assert found is not None
    assert found.name == "Anna"
    await lobby.save_session(SessionEntry("s-1", "Anna", "hash-2", room="r-1", seat=0))
    assert await lobby.session_by_token("hash-1") is None  # the old token no longer works
    rotated = await lobby.session_by_token("hash-2")
    assert rotated is not None
    assert (rotated.room, rotated.seat) == ("r-1", 0)
    await lobby.drop_session("s-1")
    assert await lobby.session_by_token("hash-2") is None


async def test_an_entry_round_trips_whole(lobby: LobbyStore) -> None:
    entry = _entry("r-whole")
    entry.options = {}
    entry.turn_seconds = 30.0
    entry.owner = "s-9"
    await lobby.create_room(entry)
    await lobby.claim_seat("r-whole", "s-9", "Åsa")
    back = await lobby.get_room("r-whole")
    assert back is not None
    assert back.options == {}
    assert back.turn_seconds == 30.0
    assert back.owner == "s-9"
    assert back.seats[0] == SeatEntry("human", "Åsa", "s-9", None)


async def test_finished_rooms_expire_in_redis(lobby_url: str) -> None:
    prefix = own_prefix()
    store = RedisLobby(lobby_url, prefix=prefix, finished_ttl=120)
    try:
        await store.create_room(_entry("r-ttl00", code="TTL00"))
        assert await store.redis.ttl(store.room_key("r-ttl00")) == -1  # no expiry while it lives
        await store.set_state("r-ttl00", "finished")
        assert 0 < await store.redis.ttl(store.room_key("r-ttl00")) <= 120
        assert 0 < await store.redis.ttl(prefix + "code:TTL00") <= 120
        assert await store.list_open(None, 10) == []
    finally:
        await delete_keys(store.redis, prefix)
        await store.close()


async def test_nodes_are_alive_while_they_heartbeat(lobby: LobbyStore, elapse: Elapse) -> None:
    await lobby.register_node("node-a", "ws://a.example/", 5.0)
    await lobby.register_node("node-b", "ws://b.example/", 0.05)
    await elapse(0.15)
    assert await lobby.nodes() == {"node-a": "ws://a.example/"}


async def test_a_reservation_is_taken_once_and_expires(lobby: LobbyStore, elapse: Elapse) -> None:
    await lobby.reserve("rsv-1", "r-1", 1, "s-7", 5.0)
    assert await lobby.take_reservation("rsv-1", "s-7") == ("r-1", 1)
    assert await lobby.take_reservation("rsv-1", "s-7") is None
    await lobby.reserve("rsv-2", "r-1", 1, "s-7", 0.05)
    await elapse(0.15)
    assert await lobby.take_reservation("rsv-2", "s-7") is None
    assert await lobby.take_reservation("rsv-unknown", "s-7") is None


async def test_only_its_own_session_consumes_a_reservation(lobby: LobbyStore) -> None:
    await lobby.reserve("rsv-3", "r-1", 2, "s-owner", 5.0)
    assert await lobby.take_reservation("rsv-3", "s-stranger") is None
    assert await lobby.take_reservation("rsv-3", "s-owner") == ("r-1", 2)  # still there for its owner


async def test_a_session_expires_unless_saved_again(lobby: LobbyStore, elapse: Elapse) -> None:
    await lobby.save_session(SessionEntry("s-x", "Anna", "hash-x"))
    await lobby.save_session(SessionEntry("s-y", "Bo", "hash-y"))
    await lobby.expire_session("s-x", 0.05)
    await lobby.expire_session("s-y", 0.05)
    await lobby.save_session(SessionEntry("s-y", "Bo", "hash-y2"))  # back before its time: kept
    await elapse(0.2)
    assert await lobby.session_by_token("hash-x") is None
    kept = await lobby.session_by_token("hash-y2")
    assert kept is not None
    assert kept.name == "Bo"


async def test_a_session_expires_with_its_room_only_while_it_is_still_that_rooms(
    lobby: LobbyStore, elapse: Elapse
) -> None:
    await lobby.save_session(SessionEntry("s-m", "Mia", "hash-m", room="r-new", seat=0))
    await lobby.expire_session("s-m", 0.05, room="r-old")  # the room she has left closes
    await elapse(0.2)
    assert await lobby.session_by_token("hash-m") is not None
    await lobby.expire_session("s-m", 0.05, room="r-new")
    await elapse(0.2)
    assert await lobby.session_by_token("hash-m") is None


async def test_the_memory_lobby_forgets_expired_sessions_and_closed_rooms_journals() -> None:
    clock = FakeClock()
    lobby = MemoryLobby(clock=clock)
    for n in range(50):
        await lobby.save_session(SessionEntry(f"s-{n}", "P", f"hash-{n}"))
        await lobby.expire_session(f"s-{n}", 0.01)
    await lobby.create_room(_entry("r-gone", code="GONE0000"))
    await lobby.save_match("r-gone", {"seed": "x"})
    await lobby.append_action("r-gone", 0, {"seat": 0})
    await lobby.take_lease("r-gone", "node-b", 30.0)
    await lobby.reserve("rsv-old", "r-gone", 0, "s-1", 0.01)
    clock.advance(0.05)
    await lobby.reserve("rsv-new", "r-gone", 1, "s-2", 30.0)  # sweeps the expired one
    await lobby.delete_room("r-gone")
    sizes = lobby.table_sizes()
    assert sizes["lobby_sessions"] == sizes["lobby_tokens"] == sizes["lobby_session_deadlines"] == 0
    assert sizes["lobby_rooms"] == sizes["lobby_codes"] == 0
    assert sizes["lobby_journals"] == sizes["lobby_leases"] == 0
    assert sizes["lobby_reservations"] == 1


async def test_one_node_wins_the_adoption_lease_until_the_room_has_moved(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-lease"))
    assert await lobby.take_lease("r-lease", "node-b", 30.0)
    assert await lobby.take_lease("r-lease", "node-b", 30.0)  # the holder may ask again
    assert not await lobby.take_lease("r-lease", "node-c", 30.0)
    await lobby.move_room("r-lease", "node-b")
    assert "r-lease" in await lobby.rooms_of("node-b")
    # the adopter may die too: the next node need not wait out the lease
    assert await lobby.take_lease("r-lease", "node-c", 30.0)


async def test_journals_written_at_once_by_many_rooms_each_keep_their_order(lobby: LobbyStore) -> None:
    rooms = [f"r-journal{n}" for n in range(40)]
    for room in rooms:
        await lobby.save_match(room, {"game": "briscola", "room": room})

    async def play(room: str) -> None:
        for index in range(5):
            await lobby.append_action(room, index, {"seat": index % 2, "n": index, "room": room})
        await lobby.append_action(room, 2, {"seat": 0, "again": True})  # an index already written: kept once

    await asyncio.gather(*(play(room) for room in rooms))
    for room in rooms:
        match = await lobby.load_match(room)
        assert match is not None
        header, actions = match
        assert header["room"] == room
        assert actions == [{"seat": i % 2, "n": i, "room": room} for i in range(5)]


async def test_redis_commits_the_journal_writes_of_one_turn_in_one_round_trip(
    monkeypatch: pytest.MonkeyPatch, lobby_url: str
) -> None:
    lobby = RedisLobby(lobby_url, prefix=own_prefix())
    pipelines = 0
    make_pipeline = lobby.redis.pipeline

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal pipelines
        pipelines += 1
        return make_pipeline(*args, **kwargs)  # type: ignore[arg-type]

    try:
        await lobby.append_action("r-warm", 0, {"seat": 0})  # the script is loaded once
        monkeypatch.setattr(lobby.redis, "pipeline", counted)
        await asyncio.gather(*(lobby.append_action(f"r-{n}", 0, {"seat": 0}) for n in range(30)))
        assert pipelines == 1
        for n in range(30):
            match = await lobby.redis.lrange(lobby.journal_key("actions", f"r-{n}"), 0, -1)
            assert match == ['{"seat": 0}']
    finally:
        await delete_keys(lobby.redis, lobby.prefix)
        await lobby.close()


@pytest.mark.parametrize("gone", ["redis://127.0.0.1:1/0", "redis+cluster://127.0.0.1:1"])
async def test_every_journal_write_of_a_group_is_told_when_redis_is_gone(gone: str) -> None:
    lobby = RedisLobby(gone, prefix="cardavia-test-gone:")
    try:
        outcomes = await asyncio.gather(
            *(lobby.append_action(f"r-{n}", 0, {"seat": 0}) for n in range(5)), return_exceptions=True
        )
    finally:
        await lobby.close()
    assert all(isinstance(outcome, LobbyUnavailable) for outcome in outcomes), outcomes
