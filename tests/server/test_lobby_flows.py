"""Rooms from the lobby's side: listing, codes, quick match, chat, records, rematch, HTTP endpoints."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import urllib.request

import pytest

from cardavia.games.records import replay
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import RoomEntry
from cardavia.server.lobby_redis import RedisLobby
from tests.support.clients import client, seated_pair
from tests.support.redis import delete_keys, own_prefix
from tests.support.waiting import wait_until


async def test_quick_match_pairs_two_players_and_starts(url: str) -> None:
    anna, bo = await client(url, "Anna"), await client(url, "Bo")
    await anna.hello()
    await bo.hello()
    await anna.send(anna.req.quick_match("briscola"))
    first: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.send(bo.req.quick_match("briscola"))
    second: m.Snapshot = await bo.expect(m.Snapshot)
    assert first.room.room == second.room.room
    results = await asyncio.gather(
        anna.play_until_over(random.Random(1)), bo.play_until_over(random.Random(2))
    )
    assert results[0].record == results[1].record


async def test_public_rooms_are_listed_and_private_ones_only_reached_by_code(url: str) -> None:
    anna, bo = await client(url, "Anna"), await client(url, "Bo")
    await anna.hello()
    await bo.hello()
    await anna.send(anna.req.create_room("scopa", humans=2, public=False))
    private: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.send(m.ListRooms(id=5))
    listed: m.Rooms = await bo.expect(m.Rooms)
    assert private.room.room not in [r.room for r in listed.rooms]
    await bo.send(bo.req.join(room=private.room.room))
    refused: m.Error = await bo.expect(m.Error)
    assert refused.code == "unknown_room"
    await bo.send(bo.req.join(code=(private.room.code or "").lower()))
    joined: m.Snapshot = await bo.expect(m.Snapshot)
    assert joined.seat == 1

    carl = await client(url, "Carl")
    await carl.hello()
    await carl.send(carl.req.create_room("briscola", humans=2, public=True))
    public: m.Snapshot = await carl.expect(m.Snapshot)
    await bo.send(m.ListRooms(id=6, game="briscola"))
    listed = await bo.expect(m.Rooms)
    assert [r.room for r in listed.rooms] == [public.room.room]
    dave = await client(url, "Dave")
    await dave.hello()
    await dave.send(dave.req.join(code=private.room.code))
    full: m.Error = await dave.expect(m.Error)
    assert full.code == "room_full"


async def test_only_the_owner_starts_and_chat_reaches_the_room(url: str) -> None:
    anna, bo = await seated_pair(url, "doudizhu")
    await bo.send(bo.req.start())
    error: m.Error = await bo.expect(m.Error)
    assert error.code == "not_room_owner"
    await bo.send(bo.req.chat("ciao!"))
    line: m.ChatMessage = await anna.expect(m.ChatMessage)
    assert (line.name, line.text, line.seat) == ("Bo", "ciao!", 1)


async def test_records_are_retrievable_by_id_and_a_rematch_starts_a_new_match(
    server: CardaviaServer, url: str
) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    result = await anna.play_until_over(random.Random(4))
    await anna.send(m.GetRecord(id=40, record=result.record or ""))
    fetched: m.RecordMessage = await anna.expect(m.RecordMessage)
    assert fetched.id == 40
    assert replay(fetched.record).ok
    await anna.send(m.GetRecord(id=41, record="nope"))
    missing: m.Error = await anna.expect(m.Error)
    assert missing.code == "unknown_record"
    await anna.send(m.Rematch(id=42))
    again = await anna.play_until_over(random.Random(5))
    assert again.record != result.record


async def test_a_catalogue_lists_games_decks_and_bots(url: str) -> None:
    anna = await client(url)
    await anna.send(anna.req.hello("Anna", lang="sv"))
    await anna.expect(m.Welcome)
    await anna.send(m.GetCatalogue(id=2))
    catalogue: m.Catalogue = await anna.expect(m.Catalogue)
    assert {g["id"] for g in catalogue.games} >= {"scopa", "briscola"}
    assert any(d["id"] == "bolognese" for d in catalogue.decks)
    assert catalogue.bots


async def test_healthz_and_metrics_over_http(server: CardaviaServer, url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    await anna.play_until_over(random.Random(6))
    base = f"http://127.0.0.1:{server.port}"

    def get(path: str) -> tuple[int, str]:
        with urllib.request.urlopen(base + path, timeout=5) as response:
            return response.status, response.read().decode()

    status, body = await asyncio.to_thread(get, "/healthz")
    assert (status, body.strip()) == (200, "ok")
    status, body = await asyncio.to_thread(get, "/metrics")
    assert status == 200
    assert "cardavia_connections 1.0" in body
    assert 'cardavia_actions_total{game="briscola"}' in body
    assert 'cardavia_rooms{game="briscola",state="finished"} 1.0' in body


async def test_rooms_close_when_everyone_has_gone(server: CardaviaServer, url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.create_room("scopa", humans=2))
    await anna.expect(m.Snapshot)
    assert len(server.rooms) == 1
    await anna.ws.close()
    await wait_until(lambda: not server.rooms, "the waiting room closed", timeout=1.0)
    assert not server.rooms

    bo = await client(url, "Bo")
    await bo.hello()
    await bo.send(bo.req.play_now("briscola", "random"))
    await bo.play_until_over(random.Random(9))
    assert len(server.rooms) == 1  # Bo is still there, and may ask for a rematch
    await bo.ws.close()
    # a finished room waits a grace period for its players
    await wait_until(
        lambda: not server.rooms, "the finished room closed", timeout=server.config.grace_seconds + 1.0
    )
    assert not server.rooms


async def test_bots_fill_the_seats_after_the_waiting_time(url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(m.CreateRoom(id=3, game="doudizhu", humans=3, bot_level="random", fill_after=0.2))
    await anna.expect(m.Snapshot)
    result = await anna.play_until_over(random.Random(11))
    assert result.record


async def test_chat_is_rate_limited(url: str) -> None:
    anna = await client(url)
    await anna.hello()
    await anna.send(anna.req.play_now("scopa", "random"))
    await anna.expect(m.Snapshot)
    for number in range(8):
        await anna.send(m.Chat(id=100 + number, text=f"line {number}"))
    seen: list[str] = []
    while len(seen) < 8:
        message = await anna.recv()
        if isinstance(message, m.ChatMessage):
            seen.append("chat")
        elif isinstance(message, m.Error):
            seen.append(message.code)
    assert seen.count("chat") == 5
    assert seen.count("rate_limited") == 3


async def test_a_server_on_the_redis_lobby_pairs_a_quick_match(config: ServerConfig, lobby_url: str) -> None:
    prefix = own_prefix()
    redis_config = dataclasses.replace(config, redis_url=lobby_url, redis_prefix=prefix)
    srv = CardaviaServer(redis_config)
    await srv.start()
    try:
        url = f"ws://127.0.0.1:{srv.port}/"
        anna, bo = await client(url, "Anna"), await client(url, "Bo")
        await anna.hello()
        await bo.hello()
        await anna.send(anna.req.quick_match("scopa"))
        first: m.Snapshot = await anna.expect(m.Snapshot)
        await bo.send(bo.req.quick_match("scopa"))
        second: m.Snapshot = await bo.expect(m.Snapshot)
        assert first.room.room == second.room.room
        results = await asyncio.gather(
            anna.play_until_over(random.Random(1)), bo.play_until_over(random.Random(2))
        )
        assert results[0].record == results[1].record

        async def finished() -> RoomEntry | None:
            entry = await srv.lobby.get_room(first.room.room)
            return entry if entry is not None and entry.state == "finished" else None

        # the lobby learns of the end in the background
        stored = await wait_until(finished, "the lobby's entry finished", timeout=2.0)
        assert stored is not None
        assert stored.state == "finished"
    finally:
        await srv.shutdown()
        assert isinstance(srv.lobby, RedisLobby)
        await delete_keys(srv.lobby.redis, prefix)
        await srv.lobby.close()


async def test_a_bot_level_the_game_lacks_is_refused(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardavia.server import rooms

    monkeypatch.setattr(rooms, "levels_for", lambda game: ["random"])
    anna = await client(url)
    await anna.hello()
    await anna.send(m.CreateRoom(id=2, game="scopa", humans=1, bot_level="strong"))
    error: m.Error = await anna.expect(m.Error)
    assert error.code == "invalid_field"
    assert "bot_level" in error.message
    await anna.send(m.CreateRoom(id=3, game="scopa", humans=1, bot_level="random"))
    await anna.expect(m.Snapshot)


async def test_people_waiting_in_a_room_see_others_arrive_and_leave(url: str) -> None:
    anna, bo = await client(url, "Anna"), await client(url, "Bo")
    await anna.hello()
    await bo.hello()
    await anna.send(anna.req.create_room("doudizhu", humans=3))
    made: m.Snapshot = await anna.expect(m.Snapshot)
    assert [s.get("name") for s in made.room.seats] == ["Anna", None, None]
    await bo.send(bo.req.join(room=made.room.room))
    await bo.expect(m.Snapshot)
    arrived: m.Snapshot = await anna.expect(m.Snapshot)
    assert [s.get("name") for s in arrived.room.seats] == ["Anna", "Bo", None]
    await bo.send(bo.req.leave())
    left: m.Snapshot = await anna.expect(m.Snapshot)
    assert [s.get("name") for s in left.room.seats] == ["Anna", None, None]
