"""Guests and bots are named by number and level, not by English words: a hello without a name
is a guest the server numbers (or the client keeps the number of), and that number, or a bot's
level, goes with the English fallback name wherever a person is named (seats, the lobby's room
list, chat, records, history), so each client names them in its reader's language."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cardavia.bots.registry import make_bot
from cardavia.games.registry import GAMES
from cardavia.games.traditions import default_tradition
from cardavia.protocol import messages as m
from cardavia.protocol.codec import pack
from cardavia.server.app import CardaviaServer
from cardavia.server.bot_runner import BotRunner
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import RoomEntry, SeatEntry
from cardavia.server.room import Room
from tests.support.clients import Client, client
from tests.support.postgres import fresh_database
from tests.support.servers import server_config
from tests.support.waiting import wait_until


async def greeted(url: str, name: str | None = None, guest: int | None = None, **fields: Any) -> Client:
    c = await client(url, name or "guest")
    await c.send(c.req.hello(name, guest=guest, **fields))
    await c.expect(m.Welcome)
    return c


def welcome_of(c: Client) -> m.Welcome:
    return next(x for x in c.received if isinstance(x, m.Welcome))


async def test_a_hello_with_no_name_is_a_guest_the_server_numbers(url: str) -> None:
    numbers = set()
    for _ in range(6):
        c = await greeted(url)
        guest = welcome_of(c).guest
        assert isinstance(guest, int)
        assert 100 <= guest <= 999
        numbers.add(guest)
        await c.send(c.req.play_now("briscola"))
        snapshot: m.Snapshot = await c.expect(m.Snapshot)
        mine = snapshot.room.seats[snapshot.seat or 0]
        assert (mine["guest"], mine["name"], mine["kind"]) == (guest, f"Player {guest}", "human")
        await c.ws.close()
    assert len(numbers) > 1  # drawn afresh for each new session, not one number for everyone


async def test_a_guest_keeps_its_number_in_seats_the_room_list_and_chat(url: str) -> None:
    guest = await greeted(url, guest=563)
    assert welcome_of(guest).guest == 563
    await guest.send(guest.req.create_room("scopa", humans=2))
    snapshot: m.Snapshot = await guest.expect(m.Snapshot)
    assert snapshot.room.seats[0]["guest"] == 563
    assert snapshot.room.seats[0]["name"] == "Player 563"

    bo = await greeted(url, "Bo")
    assert welcome_of(bo).guest is None
    await bo.send(bo.req.list_rooms("scopa"))
    rooms: m.Rooms = await bo.expect(m.Rooms)
    listed = next(r for r in rooms.rooms if r.room == snapshot.room.room)
    assert (listed.seats[0]["guest"], listed.seats[0]["name"]) == (563, "Player 563")

    await bo.send(bo.req.join(room=snapshot.room.room))
    joined: m.Snapshot = await bo.expect(m.Snapshot)
    assert [(s["name"], s["guest"]) for s in joined.room.seats] == [("Player 563", 563), ("Bo", None)]

    await guest.send(guest.req.chat("ciao"))
    line: m.ChatMessage = await bo.expect(m.ChatMessage)
    assert (line.seat, line.name, line.guest, line.text) == (0, "Player 563", 563, "ciao")
    own: m.ChatMessage = await guest.expect(m.ChatMessage)  # the sender's own copy first
    assert (own.name, own.guest) == ("Player 563", 563)
    await bo.send(bo.req.chat("hej"))
    named: m.ChatMessage = await guest.expect(m.ChatMessage)
    assert (named.name, named.guest) == ("Bo", None)


async def test_a_name_given_wins_over_a_guest_number(url: str) -> None:
    anna = await greeted(url, "Anna", guest=563)
    assert welcome_of(anna).guest is None
    await anna.send(anna.req.play_now("scopa"))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    assert (snapshot.room.seats[0]["name"], snapshot.room.seats[0]["guest"]) == ("Anna", None)


async def test_a_resumed_guest_keeps_its_number_and_its_seat(url: str) -> None:
    first = await greeted(url)
    number = welcome_of(first).guest
    await first.send(first.req.play_now("scopa"))
    await first.expect(m.Snapshot)
    await first.ws.close()
    again = await client(url, "again")
    await again.send(again.req.hello(None, resume=first.resume))
    welcome: m.Welcome = await again.expect(m.Welcome)
    assert (welcome.session, welcome.guest) == (first.session, number)
    snapshot: m.Snapshot = await again.expect(m.Snapshot)
    assert (snapshot.room.seats[0]["guest"], snapshot.room.seats[0]["name"]) == (number, f"Player {number}")


@pytest.mark.parametrize("guest", [99, 1000, -563, "563", 563.0, True, None])
async def test_a_guest_number_out_of_range_or_not_a_whole_number_is_refused(
    server: CardaviaServer, url: str, guest: Any
) -> None:
    c = await client(url, "guest")
    frame = {"type": "hello", "id": 1, "version": 2, "guest": guest}
    if guest is None:
        frame["guest"] = {"number": 563}  # not a number at all
    await c.ws.send(pack(frame))
    error = await c.recv()
    assert isinstance(error, m.Error)
    assert (error.id, error.code) == (1, "invalid_field")
    assert error.message.startswith("guest:")
    assert c.session is None
    assert not server.sessions
    welcome = await c.hello()  # the same connection may say hello again, correctly
    assert welcome.session in server.sessions


async def test_bots_and_guests_go_into_the_record_by_level_and_number(url: str) -> None:
    guest = await greeted(url, guest=717)
    await guest.send(guest.req.play_now("briscola", "random"))
    await guest.play_until_over(random.Random(7))
    result = next(x for x in guest.received if isinstance(x, m.MatchResult))
    assert result.record is not None
    await guest.send(m.GetRecord(id=90, record=result.record))
    record: m.RecordMessage = await guest.expect(m.RecordMessage)
    assert record.record["seats"] == [
        {"name": "Player 717", "kind": "human", "bot": None, "guest": 717},
        {"name": "Bot 2 (random)", "kind": "bot", "bot": "random"},
    ]


# ------------------------------------------------------------------ history, on both archives
@pytest.fixture(params=("sqlite", "postgres"))
async def archived_config(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[ServerConfig]:
    if request.param == "sqlite":
        yield server_config(tmp_path)
        return
    async with fresh_database() as database:
        yield server_config(tmp_path, database_url=database)


async def test_history_names_a_bot_by_its_level_and_a_guest_by_its_number(
    archived_config: ServerConfig,
) -> None:
    server = CardaviaServer(archived_config)
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/"
        guest = await greeted(url, guest=563)
        await guest.send(guest.req.create_profile("Anna"))
        profile: m.Profile = await guest.expect(m.Profile)
        await guest.send(guest.req.play_now("briscola", "basic"))
        await guest.play_until_over(random.Random(3))

        async def matches() -> list[m.HistoryEntry]:
            await guest.send(guest.req.get_history())
            history: m.History = await guest.expect(m.History)
            return history.matches

        entries = await wait_until(matches, "the match is in the history")
        players = entries[0].players
        assert players[0] == {"name": "Player 563", "bot": False, "player": profile.player.id, "guest": 563}
        assert players[1] == {"name": "Bot 2 (basic)", "bot": True, "player": None, "level": "basic"}
    finally:
        await server.shutdown()


# ------------------------------------------------------------------ a room adopted from its journal
class Journal:
    def __init__(self) -> None:
        self.header: dict[str, Any] = {}

    async def save_match(self, room: str, header: dict[str, Any]) -> None:
        self.header = header

    async def append_action(self, room: str, index: int, action: dict[str, Any]) -> None:
        pass


class Person:
    session = "s-guest"

    def send(self, message: Any) -> None:
        pass


def _room(journal: Journal | None, runner: BotRunner) -> Room:
    entry = RoomEntry(
        room="r-adopt", code="ADOPT123", game="briscola", deck=default_tradition("briscola").id,
        options=GAMES["briscola"].options({}), public=False, seats=[SeatEntry(), SeatEntry()],
        humans=1, bot_level="strong",
    )  # fmt: skip
    return Room(
        entry, runner=runner, make_bot=make_bot, bot_delay=60.0, grace_seconds=60.0,
        on_finish=lambda room, record: room.id, journal=journal,
    )  # fmt: skip


async def test_a_room_rebuilt_from_its_journal_seats_the_guest_under_its_number() -> None:
    runner, journal = BotRunner(0), Journal()
    first = _room(journal, runner)
    adopted = _room(None, runner)
    try:
        first.sit(0, Person(), "Player 563", guest=563)
        await first.start("seed-adopt")
        assert [(s["name"], s["guest"]) for s in journal.header["seats"]] == [
            ("Player 563", 563),
            ("Bot 2 (strong)", None),
        ]
        adopted.restore(journal.header, [])
        seats = adopted.info().seats
        assert [(s["name"], s["kind"], s["bot"], s["guest"]) for s in seats] == [
            ("Player 563", "human", None, 563),
            ("Bot 2 (strong)", "bot", "strong", None),
        ]
    finally:
        first.close()
        adopted.close()
        runner.close()
