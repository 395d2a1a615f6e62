"""Schema migrations: numbered SQL files per backend, applied in order on ``Archive.open``.

``migrations/<backend>/NNNN_what.sql`` holds one step; a database records each step it took in
``schema_migrations(version, applied)``, the first table made. Each backend runs the pending
steps inside one transaction, under a lock that keeps two nodes opening the same database from
migrating it twice (SQLite's write lock, a PostgreSQL advisory lock), so a failed step leaves
the database as it was. A database whose newest step is one this code does not know was
migrated by a newer Cardavia: it is refused with :class:`SchemaTooNew`, nothing touched.

A step once released is never edited: a change to the schema is a new file.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib.resources import files
from typing import Final, Literal

from cardavia.server.store.base import SchemaTooNew

Backend = Literal["sqlite", "postgres"]

_FILE: Final = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")

CREATE_TABLE: Final = (
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied {time} NOT NULL)"
)
"""The first table, made before any step (``{time}``: the backend's floating-point type)."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(backend: Backend) -> list[Migration]:
    """The backend's steps in order; numbered 1, 2, 3… without a gap (checked)."""
    folder = files("cardavia.server.store") / "migrations" / backend
    steps = []
    for entry in folder.iterdir():
        found = _FILE.fullmatch(entry.name)
        if found:
            steps.append(Migration(int(found.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    steps.sort(key=lambda m: m.version)
    if [m.version for m in steps] != list(range(1, len(steps) + 1)):
        raise RuntimeError(f"the {backend} migrations are not numbered 1..{len(steps)}: {steps}")
    return steps


def pending(backend: Backend, current: int) -> list[Migration]:
    """The steps a database at version ``current`` still needs; SchemaTooNew for one ahead of us."""
    steps = migrations(backend)
    known = steps[-1].version if steps else 0
    if current > known:
        raise SchemaTooNew(
            f"the database's schema is at version {current}, newer than this Cardavia knows "
            f"({known}): run a Cardavia at least as new as the one that migrated it"
        )
    return [m for m in steps if m.version > current]


def sqlite_statements(sql: str) -> list[str]:
    """A migration file's statements one by one (Python's ``executescript`` would commit the
    transaction the steps run in)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"a migration ends in an incomplete statement: {buffer.strip()[:80]!r}")
    return statements
