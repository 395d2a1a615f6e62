"""Building what the archive's tests hand it: key hashes and match ends."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from cardavia.games.ratings import Rating
from cardavia.server.store import MatchEnd, SeatEnd


def new_hash() -> str:
    """The sha256 hex of a new secret, as the server hands keys and codes to the store."""
    return hashlib.sha256(secrets.token_urlsafe(24).encode()).hexdigest()


def person(name: str, player: str | None) -> SeatEnd:
    return SeatEnd(name=name, player=player, bot_level=None, fixed=None)


def bot(level: str = "basic", rating: float = 1500.0) -> SeatEnd:
    return SeatEnd(name=f"bot {level}", player=None, bot_level=level, fixed=Rating(rating, 60.0, 0.06))


def record_of(game: str, seats: list[SeatEnd]) -> dict[str, Any]:
    """A record's shape as games/records.py writes it (the store keeps it as it is given)."""
    return {
        "format": "cardavia-record/1",
        "game": game,
        "seats": [
            {"name": s.name, "kind": "bot" if s.bot_level else "human", "bot": s.bot_level} for s in seats
        ],
        "seed": secrets.token_hex(16),
        "options": {},
        "deals": [{"order": ["7D", "3S"], "actions": []}],
        "result": {"winner": 0},
    }


def match_end(
    record_id: str,
    seats: list[SeatEnd],
    *,
    game: str = "scopa",
    rated: bool = True,
    ended: float = 1_000.0,
    scores: list[int] | None = None,
    winner: int | None = 0,
) -> MatchEnd:
    if scores is None:
        scores = [11 if i == winner else 5 for i in range(len(seats))]
    return MatchEnd(
        record_id=record_id,
        game=game,
        rated=rated,
        ended=ended,
        seats=seats,
        scores=scores,
        winner=winner,
        record=record_of(game, seats),
    )
