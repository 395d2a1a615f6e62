"""A bare websockets echo server: the ceiling the game server is measured against."""

from __future__ import annotations

import asyncio
import sys

from websockets.asyncio.server import ServerConnection, serve


async def echo(ws: ServerConnection) -> None:
    async for frame in ws:
        await ws.send(frame)


async def main(port: int) -> None:
    async with serve(echo, "127.0.0.1", port, compression=None, ping_interval=None):
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
