"""`cardavia cluster --redis-cluster`: a Redis Cluster of redis-server processes and the nodes on
it, started in one command and stopped whole by Ctrl-C or SIGTERM; bad input is one clear line
and exit code 2, with nothing left running."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from cardavia.cli import build_parser, main
from cardavia.launcher import LocalCluster
from cardavia.redis_cluster import LocalRedisCluster, RedisClusterError


def test_the_options_name_the_shape_of_the_cluster() -> None:
    args = build_parser().parse_args(
        ["cluster", "--redis-cluster", "--redis-masters", "4", "--redis-replicas", "2"]
    )
    assert (args.redis_cluster, args.redis_masters, args.redis_replicas) == (True, 4, 2)
    plain = build_parser().parse_args(["cluster"])
    assert (plain.redis_cluster, plain.redis_masters, plain.redis_replicas) == (False, 3, 1)


def test_every_node_is_pointed_at_the_redis_cluster(tmp_path: Path) -> None:
    shape = LocalRedisCluster(3, 1, workdir=tmp_path)
    cluster = LocalCluster(2, port=0, records_dir=tmp_path, redis_cluster=shape)
    for index in range(2):
        url = cluster.node_environment(index)["CARDAVIA_REDIS_URL"]
        host, port = url.removeprefix("redis+cluster://").split(":")
        assert (host, int(port) in shape.ports) == ("127.0.0.1", True)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--redis-cluster", "--redis-masters", "2"], "a Redis Cluster needs at least 3 masters, not 2"),
        (["--redis-cluster", "--redis-replicas", "-1"], "replicas per master must be 0 or more, not -1"),
        (
            ["--redis", "redis+cluster://"],
            "the Redis URL must look like redis://HOST:PORT/DB or redis+cluster://HOST:PORT, "
            "not 'redis+cluster://'",
        ),
        (
            ["--redis-cluster", "--redis", "redis://127.0.0.1:6379/0"],
            "--redis names a Redis that runs already, --redis-cluster starts one: choose one",
        ),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cluster", "--nodes", "1", "--port", "0", *arguments]) == 2
    assert capsys.readouterr().err == f"cardavia cluster: {message}\n"


def test_a_redis_cluster_url_no_cluster_answers_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as unused:  # bound, never listening: connections are refused
        unused.bind(("127.0.0.1", 0))
        url = f"redis+cluster://127.0.0.1:{unused.getsockname()[1]}"
        assert main(["cluster", "--nodes", "1", "--port", "0", "--redis", url]) == 2
    assert capsys.readouterr().err == f"cardavia cluster: no Redis Cluster answers at {url}\n"


def test_without_redis_server_the_command_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # neither redis-server nor redis-cli on it
    assert main(["cluster", "--nodes", "1", "--port", "0", "--redis-cluster"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardavia cluster: redis-server and redis-cli are needed")
    assert err.count("\n") == 1


async def test_a_redis_cluster_that_does_not_form_stops_everything_and_says_why(tmp_path: Path) -> None:
    """Each "redis-server" here exits at once (``false``), as one refused by its configuration would."""
    shape = LocalRedisCluster(3, 0, workdir=tmp_path / "redis", redis_server="false")
    cluster = LocalCluster(1, port=0, records_dir=tmp_path, redis_cluster=shape)
    with pytest.raises(RedisClusterError, match=r"the Redis node on port \d+ exited with code 1"):
        await cluster.start()
    assert not cluster.running(0)
    assert not any(map(shape.running, shape.ports))
