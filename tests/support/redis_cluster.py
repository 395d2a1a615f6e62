"""A real Redis Cluster for the lobby tests: one per test process, started the first time a test
asks for it (``redis_cluster``, the URL) and stopped when the process ends.

Three masters and no replicas: the lobby tests need the cluster's slots and redirections, not
its failover (tests of failover start a cluster of their own), and each process of a parallel
run starts its own, so the lightest cluster that is one keeps the run short. Tests share it as
they share the one Redis: each under a key prefix of its own, removed afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardavia.redis_cluster import LocalRedisCluster


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[str]:
    """The URL of this test process's Redis Cluster (``redis+cluster://127.0.0.1:PORT``)."""
    with LocalRedisCluster(masters=3, replicas=0, appendfsync="no") as cluster:
        yield cluster.url
