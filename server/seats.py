"""What a room keeps for each seat, the client a seat or spectator is to it, and how a room is described.

Kept apart from ``room.py``, which holds what a room does with them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardavia.bots.base import Bot
from cardavia.protocol import messages as m
from cardavia.protocol.delta import Recipient
from cardavia.server.lobby import RoomEntry

RECENT_DELTAS = 64
"""Deltas a seat keeps for a player who comes back with ``last_seq``."""


def room_info(
    entry: RoomEntry, *, seats: list[dict[str, Any]] | None = None, show_code: bool = False
) -> m.RoomInfo:
    """A room as the protocol describes it; the short code of a private room only to its members."""
    return m.RoomInfo(
        room=entry.room,
        code=entry.code if show_code or entry.public else None,
        game=entry.game,  # type: ignore[arg-type]
        deck=entry.deck,
        options=entry.options,
        public=entry.public,
        state=entry.state,
        seats=seats if seats is not None else [s.to_data() for s in entry.seats],
        owner=entry.owner,
        node=entry.node,
        turn_seconds=entry.turn_seconds,
        rated=entry.rated,
    )


class Sink(Protocol):
    session: str

    def send(self, message: m.Reply | bytes) -> None:
        """Send a message, or a frame already encoded, to this client without waiting."""


@dataclass(slots=True)
class SeatSlot:
    kind: str = "open"  # open | human | bot
    name: str = ""
    session: str | None = None
    player: str | None = None
    """The profile (a player id) of the person seated here, None for anonymous people and bots."""
    guest: int | None = None
    """The guest number of a person who chose no name (``name`` is then "Player 563")."""
    conn: Sink | None = None
    bot: Bot | None = None
    bot_id: str | None = None
    dropped_at: float | None = None
    left: bool = False
    """The player left the room during its match (a stand-in plays on): their consent is not
    needed for a rematch."""
    recipient: Recipient = field(default_factory=Recipient)
    recent: deque[tuple[int, bytes]] = field(default_factory=lambda: deque(maxlen=RECENT_DELTAS))
    """The last deltas of this seat as (seq, frame), so a player who comes back soon gets only
    what it missed. Frames, not models: bytes are invisible to the garbage collector, whose
    full passes over thousands of rooms' buffers were the server's worst pauses."""

    @property
    def played_by_bot(self) -> bool:
        """A bot seat, or a human seat whose player is gone past the grace period."""
        return self.kind == "bot" or (self.kind == "human" and self.bot is not None and self.conn is None)
