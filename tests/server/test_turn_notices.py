"""A seat's player gets one ``your_turn`` per seq on a connection, however it came back: after a
short drop, after a drop long enough for a stand-in bot to take the seat, with or without
``last_seq``, and on a resync; and one coming back keeps the deadline the turn already had."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from pathlib import Path

import pytest

from cardavia.protocol import messages as m
from cardavia.server.bot_runner import BotRunner
from cardavia.server.room import Room
from tests.support.clients import client
from tests.support.servers import own_server
from tests.support.sinks import Person, lone_room
from tests.support.waiting import wait_until

GRACE, BOT_DELAY = 0.02, 0.15


async def _on_own_turn(room: Room, person: Person) -> None:
    """Start the match and wait until the person's seat is to move."""
    room.sit(0, person, "Anna")
    await room.start("seed-turns")
    await wait_until(lambda: bool(person.turns()), "the person's first turn", timeout=2.0)
    assert room.state is not None
    assert room.state.to_move == 0


def _once_per_seq(person: Person) -> None:
    counts = Counter(turn.seq for turn in person.turns())
    assert counts
    assert all(n == 1 for n in counts.values()), counts


@pytest.mark.parametrize("with_last_seq", [False, True])
@pytest.mark.parametrize("long_drop", [False, True])
async def test_coming_back_on_ones_turn_brings_one_your_turn(long_drop: bool, with_last_seq: bool) -> None:
    runner = BotRunner(0)
    room, first = lone_room("briscola", runner, bot_delay=BOT_DELAY, grace_seconds=GRACE), Person()
    try:
        await _on_own_turn(room, first)
        room.dropped(0, first)
        if long_drop:  # past the grace period: a stand-in bot takes the seat and waits out its delay
            await wait_until(lambda: room.seats[0].played_by_bot, "the stand-in", timeout=2.0)
        again = Person()
        room.sit(0, again, "Anna", last_seq=first.seq() if with_last_seq else None)
        await asyncio.sleep(BOT_DELAY * 2)  # the stand-in's task, had it been scheduled, has run
        assert room.state is not None
        assert room.state.to_move == 0  # the stand-in did not move
        assert [turn.seq for turn in again.turns()] == [room.seats[0].recipient.seq]
        _once_per_seq(again)
    finally:
        room.close()
        runner.close()


async def test_a_resync_on_ones_turn_brings_one_your_turn_for_the_new_seq() -> None:
    runner = BotRunner(0)
    room, person = lone_room("briscola", runner, bot_delay=BOT_DELAY, grace_seconds=GRACE), Person()
    try:
        await _on_own_turn(room, person)
        room.snapshot_for(0, person)
        await asyncio.sleep(BOT_DELAY * 2)
        assert [turn.seq for turn in person.turns()][-1] == room.seats[0].recipient.seq
        _once_per_seq(person)
    finally:
        room.close()
        runner.close()


async def test_resuming_over_the_wire_after_a_long_drop_brings_one_your_turn(tmp_path: Path) -> None:
    # the hello path end to end: the stand-in took the seat and still waits out its delay
    async with own_server(tmp_path, grace_seconds=GRACE, bot_delay=0.4) as (server, url):
        anna = await client(url)
        await anna.hello()
        await anna.send(m.PlayNow(id=1, game="briscola", bot_level="random"))
        turn: m.YourTurn = await anna.expect(m.YourTurn)
        await anna.ws.close()
        room = next(iter(server.rooms.values()))
        await wait_until(lambda: room.seats[0].played_by_bot, "the stand-in", timeout=2.0)
        back = await client(url)
        back.store = anna.store  # the view the player kept through the drop
        await back.hello(resume=anna.resume, last_seq=turn.seq)
        with contextlib.suppress(TimeoutError):
            while True:
                await back.recv(timeout=0.8)  # past the stand-in's delay
        turns = [x.seq for x in back.received if isinstance(x, m.YourTurn)]
        assert turns == [turn.seq]
        await back.ws.close()


@pytest.mark.parametrize("long_drop", [False, True])
async def test_coming_back_on_ones_turn_keeps_its_deadline(long_drop: bool) -> None:
    runner = BotRunner(0)
    room, first = lone_room("briscola", runner, bot_delay=BOT_DELAY, grace_seconds=GRACE), Person()
    room.entry.turn_seconds = 30.0
    try:
        await _on_own_turn(room, first)
        (turn,) = first.turns()
        assert turn.deadline is not None
        room.dropped(0, first)
        await asyncio.sleep(GRACE * 2)  # the clock moves on: a fresh deadline would be later
        if long_drop:
            await wait_until(lambda: room.seats[0].played_by_bot, "the stand-in", timeout=2.0)
        again = Person()
        room.sit(0, again, "Anna")
        assert [t.deadline for t in again.turns()] == [turn.deadline]  # the time the turn had, no more
    finally:
        room.close()
        runner.close()
