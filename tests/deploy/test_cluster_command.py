"""`cardavia cluster`: a port left in TIME_WAIT is free, the lobby's keys go with the cluster,
and the lobby's key prefix can be chosen; by default it is not a server's."""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from cardavia.cli import build_parser
from cardavia.launcher import CLUSTER_PREFIX, LocalCluster, _port_free
from cardavia.server.config import ServerConfig
from cardavia.server.lobby_redis import RedisLobby

REDIS_URL = "redis://127.0.0.1:6379/0"


def test_a_port_whose_connections_linger_in_time_wait_is_free() -> None:
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = listener.accept()
        accepted.close()  # the server's side closes first: its end of the connection waits in TIME_WAIT
        client.recv(1)
        client.close()
    assert _port_free("127.0.0.1", port)


def test_a_port_a_server_listens_on_is_not_free() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert not _port_free("127.0.0.1", listener.getsockname()[1])


def test_the_redis_prefix_reaches_every_node(tmp_path: Path) -> None:
    cluster = LocalCluster(2, port=0, records_dir=tmp_path, redis_prefix="demo:")
    assert cluster.config.redis_prefix == "demo:"
    for index in range(2):
        assert ServerConfig.from_env(cluster.node_environment(index)).redis_prefix == "demo:"
    args = build_parser().parse_args(["cluster", "--redis-prefix", "demo:"])
    assert args.redis_prefix == "demo:"


async def test_stopping_the_cluster_deletes_its_lobby_keys_and_no_others(tmp_path: Path) -> None:
    prefix = f"test-cluster-{uuid.uuid4().hex}:"
    other = f"test-other-{uuid.uuid4().hex}:"
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        await client.set(prefix + "node:node-1", "ws://127.0.0.1:1/")
        await client.set(prefix + "rooms", "x")
        await client.set(other + "rooms", "y")
        cluster = LocalCluster(1, port=0, records_dir=tmp_path, redis_prefix=prefix)
        cluster._lobby = RedisLobby(REDIS_URL, prefix=prefix)  # as start() leaves it, without nodes
        await cluster.close()
        assert [key async for key in client.scan_iter(match=prefix + "*")] == []
        assert await client.get(other + "rooms") == b"y"
    finally:
        await client.delete(other + "rooms")
        await client.aclose()


def test_the_prefix_is_checked_like_the_server_checks_it(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="prefix must not be empty"):
        LocalCluster(1, port=0, records_dir=tmp_path, redis_prefix="")


async def test_by_default_a_stopping_cluster_leaves_the_keys_of_a_server_with_the_default_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cluster deletes its prefix's keys when it stops; pointed at a Redis a deployment
    shares, a cluster run with no prefix chosen must not take the deployment's lobby, which
    lives under the server's default prefix."""
    monkeypatch.delenv("CARDAVIA_REDIS_PREFIX", raising=False)
    server_default = ServerConfig.from_env({}).redis_prefix
    assert server_default == "cardavia:"
    deployment = f"{server_default}rooms:test-{uuid.uuid4().hex}"
    args = build_parser().parse_args(["cluster"])
    cluster = LocalCluster(1, port=0, records_dir=tmp_path, redis_prefix=args.redis_prefix)
    assert cluster.config.redis_prefix == CLUSTER_PREFIX
    assert ServerConfig.from_env(cluster.node_environment(0)).redis_prefix == CLUSTER_PREFIX
    own = f"{CLUSTER_PREFIX}rooms:test-{uuid.uuid4().hex}"
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        await client.set(deployment, "the deployment's room")
        await client.set(own, "the cluster's room")
        cluster._lobby = RedisLobby(REDIS_URL, prefix=CLUSTER_PREFIX)  # as start() leaves it, without nodes
        await cluster.close()
        assert await client.get(deployment) == b"the deployment's room"
        assert await client.get(own) is None
    finally:
        await client.delete(deployment, own)
        await client.aclose()


def test_a_prefix_from_the_environment_is_still_the_clusters_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDAVIA_REDIS_PREFIX", "demo-env:")
    cluster = LocalCluster(1, port=0, records_dir=tmp_path)
    assert ServerConfig.from_env(cluster.node_environment(0)).redis_prefix == "demo-env:"
    assert cluster.config.redis_prefix == "demo-env:"
