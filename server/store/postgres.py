"""The archive in PostgreSQL: what every node of a cluster shares.

A small asyncpg pool (1 to 4 connections) per node. Each call is one transaction on one pooled
connection. ``record_match`` makes the match's row first (``ON CONFLICT DO NOTHING``: a second
writer of the same record id waits for the first to commit and then finds it there), then locks
the ratings rows it will change with ``SELECT … FOR UPDATE``, in player-id order so that two
matches sharing players never deadlock, after inserting any row still missing (``ON CONFLICT DO
NOTHING``) so that there is always a row to lock. Under READ COMMITTED a locked read waits for
the other transaction and then reads the row it committed, so two nodes ending matches of one
player at once apply both changes, one after the other. Profiles a match names are read ``FOR
KEY SHARE``, so a profile deleted meanwhile is deleted either wholly before or wholly after
(a rename does not wait for it).

A connection refused, lost or shut down (``OSError``, asyncpg's connection errors, a server
shutting down or out of connections) is :class:`StorageUnavailable`. asyncpg's pool replaces a
closed connection on the next acquire, so once the database is back the next call works; a pool
that could not be made (the database was away at ``open``) is made again by the next call.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import asyncpg
import asyncpg.exceptions as pg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

from cardavia.server.store.base import (
    Archive,
    GameRating,
    HistoryEntry,
    MatchEnd,
    Player,
    RatingChange,
    SchemaTooNew,
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
from cardavia.server.store.migrate import CREATE_TABLE, pending

MIGRATION_LOCK: Final = 0x43415244  # "CARD": the advisory lock two nodes migrating at once share

UNAVAILABLE: Final = (
    OSError,
    TimeoutError,
    pg.PostgresConnectionError,
    pg.OperatorInterventionError,  # admin shutdown, crash shutdown, cannot connect now
    pg.InsufficientResourcesError,  # too many connections, disk full
    pg.InvalidCatalogNameError,  # the database is not there (yet)
)
"""What asyncpg raises when the database cannot be reached (InterfaceError too, below)."""

TRIES: Final = 3
"""How often ``record_match`` runs its transaction when PostgreSQL rolls it back (the locks are
taken in one order, so a deadlock should not happen; if one does, the match is written anyway)."""

Connection: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"


class PostgresArchive(Archive):
    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 4, timeout: float = 5.0) -> None:
        self.url = url
        self.min_size, self.max_size, self.timeout = min_size, max_size, timeout
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        self._opening = asyncio.Lock()

    # -- connection --------------------------------------------------------------------------

    async def open(self) -> None:
        await self._ready()

    async def close(self) -> None:
        async with self._opening:
            pool, self._pool = self._pool, None
            if pool is not None:
                try:
                    await asyncio.wait_for(pool.close(), self.timeout)
                except (*UNAVAILABLE, pg.InterfaceError):
                    pool.terminate()

    async def ping(self) -> bool:
        try:
            async with self._connection() as conn:
                await conn.fetchval("SELECT 1")
        except (StorageUnavailable, SchemaTooNew):
            return False
        return True

    async def _ready(self) -> asyncpg.Pool[asyncpg.Record]:
        """The pool, made (and the database migrated) on first use."""
        async with self._opening:  # uncontended, an asyncio lock is taken without waiting
            if self._pool is not None:
                return self._pool
            try:
                pool = await asyncpg.create_pool(
                    self.url,
                    min_size=self.min_size,
                    max_size=self.max_size,
                    timeout=self.timeout,
                    command_timeout=60.0,
                )
            except pg.ClientConfigurationError as exc:
                raise ValueError(f"the PostgreSQL URL is not usable: {exc}") from exc
            except (*UNAVAILABLE, pg.InterfaceError) as exc:
                raise StorageUnavailable(f"cannot reach PostgreSQL: {exc}") from exc
            try:
                async with pool.acquire() as conn:
                    await self._migrate(conn)
            except BaseException as exc:
                pool.terminate()
                if isinstance(exc, (*UNAVAILABLE, pg.InterfaceError)):
                    raise StorageUnavailable(f"cannot migrate the PostgreSQL archive: {exc}") from exc
                raise
            self._pool = pool
            return pool

    @staticmethod
    async def _migrate(conn: Connection) -> None:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(CREATE_TABLE.format(time="double precision"))
            current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            for step in pending("postgres", int(current)):
                await conn.execute(step.sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, applied) VALUES ($1, $2)",
                    step.version,
                    time.time(),
                )

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A pooled connection for one call; connection failures become StorageUnavailable."""
        pool = await self._ready()
        try:
            async with pool.acquire(timeout=self.timeout) as conn:
                yield conn
        except (pg.IntegrityConstraintViolationError, pg.DataError) as exc:
            raise ValueError(f"refused by the database: {exc}") from exc
        except (*UNAVAILABLE, pg.InterfaceError) as exc:
            if isinstance(exc, ValueError):  # asyncpg's own refusal of an argument (DataError)
                raise ValueError(f"refused by the database: {exc}") from exc
            raise StorageUnavailable(f"PostgreSQL failed: {exc}") from exc

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        async with self._connection() as conn, conn.transaction():
            yield conn

    # -- profiles ----------------------------------------------------------------------------

    @staticmethod
    def _player(row: asyncpg.Record) -> Player:
        return Player(row["id"], row["name"], row["bot"], row["created"])

    async def create_player(self, name: str, key_hash: str, *, bot: bool = False) -> Player:
        check_name(name)
        check_hash(key_hash, "a key hash")
        player = Player(new_player_id(), name, bool(bot), time.time())
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO players (id, name, bot, created) VALUES ($1, $2, $3, $4)",
                player.id,
                player.name,
                player.bot,
                player.created,
            )
            await conn.execute(
                "INSERT INTO player_keys (key_hash, player, created) VALUES ($1, $2, $3)",
                key_hash,
                player.id,
                player.created,
            )
        return player

    async def player_by_key(self, key_hash: str) -> Player | None:
        check_hash(key_hash, "a key hash")
        async with self._connection() as conn:
            row = await conn.fetchrow(
                "SELECT p.* FROM player_keys k JOIN players p ON p.id = k.player WHERE k.key_hash = $1",
                key_hash,
            )
        return self._player(row) if row else None

    async def player(self, player_id: str) -> Player | None:
        check_text(player_id)
        async with self._connection() as conn:
            row = await conn.fetchrow("SELECT * FROM players WHERE id = $1", player_id)
        return self._player(row) if row else None

    async def add_key(self, player_id: str, key_hash: str) -> None:
        check_text(player_id)
        check_hash(key_hash, "a key hash")
        async with self._transaction() as conn:
            if await conn.fetchval("SELECT 1 FROM players WHERE id = $1 FOR KEY SHARE", player_id) is None:
                raise ValueError(f"no profile {player_id!r}")
            await conn.execute(
                "INSERT INTO player_keys (key_hash, player, created) VALUES ($1, $2, $3)",
                key_hash,
                player_id,
                time.time(),
            )

    async def rename_player(self, player_id: str, name: str) -> Player | None:
        check_text(player_id)
        check_name(name)
        async with self._connection() as conn:
            row = await conn.fetchrow(
                "UPDATE players SET name = $2 WHERE id = $1 RETURNING *", player_id, name
            )
        return self._player(row) if row else None

    async def delete_player(self, player_id: str) -> bool:
        check_text(player_id)
        async with self._transaction() as conn:
            if await conn.fetchval("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", player_id) is None:
                return False
            rows = await conn.fetch(
                "SELECT record_id, players, record FROM matches WHERE record_id IN "
                "(SELECT record_id FROM match_seats WHERE player = $1) ORDER BY record_id FOR UPDATE",
                player_id,
            )
            for row in rows:
                players, record = json.loads(row["players"]), json.loads(row["record"])
                blank_seats(players, record, player_id)
                await conn.execute(
                    "UPDATE matches SET players = $2, record = $3 WHERE record_id = $1",
                    row["record_id"],
                    dumps(players),
                    dumps(record),
                )
            for table in ("match_seats", "ratings", "transfer_codes", "player_keys"):
                await conn.execute(f"DELETE FROM {table} WHERE player = $1", player_id)
            await conn.execute("DELETE FROM players WHERE id = $1", player_id)
        return True

    async def put_transfer_code(self, player_id: str, code_hash: str, expires: float) -> None:
        check_text(player_id)
        check_hash(code_hash, "a code hash")
        async with self._transaction() as conn:
            if await conn.fetchval("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", player_id) is None:
                raise ValueError(f"no profile {player_id!r}")
            await conn.execute("DELETE FROM transfer_codes WHERE player = $1", player_id)
            await conn.execute(
                "INSERT INTO transfer_codes (code_hash, player, expires) VALUES ($1, $2, $3)",
                code_hash,
                player_id,
                float(expires),
            )

    async def take_transfer_code(self, code_hash: str, now: float) -> str | None:
        check_hash(code_hash, "a code hash")
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "DELETE FROM transfer_codes WHERE code_hash = $1 RETURNING player, expires", code_hash
            )
            await conn.execute("DELETE FROM transfer_codes WHERE expires <= $1", float(now))
        if row is None or row["expires"] <= now:
            return None
        player: str = row["player"]
        return player

    # -- matches -----------------------------------------------------------------------------

    async def record_match(self, end: MatchEnd) -> list[RatingChange] | None:
        check_end(end)
        for attempt in range(1, TRIES + 1):
            try:
                return await self._record_match(end)
            except pg.TransactionRollbackError as exc:  # a deadlock or serialization failure
                if attempt == TRIES:
                    raise StorageUnavailable(
                        f"PostgreSQL rolled the match back {TRIES} times: {exc}"
                    ) from exc
        raise AssertionError("unreachable")

    async def _record_match(self, end: MatchEnd) -> list[RatingChange] | None:
        ids = sorted({s.player for s in end.seats if s.player is not None})
        async with self._transaction() as conn:
            rows = await conn.fetch(
                "SELECT id, bot FROM players WHERE id = ANY($1::text[]) ORDER BY id FOR KEY SHARE", ids
            )
            profiles = {r["id"]: r["bot"] for r in rows}
            players = seat_list(end, profiles)
            record = record_with_blanks(end.record, [i for i, p in enumerate(players) if p.get("deleted")])
            made = await conn.fetchval(
                "INSERT INTO matches (record_id, game, rated, ended, players, scores, winner, record) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (record_id) DO NOTHING RETURNING 1",
                end.record_id,
                end.game,
                end.rated,
                float(end.ended),
                dumps(players),
                dumps(list(end.scores)),
                end.winner,
                dumps(record),
            )
            if made is None:
                return None
            changes: list[RatingChange] = []
            rated = sorted(profiles)
            if end.rated and rated:
                await conn.execute(
                    "INSERT INTO ratings (player, game, rating, deviation, volatility, games) "
                    "SELECT p, $2, 1500, 350, 0.06, 0 FROM unnest($1::text[]) AS p "
                    "ON CONFLICT (player, game) DO NOTHING",
                    rated,
                    end.game,
                )
                rows = await conn.fetch(
                    "SELECT * FROM ratings WHERE game = $1 AND player = ANY($2::text[]) "
                    "ORDER BY player FOR UPDATE",
                    end.game,
                    rated,
                )
                current = {
                    r["player"]: GameRating(
                        end.game, r["rating"], r["deviation"], r["volatility"], r["games"]
                    )
                    for r in rows
                    if r["games"] > 0  # a row made just now to be locked holds no rating yet
                }
                changes = rate_match(end, current, profiles)
                await conn.executemany(
                    "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6 "
                    "WHERE player = $1 AND game = $2",
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
            by_seat = {c.seat: c for c in changes}
            await conn.executemany(
                "INSERT INTO match_seats (record_id, seat, player, ended, rating_before, rating_after) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
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
        async with self._connection() as conn:
            text = await conn.fetchval("SELECT record FROM matches WHERE record_id = $1", record_id)
        if text is None:
            return None
        record: dict[str, Any] = json.loads(text)
        return record

    async def history(
        self, player_id: str, *, limit: int = 20, before: str | None = None
    ) -> list[HistoryEntry]:
        check_text(player_id, before)
        check_limit(limit)
        select = (
            "SELECT s.record_id, s.seat, s.rating_before, s.rating_after, m.game, m.rated, m.ended, "
            "m.players, m.scores, m.winner FROM match_seats s JOIN matches m ON m.record_id = s.record_id "
            "WHERE s.player = $1 "
        )
        order = "ORDER BY s.ended DESC, s.record_id DESC, s.seat"
        async with self._connection() as conn:
            if before is None:
                rows = await conn.fetch(select + order + " LIMIT $2", player_id, limit)
            else:
                ended = await conn.fetchval("SELECT ended FROM matches WHERE record_id = $1", before)
                if ended is None:
                    return []
                rows = await conn.fetch(
                    select + "AND (s.ended, s.record_id) < ($2, $3) " + order + " LIMIT $4",
                    player_id,
                    ended,
                    before,
                    limit,
                )
        return [history_entry(dict(r)) for r in rows]

    async def ratings(self, player_id: str) -> list[GameRating]:
        check_text(player_id)
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT * FROM ratings WHERE player = $1 AND games > 0 ORDER BY game", player_id
            )
        return [GameRating(r["game"], r["rating"], r["deviation"], r["volatility"], r["games"]) for r in rows]

    async def leaderboard(self, game: str, *, limit: int = 20) -> list[Standing]:
        check_text(game)
        check_limit(limit)
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT r.*, p.name, p.bot FROM ratings r JOIN players p ON p.id = r.player "
                "WHERE r.game = $1 AND r.games > 0 ORDER BY r.rating DESC, r.games DESC, r.player LIMIT $2",
                game,
                limit,
            )
        return [
            Standing(i + 1, r["player"], r["name"], r["rating"], r["deviation"], r["games"], r["bot"])
            for i, r in enumerate(rows)
        ]

    async def standing(self, player_id: str, game: str) -> Standing | None:
        check_text(player_id, game)
        async with self._transaction() as conn:
            r = await conn.fetchrow(
                "SELECT r.*, p.name, p.bot FROM ratings r JOIN players p ON p.id = r.player "
                "WHERE r.player = $1 AND r.game = $2 AND r.games > 0",
                player_id,
                game,
            )
            if r is None:
                return None
            ahead = await conn.fetchval(
                "SELECT COUNT(*) FROM ratings WHERE game = $1 AND games > 0 AND "
                "(-rating, -games, player) < ($2, $3, $4)",
                game,
                -r["rating"],
                -r["games"],
                player_id,
            )
        return Standing(ahead + 1, player_id, r["name"], r["rating"], r["deviation"], r["games"], r["bot"])

    async def load_analysis(self, record_id: str) -> list[Any] | None:
        check_text(record_id)
        async with self._connection() as conn:
            text = await conn.fetchval("SELECT analysis FROM matches WHERE record_id = $1", record_id)
        if text is None:
            return None
        analysis: list[Any] = json.loads(text)
        return analysis

    async def save_analysis(self, record_id: str, analysis: list[Any]) -> None:
        check_text(record_id)
        if not isinstance(analysis, list):
            raise ValueError("an analysis is a list, one entry per recorded action")
        text = dumps(analysis)
        async with self._connection() as conn:
            await conn.execute("UPDATE matches SET analysis = $2 WHERE record_id = $1", record_id, text)

    async def prune(self, before: float) -> int:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "DELETE FROM matches WHERE NOT rated AND ended < $1 RETURNING record_id", float(before)
            )
        return len(rows)
