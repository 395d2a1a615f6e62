"""A person's connection and a room for tests that drive a ``Room`` directly, without a server."""

from __future__ import annotations

from typing import Any

from cardavia.bots.registry import make_bot
from cardavia.games.registry import GAMES
from cardavia.games.traditions import default_tradition
from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_server
from cardavia.server.bot_runner import BotRunner
from cardavia.server.lobby import RoomEntry, SeatEntry
from cardavia.server.room import Journal, Room


class Person:
    """A stand-in connection that keeps what it is sent, decoded."""

    def __init__(self, session: str = "s-person") -> None:
        self.session = session
        self.received: list[Any] = []

    def send(self, message: Any) -> None:
        self.received.append(decode_server(message) if isinstance(message, bytes) else message)

    def turns(self) -> list[m.YourTurn]:
        return [x for x in self.received if isinstance(x, m.YourTurn)]

    def seq(self) -> int:
        """The last seq a snapshot or delta brought."""
        return [x.seq for x in self.received if isinstance(x, (m.Snapshot, m.Delta))][-1]


def lone_room(
    game_id: str,
    runner: BotRunner,
    *,
    bot_delay: float,
    grace_seconds: float = 60.0,
    bots: Any = make_bot,
    journal: Journal | None = None,
) -> Room:
    """A private room of ``game_id`` for one person, the other seats for random bots, with no
    lobby behind it and no journal unless one is given."""
    game = GAMES[game_id]
    entry = RoomEntry(
        room="r-lone", code="LONEROOM", game=game_id, deck=default_tradition(game_id).id,
        options=game.options({}), public=False, seats=[SeatEntry() for _ in range(game.players)],
        humans=1, bot_level="random",
    )  # fmt: skip
    return Room(
        entry,
        runner=runner,
        make_bot=bots,
        bot_delay=bot_delay,
        grace_seconds=grace_seconds,
        on_finish=lambda room, record: room.id,
        journal=journal,
    )
