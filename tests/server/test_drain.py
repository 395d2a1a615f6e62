"""A node going down (SIGTERM's drain): what is under way when it begins."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.bot_runner import BotRunner
from cardavia.server.config import ServerConfig
from cardavia.server.lobby import MemoryLobby, RoomEntry, SeatEntry, SessionEntry
from cardavia.server.room import Room
from cardavia.server.rooms import make_bot
from tests.support.clients import Client, client
from tests.support.waiting import wait_until


async def _read_until_closed(reader: Client) -> None:
    while True:
        await reader.recv()


class HeldLobby(MemoryLobby):
    """Holds the next ``save_session`` (the handshake's rotation of the resume token) until released."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    async def save_session(self, entry: SessionEntry) -> None:
        if self.hold:
            self.hold = False
            self.holding.set()
            await self.release.wait()
        await super().save_session(entry)


async def test_a_hello_under_way_when_the_drain_begins_gets_its_welcome_before_the_close(
    config: ServerConfig,
) -> None:
    """The lobby has rotated the resume token by then: without the welcome the player is locked out."""
    lobby = HeldLobby()
    first = CardaviaServer(config, lobby=lobby)
    await first.start()
    anna = await client(f"ws://127.0.0.1:{first.port}/")
    await anna.hello()
    await anna.send(anna.req.play_now("briscola", "random"))
    await anna.expect(m.Snapshot)
    await anna.ws.close()

    again = await client(f"ws://127.0.0.1:{first.port}/")
    lobby.hold = True
    await again.send(again.req.hello("Anna", resume=anna.resume))
    await lobby.holding.wait()
    draining = asyncio.create_task(first.shutdown())
    listener = first.listener
    assert listener is not None
    # the drain stops the listener and asks every connection to close in one step
    await wait_until(lambda: not listener.serving, "the drain asking every connection to close")
    lobby.release.set()
    welcome: m.Welcome = await again.expect(m.Welcome)
    with pytest.raises(ConnectionClosed):
        await _read_until_closed(again)
    assert again.ws.close_code == 1012
    await draining

    second = CardaviaServer(config, lobby=lobby)  # the node back, on the same lobby
    await second.start()
    try:
        back = await client(f"ws://127.0.0.1:{second.port}/")
        assert (await back.hello(resume=welcome.resume)).session == welcome.session
    finally:
        await second.shutdown()


class Sink:
    def __init__(self) -> None:
        self.session = "s-anna"
        self.received: list[Any] = []

    def send(self, message: Any) -> None:
        self.received.append(message)


async def test_a_frozen_room_completes_a_move_under_way_and_starts_no_bot_move() -> None:
    """A draining node freezes its rooms: once its heartbeat has stopped, another node may adopt
    a room and play the next turn itself, so the room's own bot must not play it too."""
    entry = RoomEntry(
        "r-drain", "DRAIN", "briscola", "napoletane", {}, False, [SeatEntry(), SeatEntry()], 1, "random"
    )
    room = Room(
        entry,
        runner=BotRunner(0),
        make_bot=make_bot,
        bot_delay=0.0,
        grace_seconds=60.0,
        on_finish=lambda room, record: "unused",
        journal=MemoryLobby(),
    )
    room.sit(0, Sink(), "Anna")
    await room.start("r-drain/0/seed")
    await wait_until(  # the bot plays first when it leads
        lambda: room.state is not None and room.state.to_move == 0, "the person's turn", timeout=1.0
    )
    assert room.state is not None
    assert room.state.to_move == 0
    before = room.accepted
    room.freeze()  # what the drain does first; the person's move is already under way
    await room.act(0, random.Random(3).choice(room.state.legal_actions(0)).to_data())
    assert room.state.to_move == 1
    await asyncio.sleep(0.1)  # an inline bot with no delay would have moved many times over
    assert room.accepted == before + 1
    await room.settle()
    room.close()
