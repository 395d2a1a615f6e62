"""What waiting for a replica costs a journaled action: microseconds per action with
``replicas_wait`` 0 (the master's word) and 1 (``WAIT`` behind each master's part of a group), on a
local Redis Cluster of three masters with a replica each.

    python -m bench.replica_wait [--alone 2000] [--rooms 50] [--rounds 40] [--repeat 3]

Alone: one room journals action after action (each its own group, a round trip each). Grouped:
``--rooms`` rooms each journal one action in the same turn of the event loop, ``--rounds`` times
(a busy node: one group per master per turn). Each figure is the median of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid

from cardavia.redis_cluster import LocalRedisCluster
from cardavia.server.lobby_redis import RedisLobby


async def measure(url: str, wait: int, alone: int, rooms: int, rounds: int) -> tuple[float, float]:
    """(µs per action alone, µs per action in groups) with ``replicas_wait=wait``."""
    lobby = RedisLobby(url, prefix=f"bench-{uuid.uuid4().hex}:", replicas_wait=wait)
    try:
        await lobby.save_match("alone", {"seed": "x"})
        started = time.perf_counter()
        for index in range(alone):
            await lobby.append_action("alone", index, {"seat": index % 2, "play": "7D"})
        one = (time.perf_counter() - started) / alone * 1e6
        started = time.perf_counter()
        for index in range(rounds):
            await asyncio.gather(
                *(lobby.append_action(f"g{room}", index, {"seat": 0, "play": "7D"}) for room in range(rooms))
            )
        grouped = (time.perf_counter() - started) / (rooms * rounds) * 1e6
    finally:
        await lobby.redis.flushall(target_nodes="primaries")
        await lobby.close()
    return one, grouped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alone", type=int, default=2000)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with LocalRedisCluster(masters=3, replicas=1) as cluster:
        figures: dict[int, list[tuple[float, float]]] = {0: [], 1: []}
        for _ in range(args.repeat):
            for wait, runs in figures.items():  # interleaved: a busy moment weighs on both alike
                runs.append(asyncio.run(measure(cluster.url, wait, args.alone, args.rooms, args.rounds)))
    for wait, runs in figures.items():
        alone = statistics.median(r[0] for r in runs)
        grouped = statistics.median(r[1] for r in runs)
        print(f"replicas_wait={wait}: {alone:6.0f} µs/action alone, {grouped:5.0f} µs/action in groups")


if __name__ == "__main__":
    main()
