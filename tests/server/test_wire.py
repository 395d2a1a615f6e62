"""The node's own WebSocket plumbing (``server/wire.py``): messages in order whatever their
framing, keepalive, and the timeouts that drop stuck handshakes and closes.

The timeouts are checked by calling the listener's sweep with a clock moved forward, so no
test waits for them."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from cardavia.protocol import messages as m
from cardavia.protocol.codec import decode_server, encode
from cardavia.server.app import CardaviaServer
from cardavia.server.wire import CLOSE_TIMEOUT, OPEN_TIMEOUT, Listener
from tests.support.clients import Client, client
from tests.support.waiting import wait_until


def _listener(server: CardaviaServer) -> Listener:
    assert server.listener is not None
    return server.listener


async def _mute_websocket(port: int) -> asyncio.StreamWriter:
    """A socket that completes the opening handshake, then neither reads nor answers anything."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    status = await asyncio.wait_for(reader.readline(), 5)
    assert status.startswith(b"HTTP/1.1 101"), status
    return writer


async def test_a_message_sent_in_fragments_is_handled_whole(url: str) -> None:
    hello = encode(m.Hello(id=1, version=m.PROTOCOL_VERSION, name="Anna"))
    async with connect(url, compression=None) as ws:
        await ws.send([hello[:3], hello[3:7], hello[7:]])  # three frames: a first and two continuations
        welcome = decode_server(await asyncio.wait_for(ws.recv(), 5))  # type: ignore[arg-type]
    assert isinstance(welcome, m.Welcome)


async def test_messages_sent_in_a_burst_are_answered_in_order(url: str) -> None:
    async with connect(url, compression=None) as ws:
        frames = [encode(m.Hello(id=1, version=m.PROTOCOL_VERSION, name="Anna"))]
        frames += [encode(m.ListRooms(id=n)) for n in range(2, 42)]  # more than a connection lets wait
        for frame in frames:  # framed first, then written in one piece: one read on the server
            ws.protocol.send_frame(Frame(Opcode.BINARY, frame))
        ws.send_data()
        ids = []
        for _ in frames:
            reply = decode_server(await asyncio.wait_for(ws.recv(), 5))  # type: ignore[arg-type]
            ids.append(reply.id)  # type: ignore[union-attr]
    assert ids == list(range(1, 42))


async def test_a_text_message_that_is_not_utf8_closes_with_1007(url: str) -> None:
    async with connect(url, compression=None) as ws:
        ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe"))
        ws.send_data()
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 1007


async def test_a_connection_that_never_finishes_its_request_is_dropped(server: CardaviaServer) -> None:
    listener = _listener(server)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    await writer.drain()
    await wait_until(lambda: len(listener.wires) == 1, "one wire open")
    listener.sweep(time.monotonic() + OPEN_TIMEOUT / 2)
    assert len(listener.wires) == 1  # not yet
    listener.sweep(time.monotonic() + OPEN_TIMEOUT + 1)
    with contextlib.suppress(ConnectionResetError):  # dropped, no answer
        assert await asyncio.wait_for(reader.read(), 5) == b""
    await wait_until(lambda: not listener.wires, "every wire gone")
    writer.close()


async def test_a_silent_client_is_pinged_and_one_that_never_answers_is_closed_with_1011(
    server: CardaviaServer,
) -> None:
    listener = _listener(server)
    listener.ping_interval = 20.0
    anna = await client(f"ws://127.0.0.1:{server.port}/")
    await anna.hello()
    raw = await _mute_websocket(server.port)
    await wait_until(lambda: len(server.connections) == 2, "two connections")
    (mute,) = [c for c in server.connections if not c.session]
    now = time.monotonic()
    (kept,) = [c for c in server.connections if c.session]
    listener.sweep(now + 21)  # both silent for longer than the interval: both pinged
    assert mute.wire.ping_sent is not None
    assert kept.wire.ping_sent is not None
    # Anna's client answers; the mute socket does not
    await wait_until(lambda: kept.wire.ping_sent is None, "Anna's pong")
    listener.sweep(now + 30)  # within the interval after the ping: nobody is closed yet
    assert mute.wire not in listener.closing_wires
    listener.sweep(now + 42)
    assert mute.wire in listener.closing_wires
    assert mute.wire.protocol.close_sent is not None
    assert mute.wire.protocol.close_sent.code == 1011
    assert kept.wire not in listener.closing_wires
    await anna.send(anna.req.list_rooms())
    assert isinstance(await anna.expect(m.Rooms), m.Rooms)
    raw.close()


async def test_a_peer_that_never_completes_the_close_is_dropped(server: CardaviaServer) -> None:
    listener = _listener(server)
    raw = await _mute_websocket(server.port)
    await wait_until(lambda: len(server.connections) == 1, "one connection left")
    (conn,) = server.connections
    conn.close(1008, "going away for a test")
    assert conn.wire in listener.closing_wires
    listener.sweep(time.monotonic() + CLOSE_TIMEOUT / 2)
    assert conn in server.connections
    listener.sweep(time.monotonic() + CLOSE_TIMEOUT + 1)
    await wait_until(lambda: not server.connections and not listener.wires, "every connection and wire gone")
    raw.close()


async def _read_to_the_end(anna: Client) -> None:
    while True:
        await anna.ws.recv()


async def test_a_client_that_answers_the_close_is_gone_at_once(server: CardaviaServer, url: str) -> None:
    listener = _listener(server)
    anna = await client(url)
    await anna.hello()
    (conn,) = server.connections
    conn.close(1008, "going away for a test")
    with pytest.raises(ConnectionClosed):
        await _read_to_the_end(anna)
    await wait_until(
        lambda: not server.connections and not listener.wires and not listener.closing_wires,
        "every connection, wire and closing wire gone",
    )
    assert anna.ws.close_code == 1008
