"""Both lobby backends, for the tests that hold every lobby to the same behaviour; a live
server's writes watched, for the live frame checks."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from cardavia.server.lobby import LobbyStore, MemoryLobby
from cardavia.server.lobby_redis import RedisLobby
from tests.server.live_frames import Wire, watch_wire
from tests.support.redis import REDIS_URL


@pytest.fixture(params=["memory", "redis"])
async def lobby(request: pytest.FixtureRequest) -> AsyncIterator[LobbyStore]:
    """Each lobby backend; Redis keys get a prefix of their own per test, removed afterwards."""
    if request.param == "memory":
        yield MemoryLobby()
        return
    prefix = f"cardavia-test:{uuid.uuid4().hex}:"
    store = RedisLobby(REDIS_URL, prefix=prefix)
    yield store
    keys = [k async for k in store.redis.scan_iter(match=prefix + "*")]
    if keys:
        await store.redis.delete(*keys)
    await store.close()


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Wire:
    return watch_wire(monkeypatch)
