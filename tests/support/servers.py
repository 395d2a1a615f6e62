"""A real server on 127.0.0.1 (a free port) with the tests' settings."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig


def server_config(tmp_path: Path, **changes: Any) -> ServerConfig:
    """A test server's settings: any free port, instant bots, no rate limit to speak of."""
    settings: dict[str, Any] = {
        "port": 0,
        "records_dir": str(tmp_path / "records"),
        "bot_delay": 0.0,
        "bot_workers": 0,
        "rate_per_second": 10_000.0,
        "rate_burst": 10_000,
        "grace_seconds": 0.5,
        "ping_interval": 0.0,
        "analysis_budget": 1,
    }
    return ServerConfig(**{**settings, **changes})


@contextlib.asynccontextmanager
async def own_server(tmp_path: Path, **changes: Any) -> AsyncIterator[tuple[CardaviaServer, str]]:
    """A server with test settings, ``changes`` applied, and its URL (for tests that need
    settings of their own)."""
    server = CardaviaServer(server_config(tmp_path, **changes))
    await server.start()
    try:
        yield server, f"ws://127.0.0.1:{server.port}/"
    finally:
        await server.shutdown()
