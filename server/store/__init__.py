"""The archive: profiles, keys, transfer codes, ratings, finished matches and their analyses,
in SQLite (one machine) or PostgreSQL (a cluster); ``base.py`` tells how it works."""

from cardavia.server.store.base import (
    PLAYER_ID,
    RECORD_ID,
    Archive,
    GameRating,
    HistoryEntry,
    MatchEnd,
    Player,
    RatingChange,
    SchemaTooNew,
    SeatEnd,
    Standing,
    StorageUnavailable,
    open_archive,
)

__all__ = [
    "PLAYER_ID",
    "RECORD_ID",
    "Archive",
    "GameRating",
    "HistoryEntry",
    "MatchEnd",
    "Player",
    "RatingChange",
    "SchemaTooNew",
    "SeatEnd",
    "Standing",
    "StorageUnavailable",
    "open_archive",
]
