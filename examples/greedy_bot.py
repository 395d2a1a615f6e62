"""A Scopa bot of your own, on the bot SDK: take as many cards as possible, else throw the lowest card.

    python examples/greedy_bot.py [ws://127.0.0.1:8765/] [games]

It plays against the server's bots as a network client; the SDK connects,
answers turns, asks for rematches and takes its seat back if the connection
drops. ``turn.view`` is this seat's view, ``turn.legal`` the legal actions in
the protocol's data form, e.g. ``{"play": "7D", "capture": ["3S", "4C"]}``.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from cardavia.clients.cli.sdk import GameResult, Turn, run_bot

RANKS = "A234567JQK"


def greedy(turn: Turn) -> dict[str, Any]:
    return max(turn.legal, key=lambda action: (len(action["capture"]), -RANKS.index(action["play"][0])))


async def play(url: str, games: int = 1) -> list[GameResult]:
    return await run_bot(
        url, greedy, game="scopa", name="Greedy", games=games, on_result=lambda r: print(r.line("greedy"))
    )


if __name__ == "__main__":
    asyncio.run(play(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8765/",
                     int(sys.argv[2]) if len(sys.argv) > 2 else 1))  # fmt: skip
