"""`cardavia cluster --redis-cluster`: a Redis Cluster of redis-server processes and the nodes on
it, started in one command and stopped whole by Ctrl-C or SIGTERM; bad input is one clear line
and exit code 2, with nothing left running."""

from __future__ import annotations

import asyncio
import re
import shutil
import signal
import socket
import sys
import uuid
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from cardavia.cli import build_parser, main
from cardavia.launcher import CLUSTER_PREFIX, LocalCluster
from cardavia.protocol import messages as m
from cardavia.redis_cluster import LocalRedisCluster, RedisClusterError
from cardavia.server.lobby_redis import RedisLobby
from tests.support.clients import client

needs_redis = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


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


async def test_on_a_redis_cluster_that_runs_already_only_its_own_keys_go(
    tmp_path: Path, redis_cluster: str
) -> None:
    """``--redis redis+cluster://``: the cluster is not the launcher's to stop, so it deletes its
    lobby's keys on every master, as on one Redis, and leaves the rest."""
    prefix, other = f"test-cluster-{uuid.uuid4().hex}:", f"test-other-{uuid.uuid4().hex}:"
    client = aioredis.RedisCluster.from_url(redis_cluster.replace("redis+cluster://", "redis://"))
    try:
        ours = [f"{prefix}room:{{s{shard}}}:r-{shard}" for shard in range(16)]  # spread over the masters
        for key in [*ours, other + "rooms"]:
            await client.set(key, "x")
        cluster = LocalCluster(1, port=0, redis_url=redis_cluster, records_dir=tmp_path, redis_prefix=prefix)
        cluster._lobby = RedisLobby(redis_cluster, prefix=prefix)  # as start() leaves it, without nodes
        await cluster.close()
        assert [key async for key in client.scan_iter(match=prefix + "*")] == []
        assert await client.get(other + "rooms") == b"x"
        assert await client.ping()  # still running: not the launcher's
    finally:
        await client.delete(other + "rooms")
        await client.aclose()


# ------------------------------------------------------------------ a real run
async def _started(process: asyncio.subprocess.Process, lines: list[str]) -> None:
    """Collect the command's output until it says every node is up (then keep draining it)."""
    assert process.stdout is not None
    while line := (await process.stdout.readline()).decode():
        lines.append(line)
        if line.startswith("records in "):
            return
    raise AssertionError("the cluster exited before it was up:\n" + "".join(lines))


async def _drain(process: asyncio.subprocess.Process, lines: list[str]) -> None:
    assert process.stdout is not None
    while line := (await process.stdout.readline()).decode():
        lines.append(line)


def _refuses(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


@needs_redis
@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
async def test_two_nodes_on_a_redis_cluster_share_one_lobby_and_all_of_it_stops(
    stop: signal.Signals, tmp_path: Path
) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cardavia", "cluster", "--redis-cluster", "--nodes", "2", "--port", "0",
        "--records-dir", str(tmp_path / "records"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    lines: list[str] = []
    try:
        await asyncio.wait_for(_started(process, lines), 120)
        said = "".join(lines)
        found = re.search(r"Redis Cluster: (redis\+cluster://\S+) .* on ports ([\d, ]+); .* in (\S+)\)", said)
        assert found, said
        url, ports, workdir = found[1], [int(p) for p in found[2].split(", ")], Path(found[3])
        assert len(ports) == 6
        nodes = re.findall(r"^node-\d: (ws://\S+)", said, re.MULTILINE)
        assert len(nodes) == 2
        draining = asyncio.get_running_loop().create_task(_drain(process, lines))

        # a room made on node-1 is found by its code through node-2, which redirects there
        anna = await client(nodes[0], "Anna")
        await anna.hello()
        await anna.send(anna.req.create_room("scopa", humans=2, public=False))
        made: m.Snapshot = await anna.expect(m.Snapshot)
        bo = await client(nodes[1], "Bo")
        await bo.hello()
        await bo.send(bo.req.join(code=made.room.code))
        redirect: m.Redirect = await bo.expect(m.Redirect)
        assert (redirect.url, redirect.room) == (nodes[0], made.room.room)
        await anna.ws.close()
        await bo.ws.close()

        # and the lobby on the Redis Cluster lists both nodes' heartbeats under their URLs
        lobby = RedisLobby(url, prefix=CLUSTER_PREFIX)
        try:
            assert await lobby.nodes() == {"node-1": nodes[0], "node-2": nodes[1]}
        finally:
            await lobby.close()

        process.send_signal(stop)
        assert await asyncio.wait_for(process.wait(), 90) == 0
        await draining
        assert all(map(_refuses, ports)), "a Redis node outlived the cluster"
        assert not workdir.exists()
        assert all(map(_refuses, [int(u.rsplit(":", 1)[1].strip("/")) for u in nodes]))
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
