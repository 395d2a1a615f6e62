"""The Redis the tests share, the lobby's backends on Redis, and removing a test's own keys."""

from __future__ import annotations

import os
import uuid

import pytest

from cardavia.server.config import CLUSTER_SCHEMES
from cardavia.server.lobby_redis import Client

REDIS_URL = os.environ.get("CARDAVIA_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis the lobby tests use (scripts/ensure-redis starts one); each test has a key prefix of its own."""

REDIS_BACKENDS = ("redis", "cluster")
"""The lobby's backends in Redis: one Redis, and a Redis Cluster (``redis_cluster``): a fixture
parametrized by these runs its tests on both."""


def backend_url(request: pytest.FixtureRequest) -> str:
    """The URL of the backend a fixture parametrized by ``REDIS_BACKENDS`` is run with."""
    if request.param == "cluster":
        url: str = request.getfixturevalue("redis_cluster")
        return url
    return REDIS_URL


def own_prefix() -> str:
    """A key prefix no other test uses."""
    return f"cardavia-test:{uuid.uuid4().hex}:"


async def delete_keys(client: Client, prefix: str) -> None:
    """Remove every key under ``prefix`` (one Redis, or every master of a cluster)."""
    keys = [k async for k in client.scan_iter(match=prefix + "*")]
    async with client.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.delete(key)  # one key a command: a cluster's keys lie in many slots
        await pipe.execute()


def delete_redis_keys(url: str, prefix: str) -> None:
    """Remove a test's lobby keys (everything under its own prefix) from the Redis, or the Redis
    Cluster, at ``url`` (for tests without an event loop)."""
    import redis
    from redis.cluster import RedisCluster

    scheme, _, rest = url.partition("://")
    client: redis.Redis | RedisCluster = (
        RedisCluster.from_url(scheme.removesuffix("+cluster") + "://" + rest)
        if scheme in CLUSTER_SCHEMES
        else redis.Redis.from_url(url)
    )
    try:
        for key in list(client.scan_iter(match=prefix + "*")):
            client.delete(key)
    finally:
        client.close()
