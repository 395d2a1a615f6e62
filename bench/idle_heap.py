"""What an idle connection keeps alive on the server's Python heap, and where.

    python -m bench.idle_heap [--connections 500] [--top 8]

`bench/server_load.py --idle` measures the server process's resident memory per
idle connection, which counts the allocators' pools and free space too. This
runs a server in this process with ``tracemalloc`` on, opens ``--connections``
connections from a separate process (each says `hello` and waits), and prints
the live Python memory they added, per connection, with the places that
allocated most of it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import tracemalloc

from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig

CLIENT = """
import asyncio, sys
from websockets.asyncio.client import connect
from cardavia.protocol import messages as m
from cardavia.protocol.codec import encode

async def main() -> None:
    held = []
    for number in range(int(sys.argv[2])):
        ws = await connect(sys.argv[1], compression=None)
        await ws.send(encode(m.Hello(id=1, version=m.PROTOCOL_VERSION, name=f"idle{number}")))
        await ws.recv()
        held.append(ws)
    print("ready", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


async def measure(connections: int, top: int) -> None:
    with tempfile.TemporaryDirectory(prefix="cardavia-idle-heap-") as records:
        config = ServerConfig.from_env(
            {},
            port=0,
            records_dir=records,
            sessions_per_minute=0,
            max_connections_per_ip=0,
            gc_freeze_seconds=0,
        )
        server = CardaviaServer(config)
        await server.start()
        try:
            gc.collect()
            tracemalloc.start(8)
            before = tracemalloc.take_snapshot()
            url = f"ws://127.0.0.1:{server.port}/"
            client = await asyncio.create_subprocess_exec(
                sys.executable, "-c", CLIENT, url, str(connections), stdout=asyncio.subprocess.PIPE
            )
            assert client.stdout is not None
            await client.stdout.readline()
            await asyncio.sleep(1.0)
            gc.collect()
            after = tracemalloc.take_snapshot()
            client.kill()
            await client.wait()
        finally:
            await server.shutdown()
    by_line = after.compare_to(before, "lineno")
    total = sum(stat.size_diff for stat in by_line)
    print(f"{connections} idle connections: {total / connections / 1024:.1f} KiB of live Python memory each")
    for stat in by_line[:top]:
        frame = stat.traceback[0]
        where = f"{frame.filename.split('site-packages/')[-1]}:{frame.lineno}"
        print(f"  {stat.size_diff / connections:7.0f} B  {where}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--connections", type=int, default=500, help="idle connections (default 500)")
    parser.add_argument("--top", type=int, default=8, help="allocation sites to show (default 8)")
    args = parser.parse_args()
    asyncio.run(measure(args.connections, args.top))


if __name__ == "__main__":
    main()
