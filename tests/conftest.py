"""Shared test configuration: Hypothesis profiles for local runs and CI, and the live
in-process server (``config``, ``server``, ``url``) the server, client and example tests
share, and two such nodes on one lobby in Redis (``nodes``: on one Redis, then on a Redis
Cluster, ``redis_cluster``); a folder that wants other settings
overrides ``config`` in its own conftest."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig
from tests.support.nodes import two_nodes
from tests.support.redis import REDIS_BACKENDS, backend_url
from tests.support.redis_cluster import redis_cluster  # noqa: F401 (a fixture, found by name)
from tests.support.servers import server_config

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def config(tmp_path: Path) -> ServerConfig:
    return server_config(tmp_path)


@pytest.fixture
async def server(config: ServerConfig) -> AsyncIterator[CardaviaServer]:
    srv = CardaviaServer(config)
    await srv.start()
    yield srv
    await srv.shutdown()


@pytest.fixture
def url(server: CardaviaServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


@pytest.fixture(params=REDIS_BACKENDS)
def lobby_url(request: pytest.FixtureRequest) -> str:
    """Each lobby backend in Redis, by its URL: one Redis, then a Redis Cluster."""
    return backend_url(request)


@pytest.fixture
async def nodes(config: ServerConfig, lobby_url: str) -> AsyncIterator[tuple[CardaviaServer, CardaviaServer]]:
    async with two_nodes(config, lobby_url) as both:
        yield both
