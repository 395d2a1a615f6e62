"""Sockets that have not finished their HTTP request, as a hostile client holds them: each
counts against its address's connection limit from the moment it is accepted, one past the
limit is told why (a few at a time) or dropped, and one that sends nothing is dropped sooner
than one that is sending its request.

The timeouts are checked by calling the listener's sweep with a clock moved forward, so no
test waits for them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cardavia.server.app import CardaviaServer
from cardavia.server.limits import REFUSALS_AT_ONCE
from cardavia.server.wire import IDLE_OPEN_TIMEOUT, OPEN_TIMEOUT, Listener
from tests.support.clients import Client
from tests.support.metrics import metric_samples
from tests.support.servers import own_server
from tests.support.waiting import wait_until

Socket = tuple[asyncio.StreamReader, asyncio.StreamWriter]
LIMITED_CONNECTIONS = ("cardavia_limited_total", (("limit", "connections"),))


def _listener(server: CardaviaServer) -> Listener:
    assert server.listener is not None
    return server.listener


@contextlib.asynccontextmanager
async def _silent(server: CardaviaServer, count: int) -> AsyncIterator[list[Socket]]:
    """``count`` sockets that connect and send nothing, held until the block ends."""
    sockets = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(count)]
    try:
        await wait_until(lambda: len(_listener(server).wires) >= count, f"{count} sockets accepted")
        yield sockets
    finally:
        for _, writer in sockets:
            writer.close()


async def _closed_with(url: str, headers: dict[str, str] | None = None) -> int | None:
    """Open a WebSocket and read until the server closes it: its close code."""
    async with connect(url, compression=None, additional_headers=headers) as ws:
        try:
            async with asyncio.timeout(5):
                while True:
                    await ws.recv()
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None


async def _answer(sock: Socket, raw: bytes) -> bytes:
    reader, writer = sock
    writer.write(raw)
    await writer.drain()
    return await asyncio.wait_for(reader.read(), 5)


async def test_sockets_that_never_send_a_request_count_against_their_address(tmp_path: Path) -> None:
    async with own_server(tmp_path, max_connections_per_ip=3) as (server, url):
        async with _silent(server, 3):
            assert await _closed_with(url) == 1013  # the player's own socket is the one too many
        await wait_until(
            lambda: not server.table_sizes()["address_connections"], "the silent sockets forgotten"
        )
        player = Client(await connect(url, compression=None), "Anna")
        await player.hello()  # their places are free again
        await player.ws.close()


async def test_a_socket_past_the_limit_is_told_why_a_few_at_a_time_then_dropped(tmp_path: Path) -> None:
    async with own_server(tmp_path, max_connections_per_ip=1) as (server, _):
        before = (await metric_samples(server)).get(LIMITED_CONNECTIONS, 0.0)
        async with _silent(server, 1), _silent(server, REFUSALS_AT_ONCE) as refused:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            with contextlib.suppress(ConnectionResetError):  # dropped at once, nothing read
                assert await asyncio.wait_for(reader.read(), 5) == b""
            writer.close()
            answer = await _answer(refused[0], b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert answer.startswith(b"HTTP/1.1 503 ")
            assert answer.endswith(b"too many connections from your address\n")
        await wait_until(lambda: not server.table_sizes()["address_refusals"], "the refusals forgotten")
        samples = await metric_samples(server)
        assert samples[LIMITED_CONNECTIONS] - before == REFUSALS_AT_ONCE + 1


async def test_a_socket_that_sends_nothing_is_dropped_sooner_than_one_sending_its_request(
    server: CardaviaServer,
) -> None:
    listener = _listener(server)
    silent = await asyncio.open_connection("127.0.0.1", server.port)
    talking = await asyncio.open_connection("127.0.0.1", server.port)
    talking[1].write(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    await talking[1].drain()
    await wait_until(lambda: sum(w.heard for w in listener.wires) == 1, "the first line read")
    now = time.monotonic()
    listener.sweep(now + IDLE_OPEN_TIMEOUT / 2)
    assert len(listener.wires) == 2  # neither yet
    listener.sweep(now + IDLE_OPEN_TIMEOUT + 0.5)
    with contextlib.suppress(ConnectionResetError):
        assert await asyncio.wait_for(silent[0].read(), 5) == b""
    await wait_until(lambda: len(listener.wires) == 1, "the silent socket dropped")
    listener.sweep(now + OPEN_TIMEOUT + 1)
    await wait_until(lambda: not listener.wires, "the dawdling request dropped")
    for _, writer in (silent, talking):
        writer.close()


async def test_a_trusted_proxys_sockets_count_for_the_clients_they_forward(tmp_path: Path) -> None:
    async with own_server(tmp_path, max_connections_per_ip=1, trusted_proxies="127.0.0.1") as (server, url):
        async with _silent(server, 3):  # the proxy's own sockets, not yet any client's
            anna = Client(
                await connect(url, compression=None, additional_headers={"X-Forwarded-For": "203.0.113.5"}),
                "Anna",
            )
            await anna.hello()
            assert await _closed_with(url, {"X-Forwarded-For": "203.0.113.5"}) == 1013
        await anna.ws.close()
        await wait_until(lambda: not server.table_sizes()["address_connections"], "every count given back")
