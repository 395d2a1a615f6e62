"""Saturation throughput of this checkout's server against another checkout's, in one run.

    python -m bench.compare_servers --against /path/to/other/checkout [--repeat 5]
    python -m bench.compare_servers --against build/compiled/site --against /path/to/old/checkout
    python -m bench.compare_servers --nodes 2          # two node processes on one Redis lobby

Each repetition runs, back to back on the same machine: this checkout's server,
the other checkout's (each started with its folder first on ``PYTHONPATH``, so
its own ``cardavia`` is the one imported), and a bare ``websockets`` echo server that
answers each request with three frames (what an action sends its player: its
delta, the bot's delta, ``your_turn``) with no work at all. The load is
``bench/server_load.py``'s: ``--clients`` lean clients, each in a Briscola room
of its own against a random bot (bot delay 0), acting the moment their turn
comes. Figures are medians over the repetitions: actions per second, the
server's CPU (all its processes), actions per second of server CPU (a core's
worth), and the ratio to the echo's round trips per second.

``--against`` may be given more than once: every server runs in turn in each
repetition. An installed copy's folder works too: ``build/compiled/site``, where
``scripts/test-compiled`` installs the compiled build, runs that build.

``--other-env`` sets a variable for the other servers alone: with ``--against``
this same checkout, it compares two settings.

With ``--nodes N`` each server is N ``cardavia serve`` processes sharing a Redis
lobby (a key prefix of their own, deleted afterwards), each client connecting
to one of them in turn: rooms stay on the node that made them. ``--redis`` puts
a single node on the Redis lobby too, so that one and two processes compare
with the same journaling.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from bench.server_load import SERVER_ENV, cpu_seconds, echo_client, free_port, player, run_clients, start

ROOT = Path(__file__).resolve().parents[1]
REDIS = os.environ.get("CARDAVIA_BENCH_REDIS", "redis://127.0.0.1:6379/0")


@dataclass
class Run:
    rate: float
    cpu: float
    """Server CPU, in cores (1.0: one core busy the whole time)."""
    p50: float
    p99: float

    @property
    def per_core(self) -> float:
        return self.rate / self.cpu if self.cpu else 0.0


def servers(
    checkout: Path, nodes: int, extra: dict[str, str], redis: bool = False
) -> tuple[list[subprocess.Popen[bytes]], list[str], str]:
    """Start ``nodes`` server processes of ``checkout``; (processes, their URLs, the lobby prefix)."""
    env = SERVER_ENV | extra | {"PYTHONPATH": str(checkout)}  # its own ``cardavia`` (run from it, too)
    prefix = f"cardavia-bench:{uuid.uuid4().hex}:"
    if redis:
        env |= {"CARDAVIA_REDIS_URL": REDIS, "CARDAVIA_REDIS_PREFIX": prefix}
    procs, urls = [], []
    for index in range(nodes):
        port = free_port()
        node_env = env | ({"CARDAVIA_NODE_ID": f"bench-{index}"} if redis else {})
        command = [sys.executable, "-m", "cardavia", "serve", "--port", str(port)]
        procs.append(start(command, port, node_env, cwd=str(checkout)))
        urls.append(f"ws://127.0.0.1:{port}/")
    return procs, urls, prefix


def stop(procs: list[subprocess.Popen[bytes]], prefix: str, redis: bool) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            print(f"  (a server took over 20 s to stop after SIGTERM: killed; pid {proc.pid})", flush=True)
            proc.kill()
            proc.wait()
    if redis:
        from redis import Redis

        client = Redis.from_url(REDIS)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


def measure(checkout: Path, args: argparse.Namespace, extra: dict[str, str]) -> Run:
    on_redis = args.nodes > 1 or args.redis
    procs, urls, prefix = servers(checkout, args.nodes, extra, on_redis)
    try:
        time.sleep(0.5)
        marks: list[float] = []

        async def load() -> tuple[float, float, list[float]]:
            stats, elapsed = await run_clients(
                lambda i, until, st: player(urls[i % len(urls)], "briscola", until, 0.0, st, i),
                args.clients,
                args.seconds,
                args.warmup,
                0,
            )
            return stats.actions / elapsed, elapsed, stats.latencies

        async def timed() -> tuple[float, float, list[float]]:
            async def mark() -> None:
                await asyncio.sleep(args.warmup)
                marks.append(sum(cpu_seconds(p.pid) for p in procs))

            result, _ = await asyncio.gather(load(), mark())
            return result

        rate, elapsed, latencies = asyncio.run(timed())
        cpu = (sum(cpu_seconds(p.pid) for p in procs) - marks[0]) / elapsed
    finally:
        stop(procs, prefix, on_redis)
    ordered = sorted(latencies) or [float("nan")]
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return Run(rate, cpu, ordered[len(ordered) // 2], p99)


def echo(args: argparse.Namespace) -> float:
    port = free_port()
    proc = start([sys.executable, "-m", "bench.echo_server", str(port), "3"], port)
    try:
        stats, elapsed = asyncio.run(
            run_clients(
                lambda i, until, st: echo_client(f"ws://127.0.0.1:{port}/", 45, until, st, 0.0, i, 3),
                args.clients,
                args.seconds,
            )
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return stats.actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--against",
        type=Path,
        action="append",
        default=[],
        help="another checkout of Cardavia (or an installed copy's folder) to run alongside; repeatable",
    )
    parser.add_argument("--repeat", type=int, default=5, help="repetitions (default 5)")
    parser.add_argument("--clients", type=int, default=100, help="clients (default 100)")
    parser.add_argument("--seconds", type=float, default=10.0, help="counted seconds per run (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before counting (default 3)")
    parser.add_argument("--nodes", type=int, default=1, help="server processes per server (default 1)")
    parser.add_argument(
        "--redis", action="store_true", help="the Redis lobby with one node too (more than one always has it)"
    )
    parser.add_argument(
        "--other-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting for the other checkouts' servers only (e.g. CARDAVIA_EVENT_LOOP=asyncio)",
    )
    args = parser.parse_args()
    codes = {"this checkout": ROOT}
    for path in args.against:
        codes["other checkout" if len(args.against) == 1 else str(path)] = path.resolve()
    other_env = dict(item.split("=", 1) for item in args.other_env)
    extras = {name: {} if name == "this checkout" else other_env for name in codes}
    runs: dict[str, list[Run]] = {name: [] for name in codes}
    echoes: list[float] = []
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; {args.clients} clients, {args.nodes} node(s)")
    for repetition in range(args.repeat):
        for name, checkout in codes.items():
            run = measure(checkout, args, extras[name])
            runs[name].append(run)
            print(
                f"  {repetition + 1}. {name}: {run.rate:,.0f} actions/s, server CPU {run.cpu:.2f} cores, "
                f"{run.per_core:,.0f} actions/s per core, "
                f"p50 {run.p50 * 1e3:.1f} ms, p99 {run.p99 * 1e3:.1f} ms",
                flush=True,
            )
        echoes.append(echo(args))
        print(f"  {repetition + 1}. three-frame echo: {echoes[-1]:,.0f} round trips/s", flush=True)
    echo_rate = statistics.median(echoes)
    print()
    print("| server | actions/s | server CPU (cores) | actions/s per core | p50 ms | p99 ms | of the echo |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, group in runs.items():
        rate = statistics.median(r.rate for r in group)
        print(
            f"| {name} | {rate:,.0f} | {statistics.median(r.cpu for r in group):.2f} "
            f"| {statistics.median(r.per_core for r in group):,.0f} "
            f"| {statistics.median(r.p50 for r in group) * 1e3:.1f} "
            f"| {statistics.median(r.p99 for r in group) * 1e3:.1f} | {rate / echo_rate:.0%} |"
        )
    print(f"| three-frame echo | {echo_rate:,.0f} round trips/s | | | | | |")
    ours = statistics.median(r.per_core for r in runs["this checkout"])
    for name, group in runs.items():
        if name != "this checkout":
            theirs = statistics.median(r.per_core for r in group)
            pairs = [a.per_core / b.per_core for a, b in zip(runs["this checkout"], group, strict=True)]
            each = ", ".join(f"{x:.2f}" for x in pairs)
            print(f"\nactions/s per core, this checkout against {name}: {ours / theirs:.2f} times")
            print(f"  (each repetition: {each})")


if __name__ == "__main__":
    main()
