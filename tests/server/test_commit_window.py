"""While a move is being committed (checked, its journal write under way), the room still holds
the position before it. A person who sits down or asks for a resync in that window gets that
position, but not ``your_turn`` in it: the move replaces it, and a turn told for it would be
answered with a card that is no longer in the hand. The delta of the move and the turn of the
position after it follow."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from cardavia.protocol import messages as m
from cardavia.server.bot_runner import BotRunner
from cardavia.server.room import Room
from tests.support.sinks import Person, lone_room
from tests.support.waiting import wait_until


class GatedJournal:
    """A journal whose writes of one seat's moves wait at a gate: the commit window held open."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.waiting = asyncio.Event()
        self.gate = asyncio.Event()

    async def save_match(self, room: str, header: dict[str, Any]) -> None:
        pass

    async def append_action(self, room: str, index: int, action: dict[str, Any]) -> None:
        if action["seat"] == self.seat:
            self.waiting.set()
            await self.gate.wait()


def turns_told_before_a_change(received: list[Any]) -> list[m.YourTurn]:
    """``your_turn`` messages a snapshot or delta followed: turns told for a position that the
    room replaced without the person moving (they never move in these tests)."""
    stale, told = [], None
    for message in received:
        if isinstance(message, m.YourTurn):
            told = message
        elif isinstance(message, (m.Snapshot, m.Delta)) and told is not None:
            stale.append(told)
            told = None
    return stale


@contextlib.asynccontextmanager
async def bo_to_move(grace_seconds: float = 60.0) -> AsyncIterator[tuple[Room, GatedJournal, Person]]:
    """A Briscola room of Anna (seat 0) and Bo (seat 1), started and played by Anna until Bo is
    to move; its journal, and Bo's connection."""
    runner, journal = BotRunner(0), GatedJournal()
    room = lone_room("briscola", runner, bot_delay=0.0, grace_seconds=grace_seconds, journal=journal)
    anna, bo = Person("s-anna"), Person("s-bo")
    try:
        room.sit(0, anna, "Anna")
        room.sit(1, bo, "Bo")
        await room.start("seed-commit-window")
        assert room.state is not None
        while room.state.to_move != 1:
            await room.act(0, anna.turns()[-1].legal[0])
        yield room, journal, bo
    finally:
        journal.gate.set()
        room.close()
        runner.close()


async def test_a_player_back_while_the_stand_in_moves_is_told_the_turn_after_its_move() -> None:
    async with bo_to_move(grace_seconds=0.0) as (room, journal, bo):
        journal.seat = 1
        room.dropped(1, bo)  # no grace: the stand-in takes the seat and moves, its write held
        await asyncio.wait_for(journal.waiting.wait(), 5.0)

        back = Person("s-bo")
        room.sit(1, back, "Bo")
        assert isinstance(back.received[0], m.Snapshot)
        assert back.turns() == []  # the stand-in's move is on its way: no turn in the old position
        journal.gate.set()
        await wait_until(lambda: any(isinstance(x, m.Delta) for x in back.received), "the stand-in's move")
        await room.settle()

        assert turns_told_before_a_change(back.received) == []
        assert room.state is not None
        if room.state.to_move == 1:  # Bo took the trick: the turn of the new position, once
            [turn] = back.turns()
            assert turn.seq == back.seq()
            assert turn.legal == [a.to_data() for a in room.state.legal_actions(1)]
            await room.act(1, turn.legal[0])  # and it is a move the room takes
        else:
            assert back.turns() == []


async def test_a_resync_during_a_move_gets_the_position_and_the_turn_after_the_move() -> None:
    async with bo_to_move() as (room, journal, bo):
        journal.seat = 1
        move = asyncio.ensure_future(room.act(1, bo.turns()[-1].legal[0]))
        await asyncio.wait_for(journal.waiting.wait(), 5.0)

        since = len(bo.received)
        room.snapshot_for(1, bo)  # Bo asks for a resync while its own move is being committed
        assert isinstance(bo.received[since], m.Snapshot)
        assert bo.received[since + 1 :] == []
        journal.gate.set()
        await move

        after = bo.received[since:]
        assert turns_told_before_a_change(after) == []
        assert any(isinstance(x, m.Delta) for x in after)
        assert room.state is not None
        if room.state.to_move == 1:
            assert [t.seq for t in bo.turns()][-1] == bo.seq()
