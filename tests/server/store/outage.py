"""A database that goes away and comes back, for each backend.

SQLite: the folder holding the file is moved away and back (a volume unmounted and mounted
again). PostgreSQL: the archive reaches the server through a relay on a port of its own, which
stops listening and cuts every connection through it, then listens on the same port again (the
server, or the network to it, down and back). The tests' PostgreSQL itself is shared by every
test process, so it is never stopped."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tests.support.ports import free_port
from tests.support.postgres import fresh_database


@dataclass
class FolderOutage:
    """The SQLite file's folder moved away and back."""

    folder: Path

    @property
    def url(self) -> str:
        return f"sqlite://{self.folder / 'archive.db'}"

    async def down(self) -> None:
        self.folder.rename(self.folder.with_name(self.folder.name + ".away"))

    async def up(self) -> None:
        self.folder.with_name(self.folder.name + ".away").rename(self.folder)

    async def close(self) -> None:
        pass


@dataclass
class Relay:
    """A TCP relay on 127.0.0.1 to a PostgreSQL server: down cuts it off, up restores it."""

    server_url: str
    port: int = field(default_factory=free_port)
    _listener: asyncio.Server | None = None
    _writers: set[asyncio.StreamWriter] = field(default_factory=set)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def url(self) -> str:
        parts = urlsplit(self.server_url)
        return urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{self.port}"))

    async def up(self) -> None:
        self._listener = await asyncio.start_server(self._relay, "127.0.0.1", self.port, reuse_address=True)

    async def down(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        for writer in list(self._writers):
            writer.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    close = down

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        target = urlsplit(self.server_url)
        try:
            far_reader, far_writer = await asyncio.open_connection(target.hostname, target.port)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, far_writer}
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await asyncio.gather(self._pipe(reader, far_writer), self._pipe(far_reader, writer))
        finally:
            self._tasks.discard(task)
            self._writers -= {writer, far_writer}

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.transport.abort()


@contextlib.asynccontextmanager
async def database_to_take_away(backend: str, tmp_path: Path) -> AsyncIterator[FolderOutage | Relay]:
    """A database of ``backend`` ("sqlite" or "postgres") that a test can take away and bring
    back: the SQLite file's folder moved away, or the relay to a fresh PostgreSQL database cut.
    It starts up."""
    if backend == "sqlite":
        folder = tmp_path / "volume"
        folder.mkdir()
        yield FolderOutage(folder)
        return
    async with fresh_database() as url:
        relay = Relay(url)
        await relay.up()
        yield relay
        await relay.down()
