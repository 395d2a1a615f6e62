"""Play one match against a Cardavia server's bots, choosing random legal moves.

    python examples/random_client.py [ws://127.0.0.1:8765/] [scopa|briscola|schnapsen|doudizhu]

Everything a client needs is in ``cardavia.protocol``: message builders
(``Requests``), the codec, and ``ViewStore``, which keeps this seat's view from
the snapshot and the deltas that follow.
"""

from __future__ import annotations

import asyncio
import random
import sys

from websockets.asyncio.client import connect

from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests, ViewStore
from cardavia.protocol.codec import decode_server, encode


async def play(url: str, game: str) -> m.MatchResult:
    requests, store, rng = Requests(), ViewStore(), random.Random()
    async with connect(url, compression=None) as ws:
        await ws.send(encode(requests.hello("example")))
        await ws.send(encode(requests.play_now(game, bot_level="basic")))
        async for frame in ws:
            message = decode_server(frame)  # type: ignore[arg-type]
            if isinstance(message, m.Snapshot):
                store.on_snapshot(message)
            elif isinstance(message, m.Delta):
                if not store.on_delta(message):
                    await ws.send(encode(requests.resync()))
                for event in message.events:
                    print("  ", event)
            elif isinstance(message, m.YourTurn):
                hand = store.view.get("hand") if store.view else None
                action = rng.choice(message.legal)
                print(f"my hand {hand}: I play {action}")
                await ws.send(encode(requests.act(action)))
            elif isinstance(message, m.MatchResult):
                print(
                    f"match over: scores {message.scores}, winner {message.winner}, record {message.record}"
                )
                return message
            elif isinstance(message, m.Error):
                print(f"error {message.code}: {message.message}")
    raise ConnectionError("the server closed the connection before the match ended")


if __name__ == "__main__":
    asyncio.run(play(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8765/",
                     sys.argv[2] if len(sys.argv) > 2 else "scopa"))  # fmt: skip
