"""The WebSocket upgrade's ``Origin`` check, on live nodes: a page of a foreign site is refused
with 403 before any connection exists, so it spends none of its visitor's per-address budgets;
the node's own pages, its public URL's, its cluster peers', the setting's and clients that send
no ``Origin`` (the terminal client, bots) are accepted."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.origins import (
    AllowedOrigins,
    origin_refusal,
    page_origins,
    parse_allowed_origins,
    parse_origin,
    same_origin,
)
from tests.support.clients import Client
from tests.support.metrics import metric_samples
from tests.support.nodes import two_nodes
from tests.support.ports import free_port
from tests.support.servers import own_server, server_config
from tests.support.waiting import wait_until

EVIL = "http://evil.example"
UPGRADE = (
    "GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
)


async def _player(url: str, origin: str | None = None, name: str = "Anna") -> Client:
    """A player whose page is at ``origin`` (None: no browser), welcomed by the node."""
    ws = await connect(url, origin=Origin(origin) if origin else None, compression=None)
    player = Client(ws, name)
    await player.hello()
    return player


async def _refused(url: str, origin: str) -> InvalidStatus:
    """The node's refusal of an upgrade from a page at ``origin``."""
    try:
        ws = await connect(url, origin=Origin(origin), compression=None)
    except InvalidStatus as refused:
        return refused
    await ws.close()
    raise AssertionError(f"the upgrade from {origin} was accepted")


async def _upgrade_status(port: int, headers: str) -> tuple[int, bytes]:
    """A raw upgrade with ``headers`` (``Name: value\\r\\n`` lines): the answer's status and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write((UPGRADE + headers + "\r\n").encode("latin-1"))
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        status = int(head.split(b" ", 2)[1])
        body = b"" if status == 101 else await asyncio.wait_for(reader.read(), 5)
        return status, body
    finally:
        writer.close()


async def _closed_with(c: Client) -> int | None:
    try:
        async with asyncio.timeout(5):
            while True:
                await c.ws.recv()
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None


# ------------------------------------------------------------------ foreign pages
async def test_a_foreign_page_is_refused_before_it_spends_its_visitors_connections(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The attack of the issue: a page opens sockets from its visitor's address. Refused before a
    connection or a session exists, each attempt holds its address's place only until the 403
    closes it: after a hundred, every one of the address's places is free."""
    caplog.set_level(logging.INFO, logger="cardavia.server")
    async with own_server(tmp_path, max_connections_per_ip=3) as (server, url):
        for _ in range(100):
            refused = await _refused(url, EVIL)
            assert refused.response.status_code == 403
            assert b"Origin" in refused.response.body
        await wait_until(
            lambda: server.table_sizes()["address_connections"] == 0, "every refused socket given back"
        )
        samples = await metric_samples(server)
        assert samples[("cardavia_connections", ())] == 0
        assert samples[("cardavia_table_size", (("table", "sessions"),))] == 0
        assert samples[("cardavia_origin_refused_total", ())] == 100
        assert samples.get(("cardavia_limited_total", (("limit", "connections"),)), 0) == 0
        held = [await _player(url, name=f"P{n}") for n in range(3)]  # the player's own, all three
        extra = Client(await connect(url, compression=None), "P3")
        assert await _closed_with(extra) == 1013  # and the budget is still there, whole
        for player in held:
            await player.ws.close()
    lines = [r.getMessage() for r in caplog.records if "reason=origin" in r.getMessage()]
    assert len(lines) == 100
    assert all(r.levelno == logging.INFO for r in caplog.records if "reason=origin" in r.getMessage())
    assert f"event=refused reason=origin origin={EVIL} address=127.0.0.1" in lines[0]


@pytest.mark.parametrize(
    "origin",
    [
        EVIL,
        "https://evil.example",
        "http://127.0.0.1:{other}",  # the node's host, another port: another site
        "http://127.0.0.2:{port}",
        "http://127.0.0.1.evil.example:{port}",
        "chrome-extension://abcdefghijklmnop",
    ],
)
async def test_other_origins_are_foreign(server: CardaviaServer, url: str, origin: str) -> None:
    origin = origin.format(port=server.port, other=free_port())
    refused = await _refused(url, origin)
    assert refused.response.status_code == 403
    assert server.table_sizes()["connections"] == 0


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ("Origin: null\r\n", b"an opaque or malformed Origin"),  # a sandboxed frame, a file: page
        ("Origin: \r\n", b"an opaque or malformed Origin"),
        ("Origin: http://127.0.0.1:{port}/\r\n", b"an opaque or malformed Origin"),  # an origin has no path
        ("Origin: http://evil.example\r\n", b"a foreign Origin"),
        ("Origin: http://127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n", b"several Origin"),
        ("Origin: http://127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n", b"several Origin"),
    ],
)
async def test_null_malformed_and_doubled_origins_are_refused(
    server: CardaviaServer, headers: str, reason: bytes
) -> None:
    host = f"Host: 127.0.0.1:{server.port}\r\n"
    status, body = await _upgrade_status(server.port, host + headers.format(port=server.port))
    assert status == 403
    assert body.startswith(b"forbidden: " + reason)
    assert server.table_sizes()["connections"] == 0


# ------------------------------------------------------------------ accepted pages
async def test_a_client_that_sends_no_origin_is_accepted(url: str) -> None:
    """The terminal client and bots are no browsers: no page of another site can be behind them."""
    player = await _player(url)
    await player.ws.close()


async def test_the_nodes_own_page_is_accepted_under_any_name_of_its_host(server: CardaviaServer) -> None:
    """The page served by this node opens the socket on its own host and port: Origin and Host agree."""
    for host in ("127.0.0.1", "localhost"):
        player = await _player(f"ws://{host}:{server.port}/", f"http://{host}:{server.port}")
        await player.ws.close()


@pytest.mark.parametrize(
    ("host", "origin", "status"),
    [
        ("cards.example", "https://cards.example:443", 101),  # default ports: one origin, two spellings
        ("cards.example", "http://cards.example", 101),
        ("cards.example:443", "https://cards.example", 101),
        ("Cards.Example:8765", "https://cards.example:8765", 101),  # behind TLS termination
        ("cards.example:443", "http://cards.example", 403),  # http's port is 80
        ("cards.example:8765", "http://cards.example", 403),
        ("cards.example", "http://cards.example:8765", 403),
    ],
)
async def test_the_page_origin_is_the_host_header_with_default_ports_normalized(
    server: CardaviaServer, host: str, origin: str, status: int
) -> None:
    got, _ = await _upgrade_status(server.port, f"Host: {host}\r\nOrigin: {origin}\r\n")
    assert got == status


async def test_pages_of_the_public_url_are_accepted_over_http_and_https(tmp_path: Path) -> None:
    """A node behind a proxy is reached at its public URL, whose pages are its own; a ``ws://``
    public URL may be served as ``https://`` by a proxy that terminates TLS, so both are."""
    async with own_server(tmp_path, public_url="ws://cards.example.com/") as (_, url):
        for origin in (
            "https://cards.example.com",
            "http://cards.example.com",
            "https://Cards.Example.com:443",
        ):
            player = await _player(url, origin)
            await player.ws.close()
        for origin in ("https://cards.example.com:8443", "https://play.cards.example.com", EVIL):
            assert (await _refused(url, origin)).response.status_code == 403


async def test_the_settings_origins_are_accepted_and_no_other(tmp_path: Path) -> None:
    allowed = "https://play.example.org, http://localhost:3000/"
    async with own_server(tmp_path, allowed_origins=allowed) as (_, url):
        for origin in ("https://play.example.org", "http://localhost:3000"):
            player = await _player(url, origin)
            await player.ws.close()
        for origin in ("http://play.example.org", "http://localhost:3001", EVIL):
            assert (await _refused(url, origin)).response.status_code == 403


async def test_a_star_in_the_setting_accepts_every_origin(tmp_path: Path) -> None:
    async with own_server(tmp_path, allowed_origins="*") as (server, url):
        player = await _player(url, EVIL)
        await player.ws.close()
        status, _ = await _upgrade_status(server.port, "Host: x\r\nOrigin: null\r\n")
        assert status == 101


async def test_a_page_of_a_peer_node_is_accepted_as_the_page_follows_a_redirect(tmp_path: Path) -> None:
    """A page loaded from node b is redirected to node a, which runs the room: a must accept b's
    origin, learnt from the lobby's heartbeats (b's public URL)."""
    async with two_nodes(server_config(tmp_path, heartbeat_seconds=0.1)) as (a, b):
        await wait_until(lambda: a.web.peer_sources, "node a knowing node b")
        url = f"ws://127.0.0.1:{a.port}/"
        for scheme in ("http", "https"):
            player = await _player(url, f"{scheme}://127.0.0.1:{b.port}")
            await player.ws.close()
        assert (await _refused(url, f"http://127.0.0.1:{free_port()}")).response.status_code == 403


async def test_plain_http_answers_are_not_checked(server: CardaviaServer) -> None:
    """Only the upgrade spends a budget; the page and its data stay readable as before."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nOrigin: http://evil.example\r\n\r\n")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()
    assert answer.startswith(b"HTTP/1.1 200 ")


async def test_a_refused_upgrade_still_lets_a_welcomed_player_play(url: str) -> None:
    """A refusal ends the foreign socket only: a player already in keeps playing."""
    anna = await _player(url)
    await _refused(url, EVIL)
    await anna.send(anna.req.create_room("briscola", humans=2))
    snapshot: m.Snapshot = await anna.expect(m.Snapshot)
    assert snapshot.room.game == "briscola"
    await anna.ws.close()


# ------------------------------------------------------------------ the rules, as functions
@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("https://Cards.Example.COM", "https://cards.example.com"),
        ("https://cards.example.com:443", "https://cards.example.com"),
        ("http://cards.example.com:80", "http://cards.example.com"),
        ("http://cards.example.com:443", "http://cards.example.com:443"),
        ("http://[::1]:8765", "http://[::1]:8765"),
        ("http://[::1]:80", "http://[::1]"),
        ("http://10.0.0.5:080", "http://10.0.0.5"),
        ("null", None),
        ("", None),
        ("cards.example.com", None),
        ("https://cards.example.com/", None),
        ("https://user@cards.example.com", None),
        ("https://cards.example.com:99999", None),
        ("https://cards example.com", None),
        ("1http://x", None),
    ],
)
def test_parse_origin(text: str, origin: str | None) -> None:
    assert parse_origin(text) == origin


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://127.0.0.1:8765", "127.0.0.1:8765", True),
        ("https://cards.example", "cards.example:443", True),
        ("https://cards.example", "cards.example", True),
        ("http://cards.example", "cards.example:443", False),
        ("http://cards.example", "cards.example.evil", False),
        ("http://cards.example", "cards.example:80, evil.example", False),  # not a Host at all
        ("http://cards.example", None, False),
    ],
)
def test_same_origin(origin: str, host: str | None, same: bool) -> None:
    assert same_origin(origin, host) is same


@pytest.mark.parametrize(
    ("url", "origins"),
    [
        ("wss://cards.example.com/", ["http://cards.example.com", "https://cards.example.com"]),
        ("ws://10.0.0.5:8765/", ["http://10.0.0.5:8765", "https://10.0.0.5:8765"]),
        ("ws://cards.example.com", ["http://cards.example.com", "https://cards.example.com"]),
        ("https://cards.example.com/", []),  # not a node's URL
        ("ws://[bad", []),
        ("", []),
    ],
)
def test_page_origins_of_a_node_url(url: str, origins: list[str]) -> None:
    assert sorted(page_origins(url)) == origins


def test_the_setting_is_read_into_origins() -> None:
    allowed = parse_allowed_origins(" https://Play.Example.org/ ,http://localhost:3000,, ")
    assert allowed == AllowedOrigins(frozenset({"https://play.example.org", "http://localhost:3000"}))
    assert "https://play.example.org" in allowed
    assert "https://evil.example" not in allowed
    assert parse_allowed_origins("") == AllowedOrigins()
    star = parse_allowed_origins("https://play.example.org,*")
    assert star.any
    assert "anything at all" in star


@pytest.mark.parametrize(
    "entry", ["cards.example.com", "null", "ws://cards.example.com", "https://x.example/play"]
)
def test_a_setting_entry_that_is_no_origin_is_named(entry: str) -> None:
    with pytest.raises(ValueError, match=f"^{entry!r} is not an origin"):
        parse_allowed_origins(f"https://ok.example,{entry},*")


def test_origin_refusal_reasons() -> None:
    none = AllowedOrigins()
    nodes = ["ws://b.example:9000"]
    assert origin_refusal([], "a.example", none, nodes) is None
    assert origin_refusal(["http://a.example"], "a.example", none, nodes) is None
    assert origin_refusal(["https://b.example:9000"], "a.example", none, nodes) is None
    assert origin_refusal(["http://b.example"], "a.example", none, nodes) == "a foreign Origin"
    assert origin_refusal(["null"], "a.example", none, nodes) == "an opaque or malformed Origin"
    assert origin_refusal(["http://a.example"] * 2, "a.example", none, nodes) == "several Origin headers"
    star = AllowedOrigins(any=True)
    assert origin_refusal(["null"], "a.example", star, nodes) is None
    assert origin_refusal(["http://a.example"] * 2, "a.example", star, nodes) == "several Origin headers"
