"""The terminal client against a live in-process server whose bots wait a little before moving."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardavia.server.config import ServerConfig
from tests.server.conftest import server, url

__all__ = ["config", "server", "url"]


@pytest.fixture
def config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(
        port=0,
        records_dir=str(tmp_path / "records"),
        bot_delay=0.01,
        bot_workers=0,
        rate_per_second=10_000.0,
        rate_burst=10_000,
        grace_seconds=0.5,
        ping_interval=0.0,
    )
