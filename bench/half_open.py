"""Sockets that never send their HTTP request, from one address: what the node holds for them.

    python -m bench.half_open [--sockets 1000]

A ``cardavia serve`` node with its default settings (a temporary data directory,
a port of its own) gets ``--sockets`` TCP connections from this process that
send nothing. The benchmark prints how many file descriptors and how much
memory (RSS) the node holds for them, what a WebSocket opened beside them is
told, and how long the node takes to be back at its idle number of sockets.

With the per-address limit counted from each socket's acceptance
(``server/front_door.py``), the node holds ``max_connections_per_ip`` of them
(64) and the few it lets in to be told why (``REFUSALS_AT_ONCE``), drops the
rest as it accepts them, and drops those it holds after ``IDLE_OPEN_TIMEOUT``
(2 s), all within the one-second sweep of ``server/wire.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _sockets(pid: int) -> int:
    """The node's open file descriptors that are sockets."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            continue
    return count


async def _wait_for_port(port: int) -> None:
    for _ in range(200):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return
    raise SystemExit("the node did not start")


async def _websocket_beside(url: str) -> str:
    """What a WebSocket from the same address is told while the silent sockets are open."""
    try:
        async with connect(url, open_timeout=5) as ws:
            try:
                await asyncio.wait_for(ws.recv(), 3)
            except ConnectionClosed as exc:
                return f"closed with {exc.rcvd.code}: {exc.rcvd.reason}" if exc.rcvd else "closed"
            except TimeoutError:
                return "admitted"
    except (InvalidHandshake, InvalidMessage, OSError) as exc:
        return f"refused before its handshake ({type(exc).__name__})"
    return "admitted"


async def run(count: int) -> None:
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        node = subprocess.Popen(
            [sys.executable, "-m", "cardavia", "serve", "--port", str(port), "--records-dir", data],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            await _wait_for_port(port)
            await asyncio.sleep(2.5)  # the probe's own socket gone
            idle_sockets, idle_rss = _sockets(node.pid), _rss_mib(node.pid)
            held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]
            await asyncio.sleep(0.5)
            print(
                f"{count:,} silent sockets from one address: the node holds "
                f"{_sockets(node.pid) - idle_sockets} of them, RSS +{_rss_mib(node.pid) - idle_rss:.1f} MiB"
            )
            print(f"a WebSocket beside them: {await _websocket_beside(f'ws://127.0.0.1:{port}/')}")
            start = time.monotonic()
            while _sockets(node.pid) > idle_sockets and time.monotonic() - start < 30:
                await asyncio.sleep(0.1)
            print(f"the node back at its idle sockets after {time.monotonic() - start:.1f} s")
            print(f"a WebSocket then: {await _websocket_beside(f'ws://127.0.0.1:{port}/')}")
            for _, writer in held:
                writer.close()
        finally:
            node.terminate()
            node.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000, help="silent sockets to open (default 1000)")
    args = parser.parse_args()
    if args.sockets < 1:
        parser.error("--sockets must be at least 1")
    asyncio.run(run(args.sockets))


if __name__ == "__main__":
    main()
