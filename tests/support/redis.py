"""The Redis the tests share, and removing a test's own keys from it."""

from __future__ import annotations

import os

REDIS_URL = os.environ.get("CARDAVIA_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis the lobby tests use (scripts/ensure-redis starts one); each test has a key prefix of its own."""


def delete_redis_keys(url: str, prefix: str) -> None:
    """Remove a test's lobby keys (everything under its own prefix) from the Redis at ``url``."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
