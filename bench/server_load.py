"""Load on the real server, from a separate process, against a bare echo server.

    python -m bench.server_load [--clients 100] [--seconds 20] [--game briscola]
    python -m bench.server_load --clients 1000 --pace 1 --seconds 30
    python -m bench.server_load --idle 1000          # memory per idle connection
    python -m bench.server_load --echo-replies 3     # the echo answers with an action's three frames

Each client is one of ``cardavia swarm``'s (``clients/cli/load.py``: validated
messages, a kept view, resync on gaps; ``--raw`` uses lean clients that skip
both) and plays a room of its own (itself + a random bot) with random legal moves,
acting the moment its turn comes (saturation) or about once per ``--pace``
seconds. Latency is from sending an action to receiving the delta it caused.
The echo run uses the same number of clients sending frames of the same size
and waiting for each echo, so the ratio compares like with like; paced, the
echo clients keep the same pace, and their latency is the harness's own floor.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import connect

from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests
from cardavia.protocol.codec import encode

SERVER_ENV = {
    "CARDAVIA_BOT_DELAY": "0",
    "CARDAVIA_BOT_WORKERS": "0",
    "CARDAVIA_RATE_PER_SECOND": "1000",
    "CARDAVIA_RATE_BURST": "1000",
    # every client comes from one address: the per-address limits are lifted, as behind a proxy
    "CARDAVIA_SESSIONS_PER_MINUTE": "0",
    "CARDAVIA_MAX_CONNECTIONS_PER_IP": "0",
    "CARDAVIA_LOG_LEVEL": "WARNING",
}
"""The settings of a server under load in the benches: bots answer at once, no limit is in the way.

Each server started by ``start`` also writes its records to a new folder of its own, deleted
when the bench ends: a server prunes its records folder when it starts, and one shared by
every earlier run (tens of thousands of files) had each new server spend its first seconds,
those the figures count, reading it."""


@dataclass
class Stats:
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    delta_bytes: list[int] = field(default_factory=list)
    errors: int = 0
    counting_from: float = 0.0
    server_pid: int = 0
    server_cpu_at_start: float = 0.0
    client_cpu_at_start: float = 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(
    cmd: list[str], port: int, env: dict[str, str] | None = None, cwd: str | None = None
) -> subprocess.Popen[bytes]:
    """Start a server and wait for its port (``cwd``: where ``python -m`` finds its package first)."""
    records = tempfile.mkdtemp(prefix="cardavia-bench-records-")
    atexit.register(shutil.rmtree, records, ignore_errors=True)
    proc = subprocess.Popen(
        cmd,
        env={**os.environ, "CARDAVIA_RECORDS_DIR": records, **(env or {})},
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"{cmd} did not start")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def play_now_frame(request_id: int, game: str, bot_level: str) -> bytes:
    """``play_now`` with the fields the load sets and no others.

    ``encode`` sends every field that is not null, ``rated: false`` among them, and a
    server from before that field (before commit 14876fe) refuses a field it does not
    know: every room of the load would be refused, and a comparison against an older
    checkout (``bench/compare_servers.py --against``) would count no action at all.
    """
    return msgpack.packb({"type": "play_now", "id": request_id, "game": game, "bot_level": bot_level})


async def player(url: str, game: str, stop: float, pace: float, stats: Stats, seed: int) -> None:  # noqa: PLR0917
    """One client; only actions after the warm-up (connections and first deals) are counted."""
    rng = random.Random(seed)
    req = Requests()
    async with connect(url, compression=None, max_size=2**20) as ws:
        await ws.send(encode(req.hello(f"load{seed}")))
        await ws.send(play_now_frame(req.next_id(), game, "random"))
        sent_at: float | None = None
        while time.monotonic() < stop:
            try:
                frame = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            assert isinstance(frame, bytes)
            message = msgpack.unpackb(frame)  # a load client skips validation: the server is measured
            kind = message["type"]
            if kind == "delta":
                stats.delta_bytes.append(len(frame))
                if sent_at is not None:
                    if time.monotonic() >= stats.counting_from:
                        stats.latencies.append(time.perf_counter() - sent_at)
                        stats.actions += 1
                    sent_at = None
            elif kind == "your_turn":
                if pace:
                    await asyncio.sleep(rng.uniform(0, 2 * pace))
                sent_at = time.perf_counter()
                await ws.send(msgpack.packb({"type": "act", "id": 1, "action": rng.choice(message["legal"])}))
            elif kind == "match_result":
                await ws.send(encode(m.Rematch(id=req.next_id())))
            elif kind == "error":
                stats.errors += 1


async def echo_client(  # noqa: PLR0917
    url: str, size: int, stop: float, stats: Stats, pace: float, seed: int, replies: int = 1
) -> None:
    """Round trips of ``size`` bytes, back to back or about one per ``pace`` seconds (as players);
    each waits for ``replies`` frames back."""
    payload = os.urandom(size)
    rng = random.Random(seed)
    async with connect(url, compression=None) as ws:
        while time.monotonic() < stop:
            if pace:
                await asyncio.sleep(rng.uniform(0, 2 * pace))
            started = time.perf_counter()
            await ws.send(payload)
            for _ in range(replies):
                await ws.recv()
            if time.monotonic() >= stats.counting_from:
                stats.latencies.append(time.perf_counter() - started)
                stats.actions += 1


async def run_clients(
    make: Any, clients: int, seconds: float, warmup: float = 0.0, server_pid: int = 0
) -> tuple[Stats, float]:
    """Run the clients for warm-up + ``seconds``; the figures cover the last ``seconds``."""
    stats = Stats(counting_from=time.monotonic() + warmup, server_pid=server_pid)
    stop = stats.counting_from + seconds

    async def mark() -> None:
        await asyncio.sleep(warmup)
        stats.client_cpu_at_start = time.process_time()
        if stats.server_pid:
            stats.server_cpu_at_start = cpu_seconds(stats.server_pid)

    await asyncio.gather(mark(), *(make(i, stop, stats) for i in range(clients)), return_exceptions=True)
    return stats, seconds


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def idle_memory(url: str, pid: int, count: int) -> float:
    before = rss_bytes(pid)
    sockets = []
    for i in range(count):
        ws = await connect(url, compression=None)
        await ws.send(encode(m.Hello(id=1, version=m.PROTOCOL_VERSION, name=f"idle{i}")))
        await ws.recv()
        sockets.append(ws)
    await asyncio.sleep(1.0)
    after = rss_bytes(pid)
    for ws in sockets:
        await ws.close()
    return (after - before) / count


async def swarm(url: str, args: argparse.Namespace, pid: int) -> tuple[Stats, float, float, float]:
    """The load of `cardavia swarm`: real clients (validated messages, kept views), one per room."""
    from cardavia.clients.cli.load import run_swarm

    marks: list[tuple[float, float]] = []  # (wall, server CPU) when the figures start to count

    report = await run_swarm(
        url, clients=args.clients, rooms=args.clients, game=args.game,
        duration=args.seconds, warmup=args.warmup, think=args.pace,
        on_counting=lambda: marks.append((time.monotonic(), cpu_seconds(pid))),
    )  # fmt: skip
    wall, cpu = marks[0] if marks else (time.monotonic(), cpu_seconds(pid))
    share = (cpu_seconds(pid) - cpu) / max(time.monotonic() - wall, 1e-9)
    stats = Stats(actions=report.actions, latencies=report.latencies, errors=sum(report.errors.values()))
    return stats, report.seconds, share * report.seconds, report.cpu_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="briscola")
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="mean seconds between a client's actions (0: as fast as it can)",
    )
    parser.add_argument(
        "--idle", type=int, default=0, help="only measure memory per idle connection with N clients"
    )
    parser.add_argument("--no-echo", action="store_true")
    parser.add_argument(
        "--echo-replies",
        type=int,
        default=1,
        help="frames the echo server sends back per request (3: the frames of one action, with no work)",
    )
    parser.add_argument(
        "--raw",
        action="store_true",
        help="lean clients that skip validation and views, instead of `cardavia swarm`'s full clients",
    )
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before counting starts")
    args = parser.parse_args()

    port = free_port()
    server = start([sys.executable, "-m", "cardavia", "serve", "--port", str(port)], port, SERVER_ENV)
    url = f"ws://127.0.0.1:{port}/"
    try:
        if args.idle:
            per = asyncio.run(idle_memory(url, server.pid, args.idle))
            print(f"idle connections: {args.idle}, server memory per idle connection: {per / 1024:.1f} KiB")
            return
        if args.raw:
            stats, elapsed = asyncio.run(
                run_clients(
                    lambda i, stop, st: player(url, args.game, stop, args.pace, st, i),
                    args.clients,
                    args.seconds,
                    args.warmup,
                    server.pid,
                )
            )
            cpu = cpu_seconds(server.pid) - stats.server_cpu_at_start
            client_cpu = time.process_time() - stats.client_cpu_at_start
        else:
            stats, elapsed, cpu, client_cpu = asyncio.run(swarm(url, args, server.pid))
        rss = rss_bytes(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)
    rate = stats.actions / elapsed
    mean_delta = statistics.mean(stats.delta_bytes) if stats.delta_bytes else 0.0
    print(f"game server: {args.clients} clients ({args.game}, pace {args.pace or 'max'}), {elapsed:.1f} s")
    print(f"  actions/s {rate:.0f}, errors {stats.errors}")
    print(
        f"  action → own delta latency ms: p50 {pct(stats.latencies, 0.5) * 1e3:.2f} "
        f"p95 {pct(stats.latencies, 0.95) * 1e3:.2f} p99 {pct(stats.latencies, 0.99) * 1e3:.2f}"
    )
    if stats.delta_bytes:  # the raw clients see frames; swarm clients see messages
        print(f"  bytes per delta (mean) {mean_delta:.0f}")
    print(f"  load generator CPU {client_cpu / elapsed:.0%} of one core")
    print(
        f"  server CPU {cpu / elapsed:.0%} of one core, RSS {rss / 2**20:.1f} MiB "
        f"({rss / args.clients / 1024:.1f} KiB per client)"
    )
    if args.no_echo:
        return
    port = free_port()
    echo = start([sys.executable, "-m", "bench.echo_server", str(port), str(args.echo_replies)], port)
    try:
        size = 45  # an `act` frame
        echo_stats, echo_elapsed = asyncio.run(
            run_clients(
                lambda i, stop, st: echo_client(
                    f"ws://127.0.0.1:{port}/", size, stop, st, args.pace, i, args.echo_replies
                ),
                args.clients,
                args.seconds,
                args.warmup if args.pace else 0.0,
            )
        )
    finally:
        echo.terminate()
        echo.wait(timeout=10)
    echo_rate = echo_stats.actions / echo_elapsed
    replies = f" ({args.echo_replies} frames back per request)" if args.echo_replies != 1 else ""
    kind = "at the same pace" if args.pace else "ceiling"
    print(
        f"echo{replies} {kind}: {echo_rate:.0f} round trips/s, latency ms: "
        + " ".join(f"p{q} {pct(echo_stats.latencies, q / 100) * 1e3:.2f}" for q in (50, 95, 99))
    )
    if not args.pace:  # paced, the echo shows the harness's own latency floor instead
        print(f"ratio: game server actions/s = {rate / echo_rate:.0%} of the echo ceiling")


if __name__ == "__main__":
    main()
