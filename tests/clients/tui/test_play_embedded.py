"""`cardavia play`'s own server stays private whatever the shell's CARDAVIA_* variables say, and
a missing terminal toolkit is one line saying how to install it."""

from __future__ import annotations

import sys
import uuid

import pytest
import redis.asyncio as aioredis

from cardavia.cli import main
from cardavia.clients.cli.play import answers, embedded_server, server_environment
from cardavia.clients.cli.session import Session
from cardavia.protocol import messages as m

REDIS_URL = "redis://127.0.0.1:6379/0"


def test_the_embedded_server_takes_no_lobby_name_or_address_from_the_environment() -> None:
    environ = {
        "CARDAVIA_REDIS_URL": REDIS_URL,
        "CARDAVIA_NODE_ID": "node-1",
        "CARDAVIA_PUBLIC_URL": "ws://example.org/",
        "CARDAVIA_HOST": "0.0.0.0",
        "CARDAVIA_BOT_DELAY": "0.2",
        "PATH": "/bin",
    }
    assert server_environment(environ) == {"CARDAVIA_BOT_DELAY": "0.2", "PATH": "/bin"}
    assert server_environment(environ, REDIS_URL)["CARDAVIA_REDIS_URL"] == REDIS_URL


async def test_the_embedded_server_stays_out_of_the_lobby_the_shell_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prefix = f"test-play-{uuid.uuid4().hex}:"
    monkeypatch.setenv("CARDAVIA_REDIS_URL", REDIS_URL)
    monkeypatch.setenv("CARDAVIA_REDIS_PREFIX", prefix)
    monkeypatch.setenv("CARDAVIA_NODE_ID", "node-1")
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        with embedded_server() as url:
            async with Session(url, "Anna") as session:
                made = await session.request(session.requests.create_room("scopa", humans=1, public=True))
                assert isinstance(made, m.Snapshot)
                assert [key async for key in client.scan_iter(match=prefix + "*")] == []
        assert not answers(url)
    finally:
        await client.aclose()


def test_without_textual_play_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "textual", None)  # as if it were not installed
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # the message in English, whatever the shell's locale
    assert main(["play", "--name", "Anna"]) == 2
    assert capsys.readouterr().err == (
        "cardavia play: the terminal client needs Textual: pip install 'cardavia[tui]'\n"
    )
