"""Quick match by rating: rated requests find rated rooms only, casual ones casual rooms only; a
rated request takes the room whose waiting player's rating is nearest, within a window that
widens the longer the room has waited. Every lobby backend (memory, one Redis, a Redis Cluster)
pairs alike; a live server pairs profiles into rated rooms and anonymous players into casual ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.lobby import (
    RATING_WINDOW,
    RATING_WINDOW_GROWTH,
    UNRATED_DISTANCE,
    LobbyStore,
    MemoryLobby,
    RoomEntry,
    SeatEntry,
    pairing_distance,
)
from tests.server.store.helpers import bot, match_end, person
from tests.support.clients import Client, client
from tests.support.clock import Elapse, FakeClock
from tests.support.servers import server_config


def waiting_room(room: str, *, rated: bool, rating: float | None = None, game: str = "scopa") -> RoomEntry:
    """A public room of two seats for people, its first taken by the player waiting in it."""
    return RoomEntry(
        room=room,
        code=room.upper()[-6:],
        game=game,
        deck="bolognese",
        options={"target": 11},
        public=True,
        seats=[SeatEntry("human", "Waiting", f"s-{room}"), SeatEntry()],
        humans=2,
        bot_level="basic",
        rated=rated,
        rating=rating,
    )


def test_the_window_starts_at_its_base_and_widens_with_waiting() -> None:
    assert pairing_distance(1500.0 + RATING_WINDOW, 1500.0, 0.0) == RATING_WINDOW
    assert pairing_distance(1500.0 + RATING_WINDOW + 1, 1500.0, 0.0) is None
    assert pairing_distance(1500.0 - RATING_WINDOW - 1, 1500.0, 1.0) == RATING_WINDOW + 1
    assert pairing_distance(2000.0, 1500.0, (500 - RATING_WINDOW) / RATING_WINDOW_GROWTH) == 500.0
    assert pairing_distance(None, 1500.0, 0.0) == UNRATED_DISTANCE
    assert pairing_distance(1600.0, 1500.0, -5.0) == 100.0  # a clock step back narrows nothing


async def test_rated_and_casual_rooms_never_mix(lobby: LobbyStore) -> None:
    await lobby.create_room(waiting_room("r-casual", rated=False))
    await lobby.create_room(waiting_room("r-rated", rated=True, rating=1500.0))
    assert await lobby.quick_match("scopa", "s-1", "Anna", rated=True, rating=1500.0) == ("r-rated", 1)
    assert await lobby.quick_match("scopa", "s-2", "Bo") == ("r-casual", 1)
    assert await lobby.quick_match("scopa", "s-3", "Cy", rated=True, rating=1500.0) is None
    assert await lobby.quick_match("scopa", "s-4", "Dee") is None
    assert await lobby.quick_match("briscola", "s-5", "Eve", rated=True, rating=1500.0) is None


async def test_a_rated_request_takes_the_nearest_room_in_its_window(lobby: LobbyStore) -> None:
    for room, rating in (("r-1500", 1500.0), ("r-1690", 1690.0), ("r-1580", 1580.0), ("r-1640", 1640.0)):
        await lobby.create_room(waiting_room(room, rated=True, rating=rating))
    await lobby.create_room(waiting_room("r-2400", rated=True, rating=2400.0))
    taken = [await lobby.quick_match("scopa", f"s-{n}", "P", rated=True, rating=1600.0) for n in range(5)]
    assert taken == [("r-1580", 1), ("r-1640", 1), ("r-1690", 1), ("r-1500", 1), None]
    entry = await lobby.get_room("r-1580")
    assert entry is not None
    assert entry.seats[1] == SeatEntry("human", "P", "s-0")


async def test_the_window_widens_the_longer_a_room_waits(lobby: LobbyStore, elapse: Elapse) -> None:
    await lobby.create_room(waiting_room("r-far", rated=True, rating=1700.0))
    assert await lobby.quick_match("scopa", "s-1", "Anna", rated=True, rating=1500.0) is None
    await elapse(1.2)  # 150 + 50 x 1.2 = 210 points: 1500 is within reach of 1700 now
    assert await lobby.quick_match("scopa", "s-1", "Anna", rated=True, rating=1500.0) == ("r-far", 1)


async def test_a_rated_room_without_a_rating_comes_after_every_room_with_one(lobby: LobbyStore) -> None:
    await lobby.create_room(waiting_room("r-none", rated=True, rating=None))
    await lobby.create_room(waiting_room("r-near", rated=True, rating=1510.0))
    await lobby.create_room(waiting_room("r-out", rated=True, rating=2400.0))
    assert await lobby.quick_match("scopa", "s-1", "A", rated=True, rating=1500.0) == ("r-near", 1)
    assert await lobby.quick_match("scopa", "s-2", "B", rated=True, rating=1500.0) == ("r-none", 1)
    assert await lobby.quick_match("scopa", "s-3", "C", rated=True, rating=1500.0) is None


async def test_a_room_that_stopped_waiting_is_passed_over(lobby: LobbyStore) -> None:
    await lobby.create_room(waiting_room("r-started", rated=True, rating=1500.0))
    await lobby.create_room(waiting_room("r-open", rated=True, rating=1620.0))
    await lobby.set_state("r-started", "playing")
    assert await lobby.quick_match("scopa", "s-1", "A", rated=True, rating=1500.0) == ("r-open", 1)


# ------------------------------------------------------------------------------ live server
async def with_profile(url: str, name: str) -> tuple[Client, m.Profile]:
    c = await client(url, name)
    await c.hello()
    await c.send(c.req.create_profile(name))
    profile: m.Profile = await c.expect(m.Profile)
    return c, profile


async def room_after(c: Client, request: m.Request) -> m.RoomInfo:
    await c.send(request)
    snapshot: m.Snapshot = await c.expect(m.Snapshot)
    return snapshot.room


async def test_profiles_are_paired_rated_and_anonymous_players_casual(url: str) -> None:
    anna, _ = await with_profile(url, "Anna")
    rated = await room_after(anna, anna.req.quick_match("briscola"))  # null: rated, with a profile
    assert rated.rated

    bo = await client(url, "Bo")
    await bo.hello()
    casual = await room_after(bo, bo.req.quick_match("briscola"))
    assert (casual.rated, casual.room != rated.room) == (False, True)
    await bo.send(bo.req.quick_match("briscola", rated=True))
    refused: m.Error = await bo.expect(m.Error)
    assert refused.code == "profile_required"

    cy, _ = await with_profile(url, "Cy")
    assert (await room_after(cy, cy.req.quick_match("briscola"))).room == rated.room
    dee, _ = await with_profile(url, "Dee")
    assert (await room_after(dee, dee.req.quick_match("briscola", rated=False))).room == casual.room


async def test_a_rated_quick_match_pairs_by_the_archived_rating(tmp_path: Path) -> None:
    """A strong player's archived rating keeps them out of a beginner's room, until the room has
    waited long enough for its window to reach them (the lobby's clock is the test's)."""
    clock = FakeClock()
    server = CardaviaServer(server_config(tmp_path), lobby=MemoryLobby(clock=clock))
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/"
        pro, profile = await with_profile(url, "Pro")
        for n in range(6):
            end = match_end(f"r-pro-{n}", [person("Pro", profile.player.id), bot("strong", 1650.0)])
            await server.archive.record_match(end)
        standing = await server.archive.standing(profile.player.id, "scopa")
        assert standing is not None
        assert standing.rating > 1500.0 + RATING_WINDOW
        beginner, _ = await with_profile(url, "Beginner")
        waiting = await room_after(beginner, beginner.req.quick_match("scopa"))
        assert server.rooms[waiting.room].entry.rating == 1500.0  # no rated match yet: the default

        mine = await room_after(pro, pro.req.quick_match("scopa"))
        assert mine.room != waiting.room
        assert mine.rated
        assert server.rooms[mine.room].entry.rating == pytest.approx(standing.rating)
        await pro.send(pro.req.leave())
        await pro.expect(m.Left)

        clock.advance((standing.rating - 1500.0 - RATING_WINDOW) / RATING_WINDOW_GROWTH + 0.1)
        assert (await room_after(pro, pro.req.quick_match("scopa"))).room == waiting.room
    finally:
        await server.shutdown()
