"""A reply carries the request's ``id`` only when the request had one: a request without ``id``
gets a reply without one (never ``id: 0``), and an explicit ``id: 0`` comes back as 0."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from cardavia.protocol import messages as m
from tests.support.servers import own_server


async def _ask(ws: ClientConnection, request: dict[str, Any], answer: str) -> dict[str, Any]:
    """Send ``request`` as a raw map; the first reply of type ``answer``, as a raw map."""
    await ws.send(msgpack.packb(request))
    while True:
        reply = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 5.0))
        if reply["type"] == answer:
            return dict(reply)


async def test_replies_keep_the_id_only_when_the_request_had_one(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (_, url), connect(url, compression=None) as ws:
        welcome = await _ask(ws, {"type": "hello", "version": m.PROTOCOL_VERSION, "name": "Anna"}, "welcome")
        assert "id" not in welcome
        assert "id" not in await _ask(ws, {"type": "get_catalogue"}, "catalogue")
        assert (await _ask(ws, {"type": "get_catalogue", "id": 0}, "catalogue"))["id"] == 0
        assert (await _ask(ws, {"type": "get_catalogue", "id": 7}, "catalogue"))["id"] == 7
        assert "id" not in await _ask(ws, {"type": "list_rooms", "game": "scopa"}, "rooms")


async def test_errors_keep_the_id_only_when_the_request_had_one(tmp_path: Path) -> None:
    async with own_server(tmp_path) as (_, url), connect(url, compression=None) as ws:
        await _ask(ws, {"type": "hello", "version": m.PROTOCOL_VERSION, "name": "Anna"}, "welcome")
        refused = await _ask(ws, {"type": "act", "action": {"kind": "play"}}, "error")  # seated nowhere
        assert refused["code"] == "not_in_room"
        assert "id" not in refused
        assert (await _ask(ws, {"type": "act", "id": 0, "action": {}}, "error"))["id"] == 0
        unknown = await _ask(ws, {"type": "get_catalogue", "typo": 1}, "error")
        assert unknown["code"] == "invalid_field"
        assert "id" not in unknown
        for bad in ("7", -1, 2**31, 1.5):  # a hostile id is refused, not echoed or taken as none
            refused = await _ask(ws, {"type": "get_catalogue", "id": bad}, "error")
            assert refused["code"] == "invalid_field", bad
            assert "id" not in refused
