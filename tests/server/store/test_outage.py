"""A database that goes away, on both backends: every call is StorageUnavailable while it is
away, nothing is half written, and the same Archive object works again once it is back."""

from __future__ import annotations

import pytest

from cardavia.server.store import StorageUnavailable, open_archive
from tests.server.store.helpers import match_end, new_hash, person
from tests.server.store.outage import FolderOutage, Relay
from tests.support.waiting import wait_until


async def test_a_database_away_at_open_is_unavailable_until_it_returns(outage: FolderOutage | Relay) -> None:
    await outage.down()
    archive = open_archive(outage.url)
    try:
        with pytest.raises(StorageUnavailable):
            await archive.open()
        assert not await archive.ping()
        with pytest.raises(StorageUnavailable):
            await archive.create_player("Ada", new_hash())
        await outage.up()
        await wait_until(archive.ping, "the archive to answer once its database is back")
        ada = await archive.create_player("Ada", new_hash())
        assert await archive.player(ada.id) == ada
    finally:
        await archive.close()


async def test_a_database_that_goes_away_while_open_comes_back_whole(outage: FolderOutage | Relay) -> None:
    archive = open_archive(outage.url)
    await archive.open()
    try:
        key = new_hash()
        ada = await archive.create_player("Ada", key)
        bea = await archive.create_player("Bea", new_hash())
        end = match_end("away-1", [person("Ada", ada.id), person("Bea", bea.id)])

        await outage.down()
        with pytest.raises(StorageUnavailable):
            await archive.record_match(end)
        with pytest.raises(StorageUnavailable):
            await archive.player_by_key(key)
        with pytest.raises(StorageUnavailable):
            await archive.history(ada.id)
        assert not await archive.ping()

        await outage.up()
        await wait_until(archive.ping, "the archive to answer once its database is back")
        assert await archive.player_by_key(key) == ada
        assert await archive.history(ada.id) == []  # the failed write left nothing behind
        changes = await archive.record_match(end)  # the match end the caller kept, written now
        assert changes is not None
        assert [c.player for c in changes] == [ada.id, bea.id]
        assert await archive.record_match(end) is None
        assert [e.record for e in await archive.history(ada.id)] == ["away-1"]
    finally:
        await archive.close()


async def test_a_closed_port_is_unavailable() -> None:
    from tests.support.ports import free_port

    archive = open_archive(f"postgresql://postgres@127.0.0.1:{free_port()}/postgres")
    with pytest.raises(StorageUnavailable, match="cannot reach PostgreSQL"):
        await archive.open()
    assert not await archive.ping()
    await archive.close()
