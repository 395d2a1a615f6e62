"""The archive in one SQLite file: the embedded default of ``cardavia serve``.

One stdlib ``sqlite3`` connection owned by one thread of its own (a single-thread executor): no
call blocks the event loop, and each Archive call is ONE synchronous function run in that thread
(its whole transaction: begin, every statement, commit), so a call costs the loop one hand-over
and one wake-up however many statements it runs (``record_matches``: one for every match end
queued at once). Calls queue in the executor and run one at a
time, in the order they were made; the connection is only ever touched by its thread.

WAL mode with ``synchronous=NORMAL``: a committed match survives the process being killed (its
WAL frames are written before the commit returns); a power cut may lose the last commits but
never corrupts the file, and on one machine it takes the games in memory with it anyway. A
write begins with ``BEGIN IMMEDIATE``, which takes SQLite's write lock at once (waiting up to
``busy_timeout`` for another process's), so what ``record_match`` reads it writes from with
nobody in between, across processes too. A call whose caller is cancelled still runs to its end
in the thread (committed or rolled back whole, never half): callers that retry rely on every
write being idempotent or checked, as ``record_match`` is by record id. Close the archive on
shutdown: it closes the connection in its thread and ends the thread.

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
import concurrent.futures
import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from cardavia.server.store.base import (
    Archive,
    GameRating,
    HistoryEntry,
    MatchEnd,
    Player,
    RatingChange,
    Standing,
    StorageUnavailable,
    Written,
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

T = TypeVar("T")

Db = sqlite3.Connection


def _one(db: Db, sql: str, args: Iterable[Any] = ()) -> sqlite3.Row | None:
    row: sqlite3.Row | None = db.execute(sql, tuple(args)).fetchone()
    return row


def _all(db: Db, sql: str, args: Iterable[Any] = ()) -> list[sqlite3.Row]:
    return db.execute(sql, tuple(args)).fetchall()


class SqliteArchive(Archive):
    def __init__(self, path: Path | str, *, busy_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self._absolute = self.path.absolute()
        """The file, a relative path read once: where the process's working directory was then."""
        self.busy_timeout = busy_timeout
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        """The connection's thread, made by the first call (and again by a call after ``close``)."""
        self._executor_lock = threading.Lock()
        # touched only in the executor's thread:
        self._db: Db | None = None
        self._file: tuple[int, int] | None = None
        """The device and inode of the file the connection opened."""
        self._created = False
        """Whether an open succeeded once: from then on a missing file is an outage."""

    # -- the connection's thread ---------------------------------------------------------------

    async def _call(self, work: Callable[[Db], T], *, write: bool = False) -> T:
        """``work(db)`` as one transaction in the connection's thread (one hand-over)."""
        with self._executor_lock:
            if self._executor is None:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="archive-sqlite"
                )
            executor = self._executor
        return await asyncio.get_running_loop().run_in_executor(executor, self._transaction, work, write)

    async def open(self) -> None:
        await self._call(lambda db: None)

    async def close(self) -> None:
        with self._executor_lock:
            executor, self._executor = self._executor, None
        if executor is None:
            return
        await asyncio.get_running_loop().run_in_executor(executor, self._drop)
        executor.shutdown(wait=False)  # the thread ends once its queue (now empty) is done

    async def ping(self) -> bool:
        try:
            await self._call(lambda db: db.execute("SELECT 1").fetchone())
        except StorageUnavailable:
            return False
        return True

    def _drop(self) -> None:
        db, self._db, self._file = self._db, None, None
        if db is not None:
            # a connection whose file went away may fail to close cleanly: it is gone either way
            with contextlib.suppress(sqlite3.Error, OSError, ValueError):
                db.close()

    def _identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self._absolute)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def _ready(self) -> Db:
        """The open connection to the file at the path now, migrated (in the thread)."""
        if self._db is not None and self._identity() == self._file:
            return self._db
        self._drop()
        if self._created and self._identity() is None:
            raise StorageUnavailable(f"the SQLite database {self.path} is not there")
        mode = "rw" if self._created else "rwc"
        uri = f"file:{quote(str(self._absolute))}?mode={mode}"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=self.busy_timeout)
        except (sqlite3.Error, OSError) as exc:
            raise StorageUnavailable(f"cannot open the SQLite database {self.path}: {exc}") from exc
        try:
            db.row_factory = sqlite3.Row
            self._enter_wal(db)
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            self._migrate(db)
        except BaseException as exc:
            db.close()
            if isinstance(exc, (sqlite3.OperationalError, OSError)):
                raise StorageUnavailable(f"cannot open the SQLite database {self.path}: {exc}") from exc
            raise
        self._db, self._file, self._created = db, self._identity(), True
        return db

    def _enter_wal(self, db: Db) -> None:
        """Put the file in WAL mode (it stays so). SQLite answers "database is locked" at once,
        without its busy handler, when another connection holds a lock while the mode changes
        (two nodes opening a new file together), so the change is tried again until
        ``busy_timeout`` has passed (in the thread: a pause here holds up no event loop)."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            time.sleep(0.005)

    @staticmethod
    def _migrate(db: Db) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(CREATE_TABLE.format(time="REAL"))
            row = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
            assert row is not None
            for step in pending("sqlite", int(row[0])):
                for statement in sqlite_statements(step.sql):
                    db.execute(statement)
                db.execute(
                    "INSERT INTO schema_migrations (version, applied) VALUES (?, ?)",
                    (step.version, time.time()),
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _transaction(self, work: Callable[[Db], T], write: bool) -> T:
        """One transaction on the connection, committed when ``work`` returns (in the thread)."""
        db = self._ready()
        try:
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = work(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"refused by the database: {exc}") from exc
        except (sqlite3.OperationalError, OSError) as exc:
            self._drop()
            raise StorageUnavailable(f"the SQLite database {self.path} failed: {exc}") from exc
        return result

    # -- profiles ----------------------------------------------------------------------------

    @staticmethod
    def _player(row: sqlite3.Row) -> Player:
        return Player(row["id"], row["name"], bool(row["bot"]), row["created"])

    async def create_player(self, name: str, key_hash: str, *, bot: bool = False) -> Player:
        check_name(name)
        check_hash(key_hash, "a key hash")
        player = Player(new_player_id(), name, bool(bot), time.time())

        def work(db: Db) -> None:
            db.execute(
                "INSERT INTO players (id, name, bot, created) VALUES (?, ?, ?, ?)",
                (player.id, player.name, int(player.bot), player.created),
            )
            db.execute(
                "INSERT INTO player_keys (key_hash, player, created) VALUES (?, ?, ?)",
                (key_hash, player.id, player.created),
            )

        await self._call(work, write=True)
        return player

    async def player_by_key(self, key_hash: str) -> Player | None:
        check_hash(key_hash, "a key hash")
        row = await self._call(
            lambda db: _one(
                db,
                "SELECT p.* FROM player_keys k JOIN players p ON p.id = k.player WHERE k.key_hash = ?",
                (key_hash,),
            )
        )
        return self._player(row) if row else None

    async def player(self, player_id: str) -> Player | None:
        check_text(player_id)
        row = await self._call(lambda db: _one(db, "SELECT * FROM players WHERE id = ?", (player_id,)))
        return self._player(row) if row else None

    async def add_key(self, player_id: str, key_hash: str) -> None:
        check_text(player_id)
        check_hash(key_hash, "a key hash")

        def work(db: Db) -> None:
            if _one(db, "SELECT 1 FROM players WHERE id = ?", (player_id,)) is None:
                raise ValueError(f"no profile {player_id!r}")
            db.execute(
                "INSERT INTO player_keys (key_hash, player, created) VALUES (?, ?, ?)",
                (key_hash, player_id, time.time()),
            )

        await self._call(work, write=True)

    async def rename_player(self, player_id: str, name: str) -> Player | None:
        check_text(player_id)
        check_name(name)

        def work(db: Db) -> sqlite3.Row | None:
            db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
            return _one(db, "SELECT * FROM players WHERE id = ?", (player_id,))

        row = await self._call(work, write=True)
        return self._player(row) if row else None

    async def delete_player(self, player_id: str) -> bool:
        check_text(player_id)

        def work(db: Db) -> bool:
            if _one(db, "SELECT 1 FROM players WHERE id = ?", (player_id,)) is None:
                return False
            rows = _all(
                db,
                "SELECT record_id, players, record FROM matches WHERE record_id IN "
                "(SELECT record_id FROM match_seats WHERE player = ?)",
                (player_id,),
            )
            for row in rows:
                players, record = json.loads(row["players"]), json.loads(row["record"])
                blank_seats(players, record, player_id)
                db.execute(
                    "UPDATE matches SET players = ?, record = ? WHERE record_id = ?",
                    (dumps(players), dumps(record), row["record_id"]),
                )
            for table in ("match_seats", "ratings", "transfer_codes", "player_keys"):
                db.execute(f"DELETE FROM {table} WHERE player = ?", (player_id,))
            db.execute("DELETE FROM players WHERE id = ?", (player_id,))
            return True

        return await self._call(work, write=True)

    async def put_transfer_code(self, player_id: str, code_hash: str, expires: float) -> None:
        check_text(player_id)
        check_hash(code_hash, "a code hash")

        def work(db: Db) -> None:
            if _one(db, "SELECT 1 FROM players WHERE id = ?", (player_id,)) is None:
                raise ValueError(f"no profile {player_id!r}")
            db.execute("DELETE FROM transfer_codes WHERE player = ?", (player_id,))
            db.execute(
                "INSERT INTO transfer_codes (code_hash, player, expires) VALUES (?, ?, ?)",
                (code_hash, player_id, float(expires)),
            )

        await self._call(work, write=True)

    async def take_transfer_code(self, code_hash: str, now: float) -> str | None:
        check_hash(code_hash, "a code hash")

        def work(db: Db) -> sqlite3.Row | None:
            row = _one(
                db, "DELETE FROM transfer_codes WHERE code_hash = ? RETURNING player, expires", (code_hash,)
            )
            db.execute("DELETE FROM transfer_codes WHERE expires <= ?", (float(now),))
            return row

        row = await self._call(work, write=True)
        if row is None or row["expires"] <= now:
            return None
        player: str = row["player"]
        return player

    # -- matches -----------------------------------------------------------------------------

    async def record_match(self, end: MatchEnd) -> list[RatingChange] | None:
        check_end(end)
        return await self._call(lambda db: self._record_match(db, end), write=True)

    async def _record_checked(self, ends: list[MatchEnd]) -> list[Written]:
        """Every end's statements under one write lock, one commit: one hand-over in all."""
        return await self._call(lambda db: [self._record_match(db, end) for end in ends], write=True)

    @staticmethod
    def _record_match(db: Db, end: MatchEnd) -> list[RatingChange] | None:
        """The whole match end under SQLite's write lock (in the thread): the idempotency check,
        the profiles and their ratings read, the new ratings computed and everything written."""
        ids = sorted({s.player for s in end.seats if s.player is not None})
        marks = ",".join("?" * len(ids))
        if _one(db, "SELECT 1 FROM matches WHERE record_id = ?", (end.record_id,)):
            return None
        rows = _all(db, f"SELECT id, bot FROM players WHERE id IN ({marks})", ids) if ids else []
        profiles = {r["id"]: bool(r["bot"]) for r in rows}
        players = seat_list(end, profiles)
        record = record_with_blanks(end.record, [i for i, p in enumerate(players) if p.get("deleted")])
        changes: list[RatingChange] = []
        if end.rated:
            rated = sorted(profiles)
            rows = (
                _all(
                    db,
                    f"SELECT * FROM ratings WHERE game = ? AND player IN ({','.join('?' * len(rated))})",
                    [end.game, *rated],
                )
                if rated
                else []
            )
            current = {
                r["player"]: GameRating(end.game, r["rating"], r["deviation"], r["volatility"], r["games"])
                for r in rows
            }
            changes = rate_match(end, current, profiles)
            db.executemany(
                "INSERT INTO ratings (player, game, rating, deviation, volatility, games) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player, game) DO UPDATE SET "
                "rating = excluded.rating, deviation = excluded.deviation, "
                "volatility = excluded.volatility, games = excluded.games",
                [
                    (c.player, c.game, c.after.rating, c.after.deviation, c.after.volatility, c.after.games)
                    for c in changes
                ],
            )
        db.execute(
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
        db.executemany(
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
        row = await self._call(
            lambda db: _one(db, "SELECT record FROM matches WHERE record_id = ?", (record_id,))
        )
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

        def work(db: Db) -> list[sqlite3.Row]:
            if before is None:
                return _all(db, select + order, (player_id, limit))
            cursor = _one(db, "SELECT ended FROM matches WHERE record_id = ?", (before,))
            if cursor is None:
                return []
            return _all(
                db,
                select + "AND (s.ended < ? OR (s.ended = ? AND s.record_id < ?)) " + order,
                (player_id, cursor["ended"], cursor["ended"], before, limit),
            )

        return [history_entry(dict(r)) for r in await self._call(work)]

    async def ratings(self, player_id: str) -> list[GameRating]:
        check_text(player_id)
        rows = await self._call(
            lambda db: _all(db, "SELECT * FROM ratings WHERE player = ? ORDER BY game", (player_id,))
        )
        return [GameRating(r["game"], r["rating"], r["deviation"], r["volatility"], r["games"]) for r in rows]

    async def leaderboard(self, game: str, *, limit: int = 20) -> list[Standing]:
        check_text(game)
        check_limit(limit)
        rows = await self._call(
            lambda db: _all(
                db,
                "SELECT r.*, p.name, p.bot FROM ratings r JOIN players p ON p.id = r.player WHERE r.game = ? "
                "ORDER BY r.rating DESC, r.games DESC, r.player LIMIT ?",
                (game, limit),
            )
        )
        return [
            Standing(i + 1, r["player"], r["name"], r["rating"], r["deviation"], r["games"], bool(r["bot"]))
            for i, r in enumerate(rows)
        ]

    async def standing(self, player_id: str, game: str) -> Standing | None:
        check_text(player_id, game)

        def work(db: Db) -> Standing | None:
            r = _one(
                db,
                "SELECT r.*, p.name, p.bot FROM ratings r JOIN players p ON p.id = r.player "
                "WHERE r.player = ? AND r.game = ?",
                (player_id, game),
            )
            if r is None:
                return None
            ahead = _one(
                db,
                "SELECT COUNT(*) FROM ratings WHERE game = ? AND (rating > ? OR (rating = ? AND "
                "(games > ? OR (games = ? AND player < ?))))",
                (game, r["rating"], r["rating"], r["games"], r["games"], player_id),
            )
            assert ahead is not None
            return Standing(
                ahead[0] + 1, player_id, r["name"], r["rating"], r["deviation"], r["games"], bool(r["bot"])
            )

        return await self._call(work)

    async def load_analysis(self, record_id: str) -> list[Any] | None:
        check_text(record_id)
        row = await self._call(
            lambda db: _one(db, "SELECT analysis FROM matches WHERE record_id = ?", (record_id,))
        )
        if row is None or row["analysis"] is None:
            return None
        analysis: list[Any] = json.loads(row["analysis"])
        return analysis

    async def save_analysis(self, record_id: str, analysis: list[Any]) -> None:
        check_text(record_id)
        if not isinstance(analysis, list):
            raise ValueError("an analysis is a list, one entry per recorded action")
        text = dumps(analysis)
        await self._call(
            lambda db: db.execute("UPDATE matches SET analysis = ? WHERE record_id = ?", (text, record_id)),
            write=True,
        )

    async def prune(self, before: float) -> int:
        rows = await self._call(
            lambda db: _all(
                db, "DELETE FROM matches WHERE rated = 0 AND ended < ? RETURNING record_id", (float(before),)
            ),
            write=True,
        )
        return len(rows)
