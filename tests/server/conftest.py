"""Every lobby backend, for the tests that hold every lobby to the same behaviour, and a way
to let time pass for either; a live server's writes watched, for the live frame checks."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from cardavia.server.lobby import LobbyStore, MemoryLobby
from cardavia.server.lobby_redis import RedisLobby
from tests.server.live_frames import Wire, watch_wire
from tests.support.clock import Elapse, FakeClock
from tests.support.redis import REDIS_BACKENDS, backend_url, delete_keys, own_prefix


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", *REDIS_BACKENDS])
async def lobby(request: pytest.FixtureRequest, clock: FakeClock) -> AsyncIterator[LobbyStore]:
    """Each lobby backend: the memory one on the test's ``clock``, one Redis and a Redis Cluster;
    Redis keys get a prefix of their own per test, removed afterwards."""
    if request.param == "memory":
        yield MemoryLobby(clock=clock)
        return
    prefix = own_prefix()
    store = RedisLobby(backend_url(request), prefix=prefix)
    yield store
    await delete_keys(store.redis, prefix)
    await store.close()


@pytest.fixture
def elapse(lobby: LobbyStore, clock: FakeClock) -> Elapse:
    """Lets ``seconds`` pass for ``lobby``: the memory lobby's clock is stepped at once; Redis
    expires its keys on its own clock, which no test can step, so there they really pass."""

    async def step(seconds: float) -> None:
        clock.advance(seconds)

    return step if isinstance(lobby, MemoryLobby) else asyncio.sleep


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    return watch_wire(monkeypatch)
