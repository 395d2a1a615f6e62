"""Bots against a server that limits each connection's messages (20 a second, bursts of 40, by default)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest

from cardavia.bots.registry import make_bot
from cardavia.clients.cli.sdk import BotClient
from cardavia.clients.cli.session import Item
from cardavia.protocol import messages as m
from cardavia.server.app import CardaviaServer
from cardavia.server.config import ServerConfig


async def _limited(config: ServerConfig, rate: float, burst: int) -> AsyncIterator[str]:
    srv = CardaviaServer(dataclasses.replace(config, rate_per_second=rate, rate_burst=burst))
    await srv.start()
    yield f"ws://127.0.0.1:{srv.port}/"
    await srv.shutdown()


@pytest.fixture
async def default_limits(config: ServerConfig) -> AsyncIterator[str]:
    defaults = ServerConfig()
    async for url in _limited(config, defaults.rate_per_second, defaults.rate_burst):
        yield url


@pytest.fixture
async def tight_limits(config: ServerConfig) -> AsyncIterator[str]:
    async for url in _limited(config, 10.0, 10):
        yield url


def _refusals(seen: list[Item]) -> list[str]:
    return [i.code for i in seen if isinstance(i, m.Error)]


@pytest.mark.slow
async def test_two_bots_playing_each_other_stay_under_the_default_limit(default_limits: str) -> None:
    seen: list[Item] = []
    first = BotClient(
        default_limits, make_bot("scopa", "random", "a"), "scopa", quick=True, on_message=seen.append
    )
    playing = asyncio.ensure_future(first.run())
    await first.seated()
    second = BotClient(
        default_limits, make_bot("scopa", "random", "b"), "scopa", quick=True, on_message=seen.append
    )
    [theirs] = await second.run()
    [mine] = await playing
    assert theirs.record == mine.record
    assert "rate_limited" not in _refusals(seen)


async def test_a_bot_that_outruns_the_limit_pauses_asks_again_and_finishes(tight_limits: str) -> None:
    seen: list[Item] = []
    unpaced = BotClient(
        tight_limits, make_bot("briscola", "random", "a"), "briscola", rate=None, on_message=seen.append
    )
    [result] = await unpaced.run()
    assert "rate_limited" in _refusals(seen)  # the server dropped some of its actions ...
    assert result.record  # ... and the bot got its turn back each time and finished
