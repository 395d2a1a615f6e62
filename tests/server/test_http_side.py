"""The node's plain HTTP answers as a hostile client sees them, over raw sockets: HEAD sends
headers only, every answer carries ``nosniff`` and a Content-Security-Policy, and requests
pipelined on one connection never end in a traceback."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from cardavia.server.app import CardaviaServer
from tests.support.servers import own_server

DATA_ROUTES = ["/healthz", "/readyz", "/metrics", "/rules/whist", "/rules/no-such-game", "/i18n/en.json"]
PAGE_ROUTES = ["/", "/no-such-file"]  # the page's folder: its files, or its 404
GET_ROUTES = DATA_ROUTES + PAGE_ROUTES
DATA_CSP = "default-src 'none'; frame-ancestors 'none'"


async def _exchange(port: int, raw: bytes) -> bytes:
    """Write ``raw`` on a fresh connection and read everything until the server closes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(raw)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()


def _head_and_body(answer: bytes) -> tuple[dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.1 "), lines[0]
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return headers, body


def _request(method: str, path: str) -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


@pytest.mark.parametrize("path", GET_ROUTES)
async def test_head_sends_the_headers_of_get_without_a_body(server: CardaviaServer, path: str) -> None:
    got, _ = _head_and_body(await _exchange(server.port, _request("GET", path)))
    answer = await _exchange(server.port, _request("HEAD", path))
    headers, body = _head_and_body(answer)
    assert body == b""
    assert headers["content-length"] == got["content-length"]
    assert headers["content-type"] == got["content-type"]


@pytest.mark.parametrize("path", GET_ROUTES)
async def test_every_answer_says_nosniff_and_a_content_security_policy(
    server: CardaviaServer, path: str
) -> None:
    headers, _ = _head_and_body(await _exchange(server.port, _request("GET", path)))
    assert headers["x-content-type-options"] == "nosniff"
    csp = headers["content-security-policy"]
    if path in PAGE_ROUTES:
        assert csp.startswith("default-src 'self'")  # the page's own policy, as index.html's
    else:
        assert csp == DATA_CSP  # data and text: nothing may load, nothing may frame it
    assert "frame-ancestors 'none'" in csp


async def test_a_refused_request_also_says_nosniff(server: CardaviaServer) -> None:
    headers, _ = _head_and_body(
        await _exchange(server.port, b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 300 + b"\r\n")
    )
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("count", [2, 20])
async def test_pipelined_requests_get_the_first_answer_and_a_clean_close(
    server: CardaviaServer, caplog: pytest.LogCaptureFixture, count: int
) -> None:
    caplog.set_level(logging.INFO)
    answer = await _exchange(server.port, _request("GET", "/healthz") * count)
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
    headers, body = _head_and_body(answer)
    assert headers["connection"] == "close"
    assert body == b"ok\n"  # one answer: the connection closes after it, as it says
    await asyncio.sleep(0.05)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert server.listener is not None
    assert not server.listener.wires


async def test_an_upgrade_with_a_request_pipelined_after_it_is_closed_cleanly(
    server: CardaviaServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    upgrade = (
        b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    answer = await _exchange(server.port, upgrade + _request("GET", "/healthz"))
    assert b"101" not in answer.split(b"\r\n", 1)[0]  # no WebSocket opens on a stream already ended
    await asyncio.sleep(0.05)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert server.listener is not None
    assert not server.listener.wires


async def test_metrics_can_be_kept_to_an_allow_list_a_forwarded_header_cannot_open(tmp_path: Path) -> None:
    forwarded = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 10.1.2.3\r\n\r\n"
    async with own_server(tmp_path, metrics_allow="10.0.0.0/8", trusted_proxies="127.0.0.1") as (srv, _):
        for raw in (_request("GET", "/metrics"), forwarded):
            answer = await _exchange(srv.port, raw)
            assert answer.startswith(b"HTTP/1.1 403 "), answer[:80]
            assert b"cardavia_" not in answer
    async with own_server(tmp_path, metrics_allow="127.0.0.1,::1") as (srv, _):
        answer = await _exchange(srv.port, _request("GET", "/metrics"))
        assert answer.startswith(b"HTTP/1.1 200 ")
        assert b"cardavia_" in answer


def test_a_bad_metrics_allow_entry_is_refused_at_start() -> None:
    from pydantic import ValidationError

    from cardavia.server.config import ServerConfig

    with pytest.raises(ValidationError, match=r"300\.1\.1\.1"):
        ServerConfig(metrics_allow="127.0.0.1,300.1.1.1")
