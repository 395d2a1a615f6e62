"""The archive in one SQLite file: the embedded default of ``cardavia serve``.

One aiosqlite connection (its own thread: no call blocks the event loop), in WAL mode with
``synchronous=NORMAL``: a committed match survives the process being killed (its WAL frames are
written before the commit returns); a power cut may lose the last commits but never corrupts the
file, and on one machine it takes the games in memory with it anyway. Close the archive on
shutdown: aiosqlite's thread is not a daemon, so an open connection keeps the process alive. Every
call is one transaction under an asyncio lock: a write begins with ``BEGIN IMMEDIATE``, which
takes SQLite's write lock at once (waiting up to ``busy_timeout`` for another process's), so what
``record_match`` reads it writes from with nobody in between, across processes too.

A file that goes away is not written blind: before each call the file at the path must still be
the one the connection opened (device and inode), else the connection is dropped and reopened
on whatever file is there now; no file there (a missing volume, a removed directory) is
:class:`StorageUnavailable` until it comes back. The file is created only by the first
successful open, never by a reconnect, so a file removed under a running server is not silently
replaced by an empty one. SQLite errors of the database itself (cannot open, I/O, locked beyond
the busy timeout) are StorageUnavailable too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from cardavia.server.store.base import (
    Archive,
    GameRating,
    HistoryEntry,
    MatchEnd,
    Player,
    RatingChange,
    Standing,
    StorageUnavailable,
    blank_seats,
    check_end,
    check_hash,
    check_limit,
    check_name,
    check_text,
    dumps,
    history_entry,
    new_player_id,
    rate_match,
    record_with_blanks,
    seat_list,
)
from cardavia.server.store.migrate import CREATE_TABLE, pending, sqlite_statements


class SqliteArchive(Archive):
    def __init__(self, path: Path | str, *, busy_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self._absolute = self.path.absolute()
        """The file, a relative path read once: where the process's working directory was then."""
        self.busy_timeout = busy_timeout
        self._db: aiosqlite.Connection | None = None
        self._file: tuple[int, int] | None = None
        """The device and inode of the file the connection opened."""
        self._created = False
        """Whether an open succeeded once: from then on a missing file is an outage."""
        self._lock = asyncio.Lock()

    # -- connection --------------------------------------------------------------------------

    async def open(self) -> None:
        async with self._lock:
            await self._ready()

    async def close(self) -> None:
        async with self._lock:
            await self._drop()

    async def ping(self) -> bool:
        try:
            async with self._transaction() as db:
                await db.execute("SELECT 1")
        except StorageUnavailable:
            return False
        return True

    async def _drop(self) -> None:
        db, self._db, self._file = self._db, None, None
        if db is not None:
            # a connection whose file went away may fail to close cleanly: it is gone either way
            with contextlib.suppress(sqlite3.Error, OSError, ValueError):
                await db.close()

    def _identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self._absolute)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    async def _ready(self) -> aiosqlite.Connection:
        """The open connection to the file at the path now, migrated (under ``_lock``)."""
        if self._db is not None and self._identity() == self._file:
            return self._db
        await self._drop()
        if self._created and self._identity() is None:
            raise StorageUnavailable(f"the SQLite database {self.path} is not there")
        mode = "rw" if self._created else "rwc"
        uri = f"file:{quote(str(self._absolute))}?mode={mode}"
        try:
            db = await aiosqlite.connect(uri, uri=True, isolation_level=None, timeout=self.busy_timeout)
        except (sqlite3.Error, OSError) as exc:
            raise StorageUnavailable(f"cannot open the SQLite database {self.path}: {exc}") from exc
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            await self._migrate(db)
        except BaseException as exc:
            await db.close()
            if isinstance(exc, (sqlite3.OperationalError, OSError)):
                raise StorageUnavailable(f"cannot open the SQLite database {self.path}: {exc}") from exc
            raise
        self._db, self._file, self._created = db, self._identity(), True
        return db

    @staticmethod
    async def _migrate(db: aiosqlite.Connection) -> None:
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(CREATE_TABLE.format(time="REAL"))
            async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
                row = await cur.fetchone()
            assert row is not None
            for step in pending("sqlite", int(row[0])):
                for statement in sqlite_statements(step.sql):
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_migrations (version, applied) VALUES (?, ?)",
                    (step.version, time.time()),
                )
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")

    @asynccontextmanager
    async def _transaction(self, *, write: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction on the connection, committed when the block ends without raising."""
        async with self._lock:
            db = await self._ready()
            try:
                await db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield db
                except BaseException:
                    await db.execute("ROLLBACK")
                    raise
                await db.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                raise ValueError(f"refused by the database: {exc}") from exc
            except (sqlite3.OperationalError, OSError) as exc:
                await self._drop()
                raise StorageUnavailable(f"the SQLite database {self.path} failed: {exc}") from exc

    @staticmethod
    async def _one(db: aiosqlite.Connection, sql: str, args: Iterable[Any] = ()) -> sqlite3.Row | None:
        async with db.execute(sql, tuple(args)) as cur:
            row: sqlite3.Row | None = await cur.fetchone()
            return row

    @staticmethod
    async def _all(db: aiosqlite.Connection, sql: str, args: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with db.execute(sql, tuple(args)) as cur:
            return list(await cur.fetchall())

    # -- profiles ----------------------------------------------------------------------------

    @staticmethod
    def _player(row: sqlite3.Row) -> Player:
        return Player(row["id"], row["name"], bool(row["bot"]), row["created"])

    async def create_player(self, name: str, key_hash: str, *, bot: bool = False) -> Player:
        check_name(name)
        check_hash(key_hash, "a key hash")
        player = Player(new_player_id(), name, bool(bot), time.time())
        async with self._transaction(write=True) as db:
            await db.execute(
                "INSERT INTO players (id, name, bot, created) VALUES (?, ?, ?, ?)",
                (player.id, player.name, int(player.bot), player.created),
            )
            await db.execute(
                "INSERT INTO player_keys (key_hash, player, created) VALUES (?, ?, ?)",
                (key_hash, player.id, player.created),
            )
        return player

    async def player_by_key(self, key_hash: str) -> Player | None:
        check_hash(key_hash, "a key hash")
        async with self._transaction() as db:
            row = await self._one(
                db,
                "SELECT p.* FROM player_keys k JOIN players p ON p.id = k.player WHERE k.key_hash = ?",
                (key_hash,),
            )
        return self._player(row) if row else None

    async def player(self, player_id: str) -> Player | None:
        check_text(player_id)
        async with self._transaction() as db:
            row = await self._one(db, "SELECT * FROM players WHERE id = ?", (player_id,))
        return self._player(row) if row else None

    async def add_key(self, player_id: str, key_hash: str) -> None:
        check_text(player_id)
        check_hash(key_hash, "a key hash")
        async with self._transaction(write=True) as db:
            if await self._one(db, "SELECT 1 FROM players WHERE id = ?", (player_id,)) is None:
                raise ValueError(f"no profile {player_id!r}")
            await db.execute(
                "INSERT INTO player_keys (key_hash, player, created) VALUES (?, ?, ?)",
                (key_hash, player_id, time.time()),
            )

    async def rename_player(self, player_id: str, name: str) -> Player | None:
        check_text(player_id)
        check_name(name)
        async with self._transaction(write=True) as db:
            await db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
            row = await self._one(db, "SELECT * FROM players WHERE id = ?", (player_id,))
        return self._player(row) if row else None

    async def delete_player(self, player_id: str) -> bool:
        check_text(player_id)
        async with self._transaction(write=True) as db:
            if await self._one(db, "SELECT 1 FROM players WHERE id = ?", (player_id,)) is None:
                return False
            rows = await self._all(
                db,
                "SELECT record_id, players, record FROM matches WHERE record_id IN "
                "(SELECT record_id FROM match_seats WHERE player = ?)",
                (player_id,),
            )
            for row in rows:
                players, record = json.loads(row["players"]), json.loads(row["record"])
                blank_seats(players, record, player_id)
                await db.execute(
                    "UPDATE matches SET players = ?, record = ? WHERE record_id = ?",
                    (dumps(players), dumps(record), row["record_id"]),
                )
            for table in ("match_seats", "ratings", "transfer_codes", "player_keys"):
                await db.execute(f"DELETE FROM {table} WHERE player = ?", (player_id,))
            await db.execute("DELETE FROM players WHERE id = ?", (player_id,))
        return True

    async def put_transfer_code(self, player_id: str, code_hash: str, expires: float) -> None:
        check_text(player_id)
        check_hash(code_hash, "a code hash")
        async with self._transaction(write=True) as db:
            if await self._one(db, "SELECT 1 FROM players WHERE id = ?", (player_id,)) is None:
                raise ValueError(f"no profile {player_id!r}")
            await db.execute("DELETE FROM transfer_codes WHERE player = ?", (player_id,))
            await db.execute(
                "INSERT INTO transfer_codes (code_hash, player, expires) VALUES (?, ?, ?)",
                (code_hash, player_id, float(expires)),
            )

    async def take_transfer_code(self, code_hash: str, now: float) -> str | None:
        check_hash(code_hash, "a code hash")
        async with self._transaction(write=True) as db:
            row = await self._one(
                db, "DELETE FROM transfer_codes WHERE code_hash = ? RETURNING player, expires", (code_hash,)
            )
            await db.execute("DELETE FROM transfer_codes WHERE expires <= ?", (float(now),))
        if row is None or row["expires"] <= now:
            return None
        player: str = row["player"]
        return player

    # -- matches -----------------------------------------------------------------------------

    async def record_match(self, end: MatchEnd) -> list[RatingChange] | None:
        check_end(end)
        ids = sorted({s.player for s in end.seats if s.player is not None})
        marks = ",".join("?" * len(ids))
        async with self._transaction(write=True) as db:
            if await self._one(db, "SELECT 1 FROM matches WHERE record_id = ?", (end.record_id,)):
                return None
            rows = await self._all(db, f"SELECT id, bot FROM players WHERE id IN ({marks})", ids)
            profiles = {r["id"]: bool(r["bot"]) for r in rows}
            players = seat_list(end, profiles)
            record = record_with_blanks(end.record, [i for i, p in enumerate(players) if p.get("deleted")])
            changes: list[RatingChange] = []
            if end.rated:
                rows = await self._all(
                    db,
                    f"SELECT * FROM ratings WHERE game = ? AND player IN ({marks})",
                    [end.game, *ids],
                )
                current = {
                    r["player"]: GameRating(
                        end.game, r["rating"], r["deviation"], r["volatility"], r["games"]
                    )
                    for r in rows
                }
                changes = rate_match(end, current, profiles)
                await db.executemany(
                    "INSERT INTO ratings (player, game, rating, deviation, volatility, games) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player, game) DO UPDATE SET "
                    "rating = excluded.rating, deviation = excluded.deviation, "
                    "volatility = excluded.volatility, games = excluded.games",
                    [
                        (
                            c.player,
                            c.game,
                            c.after.rating,
                            c.after.deviation,
                            c.after.volatility,
                            c.after.games,
                        )
                        for c in changes
                    ],
                )
            await db.execute(
                "INSERT INTO matches (record_id, game, rated, ended, players, scores, winner, record) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    end.record_id,
                    end.game,
                    int(end.rated),
                    float(end.ended),
                    dumps(players),
                    dumps(list(end.scores)),
                    end.winner,
                    dumps(record),
                ),
            )
            by_seat = {c.seat: c for c in changes}
            await db.executemany(
                "INSERT INTO match_seats (record_id, seat, player, ended, rating_before, rating_after) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        end.record_id,
                        i,
                        seat.player,
                        float(end.ended),
                        by_seat[i].before.rating if i in by_seat else None,
                        by_seat[i].after.rating if i in by_seat else None,
                    )
                    for i, seat in enumerate(end.seats)
                    if seat.player in profiles
                ],
            )
        return changes

    async def load_record(self, record_id: str) -> dict[str, Any] | None:
        check_text(record_id)
        async with self._transaction() as db:
            row = await self._one(db, "SELECT record FROM matches WHERE record_id = ?", (record_id,))
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row["record"])
        return record

    async def history(
        self, player_id: str, *, limit: int = 20, before: str | None = None
    ) -> list[HistoryEntry]:
        check_text(player_id, before)
        check_limit(limit)
        select = (
            "SELECT s.record_id, s.seat, s.rating_before, s.rating_after, m.game, m.rated, m.ended, "
            "m.players, m.scores, m.winner FROM match_seats s JOIN matches m ON m.record_id = s.record_id "
            "WHERE s.player = ? "
        )
        order = "ORDER BY s.ended DESC, s.record_id DESC, s.seat LIMIT ?"
        async with self._transaction() as db:
            if before is None:
                rows = await self._all(db, select + order, (player_id, limit))
            else:
                cursor = await self._one(db, "SELECT ended FROM matches WHERE record_id = ?", (before,))
                if cursor is None:
                    return []
                rows = await self._all(
                    db,
                    select + "AND (s.ended < ? OR (s.ended = ? AND s.record_id < ?)) " + order,
                    (player_id, cursor["ended"], cursor["ended"], before, limit),
                )
        return [history_entry(dict(r)) for r in rows]

    async def ratings(self, player_id: str) -> list[GameRating]:
        check_text(player_id)
        async with self._transaction() as db:
            rows = await self._all(db, "SELECT * FROM ratings WHERE player = ? ORDER BY game", (player_id,))
        return [GameRating(r["game"], r["rating"], r["deviation"], r["volatility"], r["games"]) for r in rows]

    async def leaderboard(self, game: str, *, limit: int = 20) -> list[Standing]:
        check_text(game)
        check_limit(limit)
        async with self._transaction() as db:
            rows = await self._all(
                db,
                "SELECT r.*, p.name, p.bot FROM ratings r JOIN players p ON p.id = r.player WHERE r.game = ? "
                "ORDER BY r.rating DESC, r.games DESC, r.player LIMIT ?",
                (game, limit),
            )
        return [
            Standing(i + 1, r["player"], r["name"], r["rating"], r["deviation"], r["games"], bool(r["bot"]))
            for i, r in enumerate(rows)
        ]

    async def standing(self, player_id: str, game: str) -> Standing | None:
        check_text(player_id, game)
        async with self._transaction() as db:
            r = await self._one(
                db,
                "SELECT r.*, p.name, p.bot FROM ratings r JOIN players p ON p.id = r.player "
                "WHERE r.player = ? AND r.game = ?",
                (player_id, game),
            )
            if r is None:
                return None
            ahead = await self._one(
                db,
                "SELECT COUNT(*) FROM ratings WHERE game = ? AND (rating > ? OR (rating = ? AND "
                "(games > ? OR (games = ? AND player < ?))))",
                (game, r["rating"], r["rating"], r["games"], r["games"], player_id),
            )
        assert ahead is not None
        return Standing(
            ahead[0] + 1, player_id, r["name"], r["rating"], r["deviation"], r["games"], bool(r["bot"])
        )

    async def load_analysis(self, record_id: str) -> list[Any] | None:
        check_text(record_id)
        async with self._transaction() as db:
            row = await self._one(db, "SELECT analysis FROM matches WHERE record_id = ?", (record_id,))
        if row is None or row["analysis"] is None:
            return None
        analysis: list[Any] = json.loads(row["analysis"])
        return analysis

    async def save_analysis(self, record_id: str, analysis: list[Any]) -> None:
        check_text(record_id)
        if not isinstance(analysis, list):
            raise ValueError("an analysis is a list, one entry per recorded action")
        text = dumps(analysis)
        async with self._transaction(write=True) as db:
            await db.execute("UPDATE matches SET analysis = ? WHERE record_id = ?", (text, record_id))

    async def prune(self, before: float) -> int:
        async with self._transaction(write=True) as db:
            rows = await self._all(
                db, "DELETE FROM matches WHERE rated = 0 AND ended < ? RETURNING record_id", (float(before),)
            )
        return len(rows)
