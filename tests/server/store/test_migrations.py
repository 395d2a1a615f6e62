"""Schema migrations on both backends: a fresh database is migrated to the newest step, opening
again changes nothing, and a database migrated by a newer Cardavia is refused untouched."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from cardavia.server.store import Archive, SchemaTooNew, open_archive
from cardavia.server.store.base import sqlite_path
from cardavia.server.store.migrate import migrations, sqlite_statements
from tests.server.store.helpers import new_hash


def backend(url: str) -> str:
    return "sqlite" if url.startswith("sqlite:") else "postgres"


async def applied(url: str) -> list[int]:
    """The versions the database lists as applied, read past the archive."""
    if backend(url) == "sqlite":
        import sqlite3

        with sqlite3.connect(sqlite_path(url)) as db:
            return [r[0] for r in db.execute("SELECT version FROM schema_migrations ORDER BY version")]
    conn = await asyncpg.connect(url)
    try:
        return [r[0] for r in await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")]
    finally:
        await conn.close()


async def execute(url: str, sql: str) -> None:
    if backend(url) == "sqlite":
        import sqlite3

        with sqlite3.connect(sqlite_path(url)) as db:
            db.execute(sql)
        return
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def test_a_fresh_database_gets_every_step_in_order(archive: Archive, archive_url: str) -> None:
    steps = migrations(backend(archive_url))  # type: ignore[arg-type]
    assert [s.version for s in steps] == list(range(1, len(steps) + 1))
    assert await applied(archive_url) == [s.version for s in steps]
    assert await archive.ping()


async def test_opening_again_applies_nothing_and_keeps_the_data(archive: Archive, archive_url: str) -> None:
    player = await archive.create_player("Ada", new_hash())
    await archive.open()  # idempotent on the same object
    again = open_archive(archive_url)
    await again.open()
    try:
        assert await again.player(player.id) == player
        assert await applied(archive_url) == [s.version for s in migrations(backend(archive_url))]  # type: ignore[arg-type]
    finally:
        await again.close()


async def test_a_database_newer_than_the_code_is_refused_untouched(
    archive: Archive, archive_url: str
) -> None:
    player = await archive.create_player("Ada", new_hash())
    await archive.close()
    newest = len(migrations(backend(archive_url)))  # type: ignore[arg-type]
    await execute(archive_url, f"INSERT INTO schema_migrations (version, applied) VALUES ({newest + 1}, 0)")
    newer = open_archive(archive_url)
    with pytest.raises(SchemaTooNew, match=f"version {newest + 1}, newer than this Cardavia knows"):
        await newer.open()
    with pytest.raises(SchemaTooNew):
        await newer.player(player.id)  # every call refuses, none writes
    await newer.close()
    assert await applied(archive_url) == [*range(1, newest + 1), newest + 1]


def test_statements_are_split_whole() -> None:
    sql = "-- a comment\nCREATE TABLE a (x TEXT DEFAULT ';');\n\nCREATE INDEX a_x\n  ON a (x);\n"
    assert sqlite_statements(sql) == ["CREATE TABLE a (x TEXT DEFAULT ';');", "CREATE INDEX a_x\n  ON a (x);"]
    with pytest.raises(RuntimeError, match="incomplete statement"):
        sqlite_statements("CREATE TABLE b (x TEXT)")


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("", "empty"),
        ("archive.db", "no scheme"),
        ("mysql://localhost/db", "neither sqlite nor postgresql"),
        ("sqlite://host/archive.db", "names a host"),
        ("sqlite:", "names no file"),
        ("sqlite:///tmp/", "names no file"),
        ("sqlite:a.db?mode=ro", "query"),
        ("postgresql://", "names no host"),
        ("postgresql:///cardavia", "names no host"),
        ("postgresql://u@h:port/db", "malformed"),
    ],
)
def test_a_malformed_url_is_one_line_naming_the_problem(url: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as refused:
        open_archive(url)
    assert "\n" not in str(refused.value)


def test_the_url_forms_name_their_backend(tmp_path: object) -> None:
    from cardavia.server.store.postgres import PostgresArchive
    from cardavia.server.store.sqlite import SqliteArchive

    absolute = open_archive("sqlite:///var/lib/cardavia/archive.db")
    assert isinstance(absolute, SqliteArchive)
    assert str(absolute.path) == "/var/lib/cardavia/archive.db"
    relative = open_archive("sqlite:archive.db")
    assert isinstance(relative, SqliteArchive)
    assert str(relative.path) == "archive.db"
    assert isinstance(open_archive("postgresql://u@localhost:5433/cardavia"), PostgresArchive)
    assert isinstance(open_archive("postgres://u@localhost/cardavia"), PostgresArchive)
    assert isinstance(open_archive("postgresql://u@/cardavia?host=/run/postgresql"), PostgresArchive)


async def test_two_archives_migrating_one_fresh_database_at_once_both_open(archive_url: str) -> None:
    import asyncio

    first, second = open_archive(archive_url), open_archive(archive_url)
    try:
        await asyncio.gather(first.open(), second.open())
        assert await applied(archive_url) == [s.version for s in migrations(backend(archive_url))]  # type: ignore[arg-type]
        player = await first.create_player("Ada", new_hash())
        assert await second.player(player.id) == player
    finally:
        await first.close()
        await second.close()


async def test_a_closed_archive_opens_again_on_its_next_call(archive: Archive) -> None:
    """Closing ends the connection (and SQLite's thread); a call after it reconnects by itself,
    and closing twice is harmless."""
    player = await archive.create_player("Ada", new_hash())
    await archive.close()
    await archive.close()
    assert await archive.player(player.id) == player
    await archive.rename_player(player.id, "Ada B")
    await archive.close()
    renamed = await archive.player(player.id)
    assert renamed is not None
    assert renamed.name == "Ada B"


async def test_two_archives_opening_new_sqlite_files_at_once_both_open(tmp_path: Path) -> None:
    """Two nodes opening one new file together: one of them meets the other's lock while it
    puts the file in WAL mode, which SQLite refuses at once rather than waiting (it did so on
    about one file in five); each of thirty new files opens from both."""
    import asyncio

    for number in range(30):
        url = f"sqlite://{tmp_path / f'new-{number}.db'}"
        first, second = open_archive(url), open_archive(url)
        try:
            await asyncio.gather(first.open(), second.open())
        finally:
            await first.close()
            await second.close()
