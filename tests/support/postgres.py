"""The tests' PostgreSQL: one private server per machine (scripts/ensure-postgres, run once per
test process), and a fresh database for each test that wants one, dropped after it.

``CARDAVIA_TEST_POSTGRES`` names another server's URL (a user allowed to create databases) in
place of the private one."""

from __future__ import annotations

import functools
import os
import subprocess
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def postgres_url() -> str:
    """The server's URL (its ``postgres`` database), started on first use in this process; the
    script takes a lock, so test processes starting at once share one server."""
    url = os.environ.get("CARDAVIA_TEST_POSTGRES")
    if url:
        return url
    run = subprocess.run(
        [str(ROOT / "scripts" / "ensure-postgres")], capture_output=True, text=True, check=False, timeout=600
    )
    if run.returncode != 0:
        raise RuntimeError(f"scripts/ensure-postgres failed: {run.stderr.strip()}")
    return run.stdout.strip().splitlines()[-1]


def database_url(server: str, name: str) -> str:
    """``server``'s URL with another database."""
    parts = urlsplit(server)
    return urlunsplit(parts._replace(path="/" + name))


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new, empty database of its own (from template0) for the block; its URL. Dropped after,
    with any connections still open to it."""
    server = postgres_url()
    name = "cardavia_test_" + uuid.uuid4().hex
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await admin.close()
    try:
        yield database_url(server, name)
    finally:
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
