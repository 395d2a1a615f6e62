"""A bare websockets echo server: the ceiling the game server is measured against.

``python -m bench.echo_server PORT [REPLIES]``: each frame comes back REPLIES
times (default 1), to measure what the frames of one game action cost with no
work at all (a move sends the player three: its delta, the bot's, your_turn).
"""

from __future__ import annotations

import asyncio
import sys

from websockets.asyncio.server import ServerConnection, serve


async def echo(ws: ServerConnection, replies: int) -> None:
    async for frame in ws:
        for _ in range(replies):
            await ws.send(frame)


async def main(port: int, replies: int) -> None:
    async with serve(lambda ws: echo(ws, replies), "127.0.0.1", port, compression=None, ping_interval=None):
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1))
