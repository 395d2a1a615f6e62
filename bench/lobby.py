"""Lobby costs: operations per second on both backends, the cost of journaling each
action in Redis, the Redis commands and bytes on the wire one action costs, and how
long a dead node's rooms take to be playable elsewhere.

    python -m bench.lobby [--ops 2000] [--rooms 100] [--clients 50 --actions-seconds 10]
    python -m bench.lobby --cluster [--clients 50 --actions-seconds 10] [--redis-replicas 0]

Needs a Redis on 127.0.0.1:6379 (scripts/ensure-redis starts one); keys get a
prefix of their own and are removed afterwards.

``--cluster`` measures the same node load (one node, ``--clients`` players) twice, on a
redis-server of its own (one master) and on a Redis Cluster of three masters
(``LocalRedisCluster``), both on free loopback ports and stopped afterwards, and reports
actions/s and each master's Redis CPU per action: what the capacity model's players per
Redis master core come from.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

from bench.server_load import SERVER_ENV, cpu_seconds, free_port
from cardavia.server.lobby import LobbyStore, MemoryLobby, RoomEntry, SeatEntry
from cardavia.server.lobby_redis import RedisLobby

REDIS = os.environ.get("CARDAVIA_BENCH_REDIS", "redis://127.0.0.1:6379/0")


def entry(number: int) -> RoomEntry:
    return RoomEntry(
        room=f"r-{number:08d}", code=f"C{number:07d}", game="scopa", deck="bolognese", options={"target": 11},
        public=True, seats=[SeatEntry(), SeatEntry()], humans=2, bot_level="basic", node="bench",
    )  # fmt: skip


async def ops_per_second(lobby: LobbyStore, count: int) -> dict[str, float]:
    rates: dict[str, float] = {}
    started = time.perf_counter()
    for number in range(count):
        await lobby.create_room(entry(number))
    rates["create"] = count / (time.perf_counter() - started)
    started = time.perf_counter()
    for _ in range(count // 10):
        await lobby.list_open("scopa", 20)
    rates["list (20 rooms)"] = (count // 10) / (time.perf_counter() - started)
    started = time.perf_counter()
    for number in range(count):
        await lobby.claim_seat(f"r-{number:08d}", f"s-{number}", "bench")
    rates["join (claim a seat)"] = count / (time.perf_counter() - started)
    return rates


async def journal_latency(lobby: LobbyStore, count: int) -> list[float]:
    await lobby.save_match("r-journal", {"seed": "x", "options": {}, "seats": [], "matches": 0})
    samples = []
    for index in range(count):
        started = time.perf_counter()
        await lobby.append_action("r-journal", index, {"seat": index % 2, "play": "7D", "capture": []})
        samples.append(time.perf_counter() - started)
    return samples


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def failover(rooms: int, prefix: str) -> float:
    """Start two nodes, put ``rooms`` games on node A, kill -9 it, time until B runs them all."""
    from websockets.asyncio.client import connect

    from cardavia.protocol import messages as m
    from cardavia.protocol.codec import decode_server, encode

    ports = [free_port(), free_port()]
    env = {
        **os.environ,
        "CARDAVIA_REDIS_URL": REDIS,
        "CARDAVIA_REDIS_PREFIX": prefix,
        "CARDAVIA_BOT_DELAY": "0",
        "CARDAVIA_BOT_WORKERS": "0",
        "CARDAVIA_RECORDS_DIR": tempfile.mkdtemp(prefix="cardavia-bench-records-"),  # a fresh one to prune
    }  # heartbeat and node TTL: the server's defaults
    nodes = [
        subprocess.Popen([sys.executable, "-m", "cardavia", "serve", "--port", str(p), "--node-id", f"n{i}"],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for i, p in enumerate(ports)
    ]  # fmt: skip
    try:
        await asyncio.sleep(2.0)
        players = []
        for number in range(rooms):  # one game per player, each waiting on the player's move
            ws = await connect(f"ws://127.0.0.1:{ports[0]}/", compression=None)
            await ws.send(encode(m.Hello(id=1, version=m.PROTOCOL_VERSION, name=f"p{number}")))
            await ws.send(encode(m.PlayNow(id=2, game="briscola", bot_level="random")))
            while decode_server(await ws.recv()).type != "your_turn":  # type: ignore[arg-type]
                pass
            players.append(ws)
        lobby = RedisLobby(REDIS, prefix=prefix)
        ids = await lobby.rooms_of("n0")
        nodes[0].send_signal(signal.SIGKILL)
        killed = time.perf_counter()
        while len(await lobby.rooms_of("n1")) < len(ids):
            await asyncio.sleep(0.05)
        await lobby.close()
        for ws in players:
            await ws.close()
        return time.perf_counter() - killed
    finally:
        for proc in nodes:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


async def per_action(
    prefix: str,
    clients: int,
    seconds: float,
    *,
    lobby_url: str = REDIS,
    masters: list[str] | None = None,
    label: str = "one node on Redis",
) -> dict[str, float]:
    """Redis commands and bytes on the wire per action: one node on a Redis lobby, ``clients``
    players each in a Briscola room against a random bot (bot delay 0), for ``seconds``.

    Redis's own ``INFO commandstats`` and ``INFO cpu`` are read before and after, so every
    command and all of Redis's CPU time count: the
    journal, the room's state changes, matches that end and start again, and the node's
    heartbeat (a few commands a second, whatever the load). Bytes are the WebSocket payloads
    the players sent and received. ``masters``: the plain ``redis://`` URL of each master to
    read (on a Redis Cluster, every master; by default the lobby's one Redis). Returns the
    actions per second and the Redis CPU seconds per action, in all and of each master.
    """
    import random as random_module

    import msgpack
    import redis.asyncio as aioredis
    from websockets.asyncio.client import connect

    from cardavia.protocol import messages as m
    from cardavia.protocol.codec import encode

    port = free_port()
    env = {**os.environ, **SERVER_ENV, "CARDAVIA_REDIS_URL": lobby_url, "CARDAVIA_REDIS_PREFIX": prefix}
    node = subprocess.Popen([sys.executable, "-m", "cardavia", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    counts = {"actions": 0, "in": 0, "out": 0, "matches": 0}
    counting = asyncio.Event()

    async def play(number: int, stop: float) -> None:
        rng = random_module.Random(number)
        async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
            await ws.send(encode(m.Hello(id=1, version=m.PROTOCOL_VERSION, name=f"p{number}")))
            await ws.send(encode(m.PlayNow(id=2, game="briscola", bot_level="random")))
            while time.monotonic() < stop:
                frame = await ws.recv()
                assert isinstance(frame, bytes)
                message = msgpack.unpackb(frame)
                reply = None
                if message["type"] == "your_turn":
                    reply = msgpack.packb({"type": "act", "id": 3, "action": rng.choice(message["legal"])})
                elif message["type"] == "match_result":
                    reply = encode(m.Rematch(id=4))
                    counts["matches"] += counting.is_set()
                if counting.is_set():
                    counts["in"] += len(frame)
                    counts["out"] += len(reply) if reply else 0
                    counts["actions"] += message["type"] == "your_turn"
                if reply is not None:
                    await ws.send(reply)

    readers = [aioredis.Redis.from_url(url) for url in masters or [lobby_url]]
    try:
        await asyncio.sleep(2.0)
        stop = time.monotonic() + 2.0 + seconds
        players = asyncio.gather(*(play(i, stop) for i in range(clients)))
        await asyncio.sleep(2.0)  # connected, first deals dealt
        before = [(await r.info("commandstats"), await r.info("cpu")) for r in readers]
        counting.set()
        counted, node_cpu = time.monotonic(), cpu_seconds(node.pid)
        await players
        counted, node_cpu = time.monotonic() - counted, cpu_seconds(node.pid) - node_cpu
        after = [(await r.info("commandstats"), await r.info("cpu")) for r in readers]
    finally:
        for reader in readers:
            await reader.aclose()
        node.terminate()
        node.wait()
    calls: dict[str, int] = {}
    for (stats_before, _), (stats_after, _) in zip(before, after, strict=True):
        for name, stat in stats_after.items():
            command = name.removeprefix("cmdstat_")
            calls[command] = (
                calls.get(command, 0) + stat["calls"] - stats_before.get(name, {}).get("calls", 0)
            )
    calls = {name: n for name, n in calls.items() if n > 0 and name not in ("info", "cluster")}
    actions = max(counts["actions"], 1)
    print(f"\nper action ({counts['actions']} actions, {counts['matches']} matches, {clients} players, "
          f"{seconds:g} s; {label}):")  # fmt: skip
    ranked = sorted(calls.items(), key=lambda kv: -kv[1])
    print(
        f"  Redis commands: {sum(calls.values()) / actions:.2f}, of which "
        + ", ".join(f"{name} {n / actions:.2f}" for name, n in ranked)
    )
    cpu = [
        sum(cpu_after[k] - cpu_before[k] for k in ("used_cpu_sys", "used_cpu_user"))
        for (_, cpu_before), (_, cpu_after) in zip(before, after, strict=True)
    ]
    redis_cpu = sum(cpu)
    print(f"  Redis CPU: {redis_cpu / actions * 1e6:.1f} µs (so one Redis core would serve about "
          f"{actions / max(redis_cpu, 1e-9):,.0f} actions/s of this kind)")  # fmt: skip
    if len(cpu) > 1:
        print("  of each master: " + ", ".join(f"{c / actions * 1e6:.1f} µs" for c in cpu))
    print(f"  node CPU: {node_cpu / actions * 1e6:.1f} µs ({counts['actions'] / counted:,.0f} actions/s)")
    print(f"  WebSocket payload bytes: {counts['in'] / actions:.0f} to the player, "
          f"{counts['out'] / actions:.0f} from the player")  # fmt: skip
    return {
        "actions/s": counts["actions"] / counted,
        "cpu": redis_cpu / actions,
        "node cpu": node_cpu / actions,
        **{f"cpu {index}": c / actions for index, c in enumerate(cpu)},
    }


async def _until_answers(url: str) -> None:
    import redis.asyncio as aioredis
    from redis.exceptions import ConnectionError as RedisConnectionError

    client = aioredis.Redis.from_url(url)
    try:
        for _ in range(200):
            with contextlib.suppress(RedisConnectionError):
                if await client.ping():
                    return
            await asyncio.sleep(0.05)
        raise RuntimeError(f"no Redis answers at {url}")
    finally:
        await client.aclose()


async def one_master_and_three(clients: int, seconds: float, replicas: int) -> None:
    """The same node load on one master (a redis-server of its own) and on three (a Redis
    Cluster), each on free loopback ports with the same persistence (an append-only file,
    fsync every second), and the two side by side."""
    from cardavia.redis_cluster import LocalRedisCluster

    port = free_port()
    folder = tempfile.mkdtemp(prefix="cardavia-bench-redis-")
    single = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder,
         "--appendonly", "yes", "--appendfsync", "everysec"],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        await _until_answers(url)
        one = await per_action("bench:", clients, seconds, lobby_url=url, label="one node on one master")
    finally:
        single.terminate()
        single.wait()
        shutil.rmtree(folder, ignore_errors=True)
    with LocalRedisCluster(3, replicas, appendfsync="everysec") as cluster:
        masters = [f"redis://127.0.0.1:{p}/0" for p in sorted(cluster.masters_now())]
        three = await per_action(
            "bench:", clients, seconds, lobby_url=cluster.url, masters=masters,
            label=f"one node on a Redis Cluster of 3 masters, {replicas} replica(s) each",
        )  # fmt: skip
    print(
        f"\n{'':<24} {'actions/s':>9} {'Redis CPU/action':>17} {'busiest master':>15} {'node CPU/action':>16}"
    )
    for name, run in (("one master (one Redis)", one), ("three masters (cluster)", three)):
        busiest = max(v for k, v in run.items() if k.startswith("cpu "))
        print(
            f"{name:<24} {run['actions/s']:>9.0f} {run['cpu'] * 1e6:>14.1f} µs {busiest * 1e6:>12.1f} µs "
            f"{run['node cpu'] * 1e6:>13.1f} µs"
        )


async def cleanup(prefix: str) -> None:
    lobby = RedisLobby(REDIS, prefix=prefix)
    keys = [k async for k in lobby.redis.scan_iter(match=prefix + "*")]
    if keys:
        await lobby.redis.delete(*keys)
    await lobby.close()


async def main(args: argparse.Namespace) -> None:
    if args.cluster:  # Redis of its own, gone afterwards: nothing to clean up
        await one_master_and_three(args.clients, args.actions_seconds, args.redis_replicas)
        return
    prefix = f"cardavia-bench:{uuid.uuid4().hex}:"
    try:
        print(f"{'operation':<22} {'memory ops/s':>13} {'redis ops/s':>12}")
        memory = await ops_per_second(MemoryLobby(), args.ops)
        redis_lobby = RedisLobby(REDIS, prefix=prefix)
        redis = await ops_per_second(redis_lobby, args.ops)
        for name in memory:
            print(f"{name:<22} {memory[name]:>13.0f} {redis[name]:>12.0f}")
        samples = await journal_latency(redis_lobby, args.ops)
        print(
            f"journaling one action in Redis: p50 {pct(samples, 0.5) * 1e3:.3f} ms, "
            f"p99 {pct(samples, 0.99) * 1e3:.3f} ms (median {statistics.median(samples) * 1e3:.3f} ms)"
        )
        await redis_lobby.close()
        if args.actions_seconds:
            await per_action(prefix + "actions:", args.clients, args.actions_seconds)
        if args.rooms:
            seconds = await failover(args.rooms, prefix + "failover:")
            print(f"node killed with {args.rooms} rooms: all adopted by the other node in {seconds:.2f} s")
    finally:
        await cleanup(prefix)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--ops", type=int, default=2000)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--clients", type=int, default=50, help="players for the per-action count")
    parser.add_argument(
        "--actions-seconds",
        type=float,
        default=10.0,
        help="seconds of play for the per-action count (0: skip)",
    )
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="only the per-action count, on one Redis master and on a Redis Cluster of three",
    )
    parser.add_argument(
        "--redis-replicas", type=int, default=0, help="with --cluster: replicas of each master (default 0)"
    )
    asyncio.run(main(parser.parse_args()))
