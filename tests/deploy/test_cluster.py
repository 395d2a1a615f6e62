"""`cardavia cluster` and LocalCluster: what each node is told, and bad input refused before
anything starts. (The cluster at work: test_rolling_restart.py.)"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from cardavia.cli import main
from cardavia.launcher import LocalCluster, free_port
from cardavia.server.config import ServerConfig


def test_each_node_gets_its_own_id_port_and_public_url_and_shares_the_rest(tmp_path: Path) -> None:
    cluster = LocalCluster(
        3,
        port=9100,
        redis_url="redis://127.0.0.1:6390/2",
        records_dir=tmp_path,
        settings={"CARDAVIA_BOT_DELAY": "0"},
    )
    configs = [ServerConfig.from_env(cluster.node_environment(i)) for i in range(3)]
    assert [(c.node_id, c.port, c.public_url) for c in configs] == [
        ("node-1", 9100, "ws://127.0.0.1:9100/"),
        ("node-2", 9101, "ws://127.0.0.1:9101/"),
        ("node-3", 9102, "ws://127.0.0.1:9102/"),
    ]
    assert cluster.urls == [c.public_url for c in configs]
    assert {(c.redis_url, c.records_dir, c.bot_delay) for c in configs} == {
        ("redis://127.0.0.1:6390/2", str(tmp_path), 0.0)
    }


def test_free_ports_are_picked_when_asked() -> None:
    cluster = LocalCluster(2, port=0)
    ports = [spec.port for spec in cluster.specs]
    assert len(set(ports)) == 2
    assert 0 not in ports


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"nodes": 0}, "at least one node"),
        ({"port": 65535}, "not all valid port numbers"),
        ({"redis_url": "127.0.0.1:6379"}, "redis://HOST:PORT/DB"),
        ({"settings": {"CARDAVIA_NO_SUCH": "1"}}, "CARDAVIA_NO_SUCH is not a server setting"),
        ({"settings": {"CARDAVIA_NODE_ID": "x"}}, "set by the cluster for each node"),
        ({"settings": {"CARDAVIA_NODE_TTL": "soon"}}, "CARDAVIA_NODE_TTL: must be a number above 0"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_error(kwargs: dict[str, object], message: str) -> None:
    arguments = {"nodes": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        LocalCluster(**arguments)  # type: ignore[arg-type]


async def test_a_busy_port_is_refused_before_anything_starts(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        cluster = LocalCluster(
            1, port=port, redis_url=f"redis://127.0.0.1:{free_port()}/0", records_dir=tmp_path
        )
        with pytest.raises(ValueError, match=f"port {port} on 127.0.0.1 is in use"):
            await cluster.start()
    assert not cluster.running(0)
    assert not cluster.started_redis


async def test_a_redis_it_cannot_start_is_reported(tmp_path: Path) -> None:
    """With a password in the URL the cluster will not start a Redis of its own in its place."""
    cluster = LocalCluster(
        1, port=0, redis_url=f"redis://:secret@127.0.0.1:{free_port()}/0", records_dir=tmp_path
    )
    with pytest.raises(RuntimeError, match="no Redis answers at"):
        await cluster.start()
    assert not cluster.running(0)
    assert not cluster.started_redis


def test_the_command_reports_bad_input_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["cluster", "--nodes", "0"])
    assert code == 2
    assert capsys.readouterr().err == "cardavia cluster: a cluster needs at least one node, not 0\n"


async def test_stopping_a_node_that_is_not_running_is_refused() -> None:
    cluster = LocalCluster(1, port=0)
    with pytest.raises(ValueError, match="node-1 is not running"):
        await cluster.stop_node(0)
