"""Every test of the archive runs on both backends: SQLite in the test's own folder, and a fresh
database of its own on the tests' PostgreSQL (tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardavia.server.store import Archive, open_archive
from tests.server.store.outage import FolderOutage, Relay, database_to_take_away
from tests.support.postgres import fresh_database

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
async def archive_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A new, empty database of each backend, by its URL."""
    if request.param == "sqlite":
        yield f"sqlite://{tmp_path / 'archive.db'}"
        return
    async with fresh_database() as url:
        yield url


@pytest.fixture
async def archive(archive_url: str) -> AsyncIterator[Archive]:
    """An opened archive on each backend's fresh database, closed after the test."""
    store = open_archive(archive_url)
    await store.open()
    yield store
    await store.close()


@pytest.fixture(params=BACKENDS)
async def outage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[FolderOutage | Relay]:
    """A database of each backend that a test can take away and bring back
    (tests/server/store/outage.py); it starts up."""
    async with database_to_take_away(request.param, tmp_path) as database:
        yield database
