"""Every lobby backend keeps a guest's number with the seat it takes, whichever request takes
it (a join's claim or a quick match, rated or not), so the room list names the guest by it."""

from __future__ import annotations

import json

import pytest

from cardavia.server.lobby import LobbyStore, RoomEntry, SeatEntry, SessionEntry
from cardavia.server.lobby_redis import RedisLobby


def _entry(room: str, *, rated: bool = False) -> RoomEntry:
    return RoomEntry(
        room=room,
        code=room.upper()[-5:],
        game="scopa",
        deck="bolognese",
        options={"target": 11},
        public=True,
        seats=[SeatEntry(), SeatEntry()],
        humans=2,
        bot_level="basic",
        rated=rated,
    )


async def test_a_claimed_seat_keeps_the_guest_number_and_a_named_seat_has_none(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-guest"))
    assert await lobby.claim_seat("r-guest", "s-1", "Player 563", 563) == 0
    listed = await lobby.list_open("scopa", 10)
    assert [s.to_data() for s in listed[0].seats] == [
        {"kind": "human", "name": "Player 563", "bot": None, "guest": 563},
        {"kind": "open", "name": None, "bot": None, "guest": None},
    ]
    assert await lobby.claim_seat("r-guest", "s-2", "Bo") == 1
    entry = await lobby.get_room("r-guest")
    assert entry is not None
    assert [(s.name, s.guest) for s in entry.seats] == [("Player 563", 563), ("Bo", None)]


async def test_a_quick_match_seats_a_guest_under_its_number(lobby: LobbyStore) -> None:
    await lobby.create_room(_entry("r-quick"))
    await lobby.create_room(_entry("r-rated", rated=True))
    assert await lobby.quick_match("scopa", "s-1", "Player 101", guest=101) == ("r-quick", 0)
    assert await lobby.quick_match("scopa", "s-2", "Player 999", rated=True, guest=999) == ("r-rated", 0)
    quick, rated = await lobby.get_room("r-quick"), await lobby.get_room("r-rated")
    assert quick is not None
    assert rated is not None
    assert (quick.seats[0].guest, rated.seats[0].guest) == (101, 999)


async def test_a_session_keeps_its_guest_number(lobby: LobbyStore) -> None:
    await lobby.save_session(SessionEntry("s-g", "Player 563", "hash-g", guest=563))
    found = await lobby.session_by_token("hash-g")
    assert found is not None
    assert (found.name, found.guest) == ("Player 563", 563)


async def test_a_room_a_newer_node_wrote_with_a_field_this_one_does_not_know_still_reads(
    lobby: LobbyStore,
) -> None:
    if not isinstance(lobby, RedisLobby):
        pytest.skip("only a shared lobby holds documents other nodes wrote")
    await lobby.create_room(_entry("r-newer"))
    key = lobby.room_key("r-newer")
    document = json.loads(await lobby.redis.get(key))
    document["seats"][0] = {"kind": "human", "name": "Ola", "session": "s-9", "bot": None, "badge": "gold"}
    document["theme"] = "green"  # fields of a later version
    await lobby.redis.set(key, json.dumps(document))
    entry = await lobby.get_room("r-newer")
    assert entry is not None
    assert (entry.seats[0].name, entry.seats[0].guest) == ("Ola", None)
