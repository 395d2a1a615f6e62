"""A cluster on one machine without containers: Redis and N ``cardavia serve`` nodes on loopback.

For demos (``cardavia cluster --nodes 3``) and the end-to-end tests. With
``--redis-cluster`` the lobby is a Redis Cluster of its own instead
(``LocalRedisCluster``: masters and replicas of Debian's redis-server on free
loopback ports), started before the nodes and stopped after them. Every node
is configured the way ``docker-compose.yml`` configures its containers, only
through ``CARDAVIA_*`` variables: ``NODE_ID``, ``PORT`` and ``PUBLIC_URL`` (what
redirects name) of its own, ``HOST``, ``REDIS_URL`` and ``RECORDS_DIR`` shared;
any other ``CARDAVIA_*`` setting in the environment (or in ``settings``)
reaches every node alike.

It sits beside the command line rather than in ``server/``: it is no part of a
node, only starts nodes as processes and reads their settings, so nothing in
the server imports it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING
from urllib.parse import urlsplit

from cardavia.redis_cluster import CLUSTER_SCHEMES, LocalRedisCluster
from cardavia.server.config import ENV_PREFIX, ServerConfig

if TYPE_CHECKING:
    from asyncio.subprocess import Process

    import redis.asyncio as aioredis

    from cardavia.server.lobby_redis import RedisLobby

NODE_VARIABLES = ("NODE_ID", "PORT", "PUBLIC_URL", "REDIS_URL", "RECORDS_DIR", "HOST")
"""What the cluster sets for each node itself (the rest of ``CARDAVIA_*`` is shared)."""
LOOPBACK = ("127.0.0.1", "localhost", "::1")
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
START_SECONDS = 60.0
"""How long a node may take from launch to answering /healthz and heartbeating."""
STOP_SECONDS = 30.0
"""How long a node may take to drain after SIGTERM before it is killed."""
CLUSTER_PREFIX = "cardavia-cluster:"
"""The lobby's key prefix when none is chosen. Not the server's default (``cardavia:``): the
cluster deletes every key under its prefix when it stops, and pointed at a Redis that a
deployment also uses it must not take that deployment's lobby with it. Neither prefix begins the
other, so neither's keys fall under the other's pattern."""


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """One node: its lobby id and where clients reach it."""

    node_id: str
    host: str
    port: int

    @property
    def public_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def _port_free(host: str, port: int) -> bool:
    """Whether a server could listen on the port now. Bound as asyncio binds a server, with
    SO_REUSEADDR: a port whose last connections linger in TIME_WAIT is free to the server too."""
    with socket.socket() as s:
        if os.name == "posix":
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


class LocalCluster:
    """Redis (started when none answers on a loopback URL) and N server processes.

    ``async with LocalCluster(3) as cluster:`` starts everything and waits until
    every node answers /healthz and heartbeats in the lobby; leaving the block
    sends SIGTERM to every node, waits for it to drain, deletes the lobby's keys
    (those under its prefix, ``CLUSTER_PREFIX`` unless one is chosen) and stops the Redis the
    cluster started. ``port=0`` picks free ports (tests).
    """

    def __init__(
        self,
        nodes: int = 3,
        *,
        host: str = "127.0.0.1",
        port: int = 8765,
        redis_url: str = DEFAULT_REDIS_URL,
        records_dir: str | Path = "records",
        redis_prefix: str | None = None,
        settings: Mapping[str, str] | None = None,
        log_dir: Path | None = None,
        redis_cluster: LocalRedisCluster | None = None,
    ) -> None:
        """``redis_cluster``: a Redis Cluster not yet started that the cluster starts before its
        nodes, points them at (``redis_url`` is then unused) and stops after them."""
        if nodes < 1:
            raise ValueError(f"a cluster needs at least one node, not {nodes}")
        if port != 0 and not 1 <= port <= 65535 - nodes + 1:
            raise ValueError(f"ports {port}..{port + nodes - 1} are not all valid port numbers")
        if redis_cluster is not None:
            redis_url = redis_cluster.url
        _check_redis_url(redis_url)
        self.settings = _checked_settings(settings or {})
        prefix_variable = ENV_PREFIX + "REDIS_PREFIX"
        if redis_prefix is None:  # one chosen in the settings or the environment, else the cluster's own
            redis_prefix = self.settings.get(prefix_variable, os.environ.get(prefix_variable, CLUSTER_PREFIX))
        if redis_prefix == "":  # the cluster deletes its prefix's keys: with none, every key
            raise ValueError("the Redis key prefix must not be empty")
        self.settings[prefix_variable] = redis_prefix  # every node gets it, not the server's default
        environ = {**os.environ, **self.settings}
        self.config = ServerConfig.from_env(environ)  # refuses bad values with the server's own message
        self.host = host
        self.redis_url = redis_url
        self.records_dir = Path(records_dir)
        shared_file = self.records_dir.resolve() / "cardavia.db"
        self.database_url = self.config.database_url or f"sqlite:///{shared_file}"
        """Every node's archive: the one chosen (CARDAVIA_DATABASE_URL), else one SQLite file that
        the nodes on this machine share, so a record or a profile is found from any of them."""
        self.log_dir = log_dir
        ports = [free_port(host) for _ in range(nodes)] if port == 0 else list(range(port, port + nodes))
        self.specs = [NodeSpec(f"node-{i + 1}", host, p) for i, p in enumerate(ports)]
        self._procs: list[Process | None] = [None] * nodes
        self._pumps: list[asyncio.Task[None] | None] = [None] * nodes
        self._redis_proc: Process | None = None
        self.redis_cluster = redis_cluster
        self._lobby: RedisLobby | None = None

    # ------------------------------------------------------------ lifecycle
    @property
    def urls(self) -> list[str]:
        return [spec.public_url for spec in self.specs]

    @property
    def started_redis(self) -> bool:
        """Whether the cluster runs a redis-server of its own (none answered the URL)."""
        return self._redis_proc is not None

    def running(self, index: int) -> bool:
        proc = self._procs[index]
        return proc is not None and proc.returncode is None

    def log_path(self, index: int) -> Path | None:
        return self.log_dir / f"{self.specs[index].node_id}.log" if self.log_dir else None

    def node_environment(self, index: int) -> dict[str, str]:
        """The ``CARDAVIA_*`` variables node ``index`` runs with (on top of this process's environment)."""
        spec = self.specs[index]
        return {
            **self.settings,
            ENV_PREFIX + "HOST": spec.host,
            ENV_PREFIX + "PORT": str(spec.port),
            ENV_PREFIX + "NODE_ID": spec.node_id,
            ENV_PREFIX + "PUBLIC_URL": spec.public_url,
            ENV_PREFIX + "REDIS_URL": self.redis_url,
            ENV_PREFIX + "RECORDS_DIR": str(self.records_dir),
            ENV_PREFIX + "DATABASE_URL": self.database_url,
        }

    async def start(self) -> None:
        """Redis first (if none answers), then every node; returns once all are up and heartbeating."""
        busy = [s.port for s in self.specs if not _port_free(s.host, s.port)]
        if busy:
            raise ValueError(f"port {busy[0]} on {self.host} is in use; choose another base port")
        try:
            if self.redis_cluster is not None:  # about 6 s; a thread, so signals are still heard
                await asyncio.to_thread(self.redis_cluster.start)
                self.redis_url = self.redis_cluster.url
            else:
                await self._ensure_redis()
            from cardavia.server.lobby_redis import RedisLobby

            self._lobby = RedisLobby(self.redis_url, prefix=self.config.redis_prefix)
            await asyncio.gather(*(self._launch(i) for i in range(len(self.specs))))
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """SIGTERM every node, wait for each to drain, delete the lobby's keys (the cluster's
        rooms and nodes are gone with it, and a later cluster must not meet them), then stop the
        Redis the cluster started: a Redis Cluster of its own is stopped whole and its folder
        removed, keys and all."""
        await asyncio.gather(*(self.stop_node(i) for i in range(len(self.specs)) if self.running(i)))
        if self._lobby is not None:
            await self._lobby.close()
            self._lobby = None
            if self.redis_cluster is None:
                await _delete_keys(self.redis_url, self.config.redis_prefix)
        if self.redis_cluster is not None:
            await asyncio.to_thread(self.redis_cluster.stop)
        if self._redis_proc is not None and self._redis_proc.returncode is None:
            self._redis_proc.terminate()
            await self._redis_proc.wait()
        self._redis_proc = None

    async def __aenter__(self) -> LocalCluster:
        await self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # ---------------------------------------------------------------- nodes
    async def stop_node(self, index: int, sig: signal.Signals = signal.SIGTERM) -> int:
        """Signal a node (SIGTERM: the graceful drain) and wait for it to exit; its exit code."""
        proc = self._procs[index]
        if proc is None or proc.returncode is not None:
            raise ValueError(f"{self.specs[index].node_id} is not running")
        proc.send_signal(sig)
        try:
            async with asyncio.timeout(STOP_SECONDS):
                code = await proc.wait()
        except TimeoutError:
            proc.kill()
            code = await proc.wait()
        pump = self._pumps[index]
        if pump is not None:
            await pump
        return code

    async def start_node(self, index: int) -> None:
        """Start a stopped node again under its old id; before it serves, it rebuilds the rooms
        the lobby still lists under that id (those no live node has adopted meanwhile)."""
        if self.running(index):
            raise ValueError(f"{self.specs[index].node_id} is already running")
        await self._launch(index)

    async def wait(self) -> None:
        """Until every node has exited."""
        await asyncio.gather(*(p.wait() for p in self._procs if p is not None))

    async def _launch(self, index: int) -> None:
        spec = self.specs[index]
        env = {**os.environ, **self.node_environment(index)}
        log_path = self.log_path(index)
        out: IO[bytes] | int
        if log_path is not None:
            log_path.parent.mkdir(parents=True, exist_ok=True)
            out = log_path.open("ab")
        else:
            out = asyncio.subprocess.PIPE
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "cardavia", "serve",
                env=env, stdout=out, stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,  # Ctrl-C reaches the cluster, which forwards SIGTERM
            )  # fmt: skip
        finally:
            if not isinstance(out, int):
                out.close()
        self._procs[index] = proc
        self._pumps[index] = None
        if proc.stdout is not None:
            self._pumps[index] = asyncio.get_running_loop().create_task(_pump(proc.stdout, spec.node_id))
        await self._until_up(index, proc)

    async def _until_up(self, index: int, proc: Process) -> None:
        """Until the node answers /healthz and its heartbeat is in the lobby under its URL."""
        spec = self.specs[index]
        lobby = self._require_lobby()
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if proc.returncode is not None:
                raise RuntimeError(
                    f"{spec.node_id} exited with code {proc.returncode}{self._log_tail(index)}"
                )
            if (
                await _healthy(spec.host, spec.port)
                and (await lobby.nodes()).get(spec.node_id) == spec.public_url
            ):
                return
            await asyncio.sleep(0.1)
        raise RuntimeError(
            f"{spec.node_id} did not come up within {START_SECONDS:.0f} s{self._log_tail(index)}"
        )

    def _log_tail(self, index: int) -> str:
        path = self.log_path(index)
        if path is None or not path.exists():
            return ""
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
        return "; its log ends:\n" + "\n".join(lines)

    def _require_lobby(self) -> RedisLobby:
        if self._lobby is None:
            raise RuntimeError("the cluster has not been started")
        return self._lobby

    # ---------------------------------------------------------------- Redis
    async def _ensure_redis(self) -> None:
        if await _redis_answers(self.redis_url):
            return
        parts = urlsplit(self.redis_url)
        if parts.scheme in CLUSTER_SCHEMES:  # one named by URL runs already; --redis-cluster starts one
            raise RuntimeError(f"no Redis Cluster answers at {self.redis_url}")
        if parts.hostname not in LOOPBACK or parts.scheme != "redis" or parts.password:
            raise RuntimeError(f"no Redis answers at {self.redis_url}")
        port = parts.port or 6379
        try:
            self._redis_proc = await asyncio.create_subprocess_exec(
                "redis-server", "--port", str(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", tempfile.gettempdir(),
                stdout=asyncio.subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        except FileNotFoundError:
            raise RuntimeError(
                f"no Redis answers at {self.redis_url} and redis-server is not installed "
                "(scripts/ensure-redis installs and starts one; or pass another URL)"
            ) from None
        for _ in range(100):
            if await _redis_answers(self.redis_url):
                return
            if self._redis_proc.returncode is not None:
                break
            await asyncio.sleep(0.05)
        raise RuntimeError(f"redis-server on port {port} did not start")


def _check_redis_url(url: str) -> None:
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (a port that is no number raises here)
    except ValueError:
        parts = parts._replace(netloc="")
    if parts.scheme not in ("redis", "rediss", *CLUSTER_SCHEMES) or not parts.hostname:
        raise ValueError(
            f"the Redis URL must look like redis://HOST:PORT/DB or redis+cluster://HOST:PORT, not {url!r}"
        )


def _checked_settings(settings: Mapping[str, str]) -> dict[str, str]:
    """Shared node settings: known ``CARDAVIA_*`` names only, and none the cluster sets per node."""
    known = {ENV_PREFIX + f.name.upper() for f in fields(ServerConfig)}
    own = {ENV_PREFIX + name for name in NODE_VARIABLES}
    for name in settings:
        if name not in known:
            raise ValueError(f"{name} is not a server setting (see ServerConfig)")
        if name in own:
            raise ValueError(f"{name} is set by the cluster for each node; use its arguments instead")
    return dict(settings)


def _client(url: str, *, timeout: float) -> aioredis.Redis | aioredis.RedisCluster:
    """A redis-py client for the URL: the cluster client for ``redis+cluster://`` (redis-py
    knows only ``redis://`` and ``rediss://``, so the scheme is mapped), else the plain one."""
    import redis.asyncio as aioredis

    scheme, sep, rest = url.partition("://")
    if scheme in CLUSTER_SCHEMES:
        plain = scheme.removesuffix("+cluster") + sep + rest
        return aioredis.RedisCluster.from_url(plain, socket_connect_timeout=1.0, socket_timeout=timeout)
    return aioredis.Redis.from_url(url, socket_connect_timeout=1.0, socket_timeout=timeout)


async def _redis_answers(url: str) -> bool:
    from redis.exceptions import RedisClusterException, RedisError

    try:
        client = _client(url, timeout=1.0)
    except (RedisError, OSError):
        return False
    try:
        return bool(await client.ping())
    except (RedisError, RedisClusterException, OSError):  # the second: no cluster node answers
        return False
    finally:
        await client.aclose()


async def _delete_keys(url: str, prefix: str) -> int:
    """Delete every key under ``prefix``; how many there were (0 when Redis is gone). On a Redis
    Cluster the client scans every master and deletes slot by slot."""
    from redis.exceptions import RedisClusterException, RedisError

    pattern = "".join(f"\\{c}" if c in "*?[]\\" else c for c in prefix) + "*"
    deleted = 0
    try:
        client = _client(url, timeout=5.0)
    except (RedisError, RedisClusterException, OSError):
        return deleted
    try:
        batch: list[bytes] = []
        async for key in client.scan_iter(match=pattern, count=500):
            batch.append(key)
            if len(batch) >= 500:
                deleted += await client.delete(*batch)
                batch = []
        if batch:
            deleted += await client.delete(*batch)
    except (RedisError, RedisClusterException, OSError):
        pass
    finally:
        await client.aclose()
    return deleted


async def _healthy(host: str, port: int) -> bool:
    """GET /healthz answers 200 (plain asyncio: the same probe Docker and Kubernetes make)."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        return False
    try:
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 5.0)
        return status.split()[1:2] == [b"200"]
    except (OSError, TimeoutError):
        return False
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def _pump(stream: asyncio.StreamReader, name: str) -> None:
    """Copy a node's log lines to our output, each marked with the node's id."""
    while line := await stream.readline():
        sys.stdout.write(f"{name} | {line.decode(errors='replace')}")
        sys.stdout.flush()


# ------------------------------------------------------------------ command
async def _run(args: argparse.Namespace) -> int:
    if args.redis_cluster and args.redis is not None:
        raise ValueError("--redis names a Redis that runs already, --redis-cluster starts one: choose one")
    cluster = LocalCluster(
        args.nodes,
        host=args.host,
        port=args.port,
        redis_url=args.redis or DEFAULT_REDIS_URL,
        records_dir=args.records_dir,
        redis_prefix=args.redis_prefix,
        redis_cluster=(
            LocalRedisCluster(args.redis_masters, args.redis_replicas) if args.redis_cluster else None
        ),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await cluster.start()
    if cluster.redis_cluster is not None:
        shape = cluster.redis_cluster
        ports = ", ".join(map(str, shape.ports))
        print(
            f"Redis Cluster: {cluster.redis_url} ({shape.masters} masters and {shape.replicas} replica(s) "
            f"each on ports {ports}; started by the cluster in {shape.workdir})"
        )
    else:
        where = "started by the cluster" if cluster.started_redis else "already running"
        print(f"Redis: {cluster.redis_url} ({where})")
    for spec in cluster.specs:
        print(
            f"{spec.node_id}: {spec.public_url}  (health {spec.public_url.replace('ws', 'http', 1)}healthz)"
        )
    print(
        f"records in {cluster.records_dir}/; Ctrl-C stops every node (SIGTERM, a graceful drain)", flush=True
    )
    waiting = loop.create_task(cluster.wait())
    stopping = loop.create_task(stop.wait())
    await asyncio.wait({waiting, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    await cluster.close()
    waiting.cancel()
    return 0


def _command(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_run(args))
    except (ValueError, RuntimeError) as exc:  # RedisClusterError among them
        print(f"cardavia {args.command}: {exc}", file=sys.stderr)
        return 2


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "cluster",
        help="run Redis (if none answers) and N server nodes here, configured as docker-compose.yml does",
    )
    p.add_argument("--nodes", type=int, default=3, help="how many server nodes (default 3)")
    p.add_argument(
        "--port", type=int, default=8765, help="port of the first node; the others follow (default 8765)"
    )
    p.add_argument("--host", default="127.0.0.1", help="address the nodes listen on (default 127.0.0.1)")
    p.add_argument(
        "--redis",
        help="the lobby's Redis (or redis+cluster://HOST:PORT, a Redis Cluster that runs already); "
        f"on loopback one is started when none answers (default {DEFAULT_REDIS_URL})",
    )
    p.add_argument(
        "--redis-cluster",
        action="store_true",
        help="start a Redis Cluster of redis-server processes on free loopback ports for the lobby "
        "instead, and stop it (its data gone) with the nodes",
    )
    p.add_argument(
        "--redis-masters", type=int, default=3, help="with --redis-cluster: masters (at least 3; default 3)"
    )
    p.add_argument(
        "--redis-replicas",
        type=int,
        default=1,
        help="with --redis-cluster: replicas of each master (default 1)",
    )
    p.add_argument(
        "--redis-prefix",
        help="prefix of the lobby's Redis keys, all deleted when the cluster stops "
        f"(default CARDAVIA_REDIS_PREFIX, else {CLUSTER_PREFIX}, which a server's default "
        "cardavia: keys never fall under)",
    )
    p.add_argument(
        "--records-dir", default="records", help="where every node writes records (default ./records)"
    )
    p.set_defaults(run=_command)
