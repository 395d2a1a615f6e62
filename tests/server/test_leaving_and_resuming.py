"""What leaving a room means, what a session comes back to, and how many rooms a connection holds."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.lobby import MemoryLobby, SessionEntry
from tests.support.clients import client, seated_pair
from tests.support.servers import own_server, server_config
from tests.support.waiting import wait_until


async def test_one_connection_plays_match_after_match_without_running_out_of_rooms(tmp_path: Path) -> None:
    async with own_server(tmp_path, max_rooms_per_connection=3) as (_, url):
        anna = await client(url)
        await anna.hello()
        for number in range(5):  # the terminal client keeps one connection for every game
            await anna.send(m.PlayNow(id=number + 1, game="briscola", bot_level="random"))
            await anna.expect(m.Snapshot)
            await anna.play_until_over(random.Random(number))


async def test_a_room_left_to_bots_alone_closes_and_counts_against_no_limit(tmp_path: Path) -> None:
    # A person who plays against bots and moves on, again and again, is never refused a room:
    # each match they leave to bots alone closes at once, so nothing plays on for nobody.
    async with own_server(tmp_path, max_rooms_per_connection=1, bot_delay=5.0) as (server, url):
        eve = await client(url, "Eve")
        await eve.hello()
        rooms = []
        for _ in range(3):
            await eve.send(eve.req.create_room("scopa", humans=1, fill_after=0))
            await eve.expect(m.Snapshot)
            started: m.Snapshot = await eve.expect(m.Snapshot)
            assert started.room.state == "playing"
            rooms.append(started.room.room)
            await eve.send(eve.req.leave())
            await eve.expect(m.Left)
        assert len(set(rooms)) == 3
        assert not [room for room in rooms if room in server.rooms]


class SlowSessions(MemoryLobby):
    """A lobby whose session writes take a while, as a remote store's may under load."""

    async def save_session(self, entry: SessionEntry, ttl: float | None = None) -> None:
        await asyncio.sleep(0.2)  # the slow write itself, not a wait for something
        await super().save_session(entry, ttl)


async def test_a_player_who_drops_right_after_joining_comes_back_to_the_seat(tmp_path: Path) -> None:
    server = CardaviaServer(server_config(tmp_path), lobby=SlowSessions())
    await server.start()
    url = f"ws://127.0.0.1:{server.port}/"
    try:
        anna, bo = await client(url, "Anna"), await client(url, "Bo")
        await anna.hello()
        welcome = await bo.hello()
        await anna.send(anna.req.create_room("briscola", humans=2, public=False))
        made: m.Snapshot = await anna.expect(m.Snapshot)
        await bo.send(bo.req.join(code=made.room.code))
        await bo.expect(m.Snapshot)  # and at once the network drops
        await bo.ws.close()
        back = await client(url, "Bo")
        again = await back.hello(resume=welcome.resume)
        assert again.room == made.room.room
        seated: m.Snapshot = await back.expect(m.Snapshot)
        assert seated.seat == 1
    finally:
        await server.shutdown()


async def test_a_player_who_dropped_before_the_start_gets_a_stand_in_after_the_grace_period(
    tmp_path: Path,
) -> None:
    # A private room has no turn timer: without the grace period at the start, nobody would
    # ever play the absent player's turns.
    async with own_server(tmp_path, grace_seconds=0.2) as (server, url):
        anna, bo = await client(url, "Anna"), await client(url, "Bo")
        await anna.hello()
        await bo.hello()
        await anna.send(anna.req.create_room("briscola", humans=2, public=False))
        made: m.Snapshot = await anna.expect(m.Snapshot)
        await bo.send(bo.req.join(code=made.room.code))
        await bo.expect(m.Snapshot)
        await bo.ws.close()
        room = server.rooms[made.room.room]
        await wait_until(lambda: room.seats[1].conn is None, "Bo's connection is gone")
        await anna.send(anna.req.start())
        started: m.Snapshot = await anna.expect(m.Snapshot)
        assert started.room.seats[1]["kind"] == "human"  # still Bo's seat
        result = await anna.play_until_over(random.Random(5), timeout=10)
        assert result.reason
        assert room.auto_moves  # Bo's turns, played by the stand-in and marked in the record


async def test_leaving_a_match_hands_the_seat_to_a_bot_at_once_and_for_good(tmp_path: Path) -> None:
    async with own_server(tmp_path, grace_seconds=60.0) as (server, url):
        anna, bo = await seated_pair(url, "briscola")
        await anna.send(anna.req.start())
        await anna.expect(m.Snapshot)
        await bo.send(m.Leave(id=7))
        await bo.expect(m.Left)
        room = next(iter(server.rooms.values()))
        # Bo's turns are played by the stand-in at once, not after the 60 s grace period
        result = await anna.play_until_over(random.Random(4), timeout=10)
        assert result.reason
        assert room.auto_moves  # the stand-in's moves are marked in the record
        back = await client(url, "Bo")
        welcome = await back.hello(resume=bo.resume)
        assert welcome.room is None  # a deliberate leave gives the seat up


async def test_resuming_after_leaving_a_waiting_room_does_not_name_that_room(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (_, url):
        anna, bo = await seated_pair(url)
        await bo.send(m.Leave(id=7))
        await bo.expect(m.Left)
        await bo.ws.close()
        back = await client(url, "Bo")
        welcome = await back.hello(resume=bo.resume)
        assert welcome.room is None
        await anna.send(anna.req.start())  # and the room did not keep a seat for him
        started: m.Snapshot = await anna.expect(m.Snapshot)
        while started.room.state != "playing":  # the snapshots that told her of Bo coming and going
            started = await anna.expect(m.Snapshot)
        assert [s["kind"] for s in started.room.seats] == ["human", "bot"]


async def test_a_second_quick_match_never_gives_one_session_two_seats(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (server, url):
        anna = await client(url)
        await anna.hello()
        for number in range(2):
            await anna.send(m.QuickMatch(id=number + 1, game="briscola"))
            await anna.expect(m.Snapshot)
        seats = [s.session for room in server.rooms.values() for s in room.seats if s.kind == "human"]
        assert seats.count(anna.session) == 1
        assert all(room.state is None for room in server.rooms.values())  # nobody plays against herself


async def test_watching_a_new_room_of_bots_stops_watching_the_old_one(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (server, url):
        eve = await client(url, "Eve")
        await eve.hello()
        for _number in range(2):
            await eve.send(eve.req.create_room("scopa", humans=0, fill_after=3600))
            await eve.expect(m.Snapshot)
        watched = [room for room in server.rooms.values() if room.spectators]
        assert len(watched) == 1
