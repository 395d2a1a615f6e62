"""The terminal client against a live in-process server whose bots wait a little before moving."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardavia.server.config import ServerConfig
from tests.support.servers import server_config


@pytest.fixture
def config(tmp_path: Path) -> ServerConfig:
    return server_config(tmp_path, bot_delay=0.01)
