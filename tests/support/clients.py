"""Test players over real websockets: each keeps its view and checks every frame it receives."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from cardavia.games.cards import ALL_CARDS
from cardavia.protocol import messages as m
from cardavia.protocol.client import Requests, ViewStore
from cardavia.protocol.codec import decode_server, encode

CODES = {c.code for c in ALL_CARDS}


def card_codes_of(data: Any) -> set[str]:
    """Every card code anywhere in ``data`` (a view, a frame's message)."""
    if isinstance(data, str):
        return {data} if data in CODES else set()
    if isinstance(data, dict):
        return set().union(*(card_codes_of(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(card_codes_of(v) for v in data))
    return set()


class Client:
    """A test player: sends requests, keeps its view, records every message it receives."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.req = Requests()
        self.store = ViewStore()
        self.received: list[m.Reply] = []
        self.frames: list[bytes] = []
        self.resume: str | None = None
        self.views_seen: list[str] = []
        self.session: str | None = None

    async def send(self, message: m.Request) -> None:
        await self.ws.send(encode(message))

    async def recv(self, timeout: float = 5.0) -> m.Reply:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(frame, bytes)
        self.frames.append(frame)
        message = decode_server(frame)
        self.received.append(message)
        if isinstance(message, m.Snapshot):
            self.store.on_snapshot(message)
            self.views_seen.append(json.dumps(self.store.view, sort_keys=True))
        elif isinstance(message, m.Delta):
            assert self.store.on_delta(message), "a delta was out of sequence"
            self.views_seen.append(json.dumps(self.store.view, sort_keys=True))
        elif isinstance(message, m.YourTurn):
            # the legal moves name only cards this seat can see (its hand, the table)
            visible = card_codes_of(self.store.view)
            assert card_codes_of(message.legal) <= visible, "your_turn names a card the seat cannot see"
        elif isinstance(message, m.Welcome):
            self.resume, self.session = message.resume, message.session
        return message

    async def expect(self, kind: type[Any], timeout: float = 5.0) -> Any:
        while True:
            message = await self.recv(timeout)
            if isinstance(message, kind):
                return message
            if isinstance(message, m.Error) and kind is not m.Error:
                raise AssertionError(f"unexpected error {message}")

    async def hello(self, resume: str | None = None, last_seq: int | None = None) -> m.Welcome:
        hello = self.req.hello(self.name, resume=resume).model_copy(update={"last_seq": last_seq})
        await self.send(hello)
        welcome: m.Welcome = await self.expect(m.Welcome)
        return welcome

    async def play_until_over(self, rng: random.Random, timeout: float = 20.0) -> m.MatchResult:
        """Answer every your_turn with a random legal action until the match ends."""
        while True:
            message = await self.recv(timeout)
            if isinstance(message, m.YourTurn):
                await self.send(self.req.act(rng.choice(message.legal)))
            elif isinstance(message, m.MatchResult):
                return message
            elif isinstance(message, m.Error):
                raise AssertionError(f"unexpected error {message}")


async def client(url: str, name: str = "Anna") -> Client:
    ws = await connect(url, compression=None, max_size=2**20)
    return Client(ws, name)


async def seated_pair(url: str, game: str = "scopa") -> tuple[Client, Client]:
    """Anna owns a waiting room of ``game`` for two people and Bo sits in it."""
    anna, bo = await client(url, "Anna"), await client(url, "Bo")
    await anna.hello()
    await bo.hello()
    await anna.send(anna.req.create_room(game, humans=2))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    await bo.send(bo.req.join(room=snapshot.room.room))
    await bo.expect(m.Snapshot)
    return anna, bo
