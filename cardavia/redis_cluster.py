"""A Redis Cluster on loopback, made of Debian's ``redis-server``: the lobby's second backend for
``cardavia cluster --redis-cluster`` and for the test command, which runs every lobby test on it.

Theory of operation
-------------------
``LocalRedisCluster(masters=3, replicas=1)`` starts ``masters * (1 + replicas)`` plain
``redis-server`` processes with ``cluster-enabled yes`` on free loopback ports, each in a folder
of its own under one working folder (its ``nodes.conf`` and append-only file live there), then
has ``redis-cli --cluster create`` assign the 16,384 hash slots to the masters and a replica to
each. ``start`` returns only once every node reports ``cluster_state:ok`` and every replica's
link to its master is up, so a test that kills a master right away sees a real failover.

A node is killed (``kill``) with any signal and started again (``start_node``) under the same
port and folder: it reads its ``nodes.conf`` and rejoins as whatever the cluster made of it
meanwhile (a replica of the master that took its slots). ``restart`` stops every node (SIGTERM:
Redis writes its append-only file and exits) and starts them all again, the whole cluster gone
and back. Writes reach each node's append-only file (``appendfsync always`` by default: what a
master acknowledged survives even a SIGKILL of the whole cluster), so nothing acknowledged is
lost across a restart.

It is process management only: nothing in a node imports it, and it speaks to Redis through
``redis-cli`` and redis-py's plain client for status, never through the lobby.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from cardavia.server.config import CLUSTER_SCHEMES

__all__ = ["CLUSTER_SCHEMES", "LocalRedisCluster", "RedisClusterError"]

START_SECONDS = 30.0
"""How long the cluster may take from the first process to every slot served and every replica
linked."""
STOP_SECONDS = 10.0
"""How long a node may take to exit after SIGTERM before it is killed."""


class RedisClusterError(RuntimeError):
    """The local cluster could not be started (``redis-server`` missing, a node that exits,
    a cluster that does not form in time); the message names which and why."""


@dataclass(slots=True)
class _Node:
    port: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.folder / "redis.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


BUS_OFFSET = 10_000
"""A cluster node also listens on its port plus this, for the cluster bus (Redis's fixed rule)."""


def _bindable(host: str, port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


def _free_port(host: str, taken: set[int]) -> int:
    """A port free now whose bus port (``port + BUS_OFFSET``) is free too: below the ephemeral
    range, which a port 0 bind would draw from and whose bus ports would pass 65,535."""
    for _ in range(1000):
        port = random.randrange(20_000, 65_535 - BUS_OFFSET)
        if (
            port not in taken
            and port + BUS_OFFSET not in taken
            and _bindable(host, port)
            and _bindable(host, port + BUS_OFFSET)
        ):
            taken.update((port, port + BUS_OFFSET))
            return port
    raise RedisClusterError(f"no free pair of ports (port and port + {BUS_OFFSET}) on {host}")


class LocalRedisCluster:
    """Masters and replicas of a Redis Cluster on loopback ports, started and stopped as a whole.

    ``with LocalRedisCluster() as cluster:`` starts it and waits until it serves every slot;
    ``cluster.url`` is what the lobby is given (``redis+cluster://127.0.0.1:PORT``). Leaving the
    block stops every node and removes the working folder (unless one was given).
    """

    def __init__(
        self,
        masters: int = 3,
        replicas: int = 1,
        *,
        host: str = "127.0.0.1",
        workdir: Path | None = None,
        node_timeout_ms: int = 1000,
        appendfsync: str = "always",
        redis_server: str = "redis-server",
        redis_cli: str = "redis-cli",
    ) -> None:
        if masters < 3:
            raise ValueError(f"a Redis Cluster needs at least 3 masters, not {masters}")
        if replicas < 0:
            raise ValueError(f"replicas per master must be 0 or more, not {replicas}")
        if appendfsync not in ("always", "everysec", "no"):
            raise ValueError(f"appendfsync is always, everysec or no, not {appendfsync!r}")
        self.masters = masters
        self.replicas = replicas
        self.host = host
        self.node_timeout_ms = node_timeout_ms
        self.appendfsync = appendfsync
        self._redis_server = redis_server
        self._redis_cli = redis_cli
        self._own_workdir = workdir is None
        self.workdir = (
            Path(tempfile.mkdtemp(prefix="cardavia-redis-cluster-")) if workdir is None else workdir
        )
        taken: set[int] = set()
        ports = [_free_port(host, taken) for _ in range(masters * (1 + replicas))]
        self._nodes = {port: _Node(port, self.workdir / str(port)) for port in ports}

    # ------------------------------------------------------------ addresses
    @property
    def ports(self) -> list[int]:
        """Every node's port, in the order they were created (the first ``masters`` began as masters)."""
        return list(self._nodes)

    @property
    def url(self) -> str:
        """The lobby's URL: the first node still running (any node leads a client to the rest)."""
        port = next((n.port for n in self._nodes.values() if n.running), self.ports[0])
        return f"{CLUSTER_SCHEMES[0]}://{self.host}:{port}"

    def running(self, port: int) -> bool:
        return self._node(port).running

    # ------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start every node, form the cluster, and wait until it serves every slot."""
        if shutil.which(self._redis_server) is None or shutil.which(self._redis_cli) is None:
            raise RedisClusterError(
                f"{self._redis_server} and {self._redis_cli} are needed (Debian's redis-server package;"
                " scripts/ensure-redis installs it)"
            )
        try:
            for node in self._nodes.values():
                self._launch(node)
            self._wait(lambda: all(self._answers(p) for p in self._nodes), "every node to answer")
            addresses = [f"{self.host}:{p}" for p in self._nodes]
            created = subprocess.run(
                [self._redis_cli, "--cluster", "create", *addresses,
                 "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                capture_output=True, timeout=START_SECONDS, check=False,
            )  # fmt: skip
            if created.returncode != 0:
                said = created.stdout.decode(errors="replace").splitlines()[-5:]
                raise RedisClusterError("redis-cli --cluster create failed: " + " / ".join(said))
            self.wait_ready()
        except BaseException:
            self.stop()
            raise

    def wait_ready(self, timeout: float = START_SECONDS) -> None:
        """Until every running node says ``cluster_state:ok`` and every running replica's link is up."""
        self._wait(self._ready, "the cluster to serve every slot with every replica linked", timeout)

    def stop(self) -> None:
        """Stop every node (SIGTERM, then SIGKILL after ``STOP_SECONDS``) and remove an own working folder."""
        for node in self._nodes.values():
            self._terminate(node)
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def restart(self) -> None:
        """The whole cluster gone and back: every node stopped, then every node started again
        from its folder; returns once the cluster serves every slot again."""
        self.stop_all()
        self.start_all()

    def stop_all(self) -> None:
        """Stop every node and keep their folders (``start_all`` brings the same cluster back)."""
        for node in self._nodes.values():
            self._terminate(node)

    def start_all(self) -> None:
        for node in self._nodes.values():
            if not node.running:
                self._launch(node)
        self.wait_ready()

    def __enter__(self) -> LocalRedisCluster:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # ------------------------------------------------------------ one node
    def kill(self, port: int, sig: signal.Signals = signal.SIGKILL) -> None:
        """Send ``sig`` to one node and wait for it to exit (SIGKILL: a crash, nothing flushed
        beyond what ``appendfsync`` already wrote)."""
        node = self._node(port)
        if node.process is None or not node.running:
            raise ValueError(f"the Redis node on port {port} is not running")
        node.process.send_signal(sig)
        node.process.wait(STOP_SECONDS)
        node.process = None  # stopped on purpose: no longer a node that must stay up

    def freeze(self, port: int, frozen: bool = True) -> None:
        """Stop one node where it stands (SIGSTOP: a node that hangs, and answers nobody, not
        even its master), or let it go on (``frozen=False``, SIGCONT)."""
        node = self._node(port)
        if node.process is None or not node.running:
            raise ValueError(f"the Redis node on port {port} is not running")
        node.process.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)

    def start_node(self, port: int) -> None:
        """Start a stopped node again from its folder; it rejoins the cluster by itself."""
        node = self._node(port)
        if node.running:
            raise ValueError(f"the Redis node on port {port} is already running")
        self._launch(node)
        self._wait(lambda: self._answers(port), f"the Redis node on port {port} to answer")

    def masters_now(self) -> dict[int, list[tuple[int, int]]]:
        """Each running master's port and the slot ranges it serves, as the cluster says now."""
        masters: dict[int, list[tuple[int, int]]] = {}
        for port in self._nodes:
            if not self.running(port):
                continue
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                for line in self._cli(port, "CLUSTER", "NODES").splitlines():
                    parts = line.split()
                    if "myself" in parts[2] and "master" in parts[2]:
                        masters[port] = [_slot_range(part) for part in parts[8:] if not part.startswith("[")]
        return masters

    def master_of_slot(self, slot: int) -> int:
        """The port of the running master that serves ``slot`` now."""
        for port, ranges in self.masters_now().items():
            if any(low <= slot <= high for low, high in ranges):
                return port
        raise LookupError(f"no running master serves slot {slot}")

    def replicas_of(self, port: int) -> list[int]:
        """The ports of the running replicas that follow the master on ``port``."""
        followers = []
        for other in self._nodes:
            if other != port and self.running(other):
                with contextlib.suppress(OSError, subprocess.SubprocessError):
                    info = self._cli(other, "INFO", "replication")
                    if f"master_port:{port}" in info and "role:slave" in info:
                        followers.append(other)
        return followers

    # -------------------------------------------------------------- helpers
    def _node(self, port: int) -> _Node:
        try:
            return self._nodes[port]
        except KeyError:
            raise ValueError(f"no Redis node of this cluster listens on port {port}") from None

    def _launch(self, node: _Node) -> None:
        node.folder.mkdir(parents=True, exist_ok=True)
        try:
            node.process = subprocess.Popen(
                [self._redis_server,
                 "--port", str(node.port), "--bind", self.host, "--protected-mode", "no",
                 "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                 "--cluster-node-timeout", str(self.node_timeout_ms),
                 "--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", "",
                 "--dir", str(node.folder), "--logfile", str(node.log)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C for the launcher is forwarded, not shared
            )  # fmt: skip
        except OSError as exc:
            raise RedisClusterError(f"{self._redis_server} did not start: {exc}") from exc

    def _terminate(self, node: _Node) -> None:
        process = node.process
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        node.process = None

    def _cli(self, port: int, *command: str) -> str:
        done = subprocess.run(
            [self._redis_cli, "-h", self.host, "-p", str(port), *command],
            capture_output=True, timeout=5.0, check=True,
        )  # fmt: skip
        return done.stdout.decode(errors="replace")

    def _answers(self, port: int) -> bool:
        try:
            return self._cli(port, "PING").strip() == "PONG"
        except (OSError, subprocess.SubprocessError):
            return False

    def _ready(self) -> bool:
        for port, node in self._nodes.items():
            if not node.running:
                continue
            try:
                if "cluster_state:ok" not in self._cli(port, "CLUSTER", "INFO"):
                    return False
                info = self._cli(port, "INFO", "replication")
            except (OSError, subprocess.SubprocessError):
                return False
            if "role:slave" in info and "master_link_status:up" not in info:
                return False
        return True

    def _wait(self, condition: Callable[[], bool], what: str, timeout: float = START_SECONDS) -> None:
        """Until ``condition()``; a node that exits meanwhile (none was stopped on purpose) fails it
        at once with the end of its log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for node in self._nodes.values():
                if node.process is not None and node.process.poll() is not None:
                    tail = node.log.read_text(errors="replace").splitlines()[-5:] if node.log.exists() else []
                    raise RedisClusterError(
                        f"the Redis node on port {node.port} exited with code {node.process.returncode}: "
                        + " / ".join(tail)
                    )
            if condition():
                return
            time.sleep(0.05)
        raise RedisClusterError(f"timed out after {timeout:.0f} s waiting for {what}")


def _slot_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)
