"""Profiles, device keys and transfer codes, on both backends."""

from __future__ import annotations

import asyncio
import re

import pytest

from cardavia.server.store import Archive, open_archive
from tests.server.store.helpers import match_end, new_hash, person


async def test_a_profile_is_found_by_each_of_its_keys_and_by_id(archive: Archive) -> None:
    key = new_hash()
    ada = await archive.create_player("Ada", key)
    assert re.fullmatch(r"p-[0-9a-f]{16}", ada.id)
    assert (ada.name, ada.bot) == ("Ada", False)
    assert await archive.player_by_key(key) == ada
    assert await archive.player(ada.id) == ada
    other = new_hash()
    await archive.add_key(ada.id, other)
    assert await archive.player_by_key(other) == ada
    assert await archive.player_by_key(new_hash()) is None
    assert await archive.player("p-0000000000000000") is None


async def test_profiles_have_ids_of_their_own_and_bots_are_marked(archive: Archive) -> None:
    ada = await archive.create_player("Ada", new_hash())
    ladder = await archive.create_player("Ladder bot", new_hash(), bot=True)
    assert ada.id != ladder.id
    assert (await archive.player(ladder.id)) == ladder
    assert ladder.bot


async def test_a_key_is_one_profile_s_and_a_bad_hash_is_refused(archive: Archive) -> None:
    key = new_hash()
    ada = await archive.create_player("Ada", key)
    with pytest.raises(ValueError, match="refused by the database"):
        await archive.create_player("Bea", key)
    with pytest.raises(ValueError, match="refused by the database"):
        await archive.add_key(ada.id, key)
    with pytest.raises(ValueError, match="no profile"):
        await archive.add_key("p-0000000000000000", new_hash())
    for bad in ("secret-key", key.upper(), key[:-1], ""):
        with pytest.raises(ValueError, match="sha256 hex"):
            await archive.player_by_key(bad)
        with pytest.raises(ValueError, match="sha256 hex"):
            await archive.create_player("Cid", bad)
    with pytest.raises(ValueError, match="name"):
        await archive.create_player("", new_hash())
    assert await archive.player_by_key(key) == ada  # the refused Bea took nothing


async def test_rename_changes_the_name_and_nothing_else(archive: Archive) -> None:
    key = new_hash()
    ada = await archive.create_player("Ada", key)
    renamed = await archive.rename_player(ada.id, "Ada L.")
    assert renamed is not None
    assert (renamed.id, renamed.name, renamed.created) == (ada.id, "Ada L.", ada.created)
    assert await archive.player_by_key(key) == renamed
    assert await archive.rename_player("p-0000000000000000", "Nobody") is None
    with pytest.raises(ValueError, match="name"):
        await archive.rename_player(ada.id, "x" * 65)
    assert await archive.player(ada.id) == renamed


async def test_delete_removes_everything_of_the_profile_and_blanks_its_seats(archive: Archive) -> None:
    key, code = new_hash(), new_hash()
    ada = await archive.create_player("Ada", key)
    bea = await archive.create_player("Bea", new_hash())
    await archive.put_transfer_code(ada.id, code, expires=2_000.0)
    seats = [person("Ada", ada.id), person("Bea", bea.id)]
    await archive.record_match(match_end("r-1", seats, rated=True))
    await archive.record_match(match_end("r-2", seats, rated=False, ended=1_001.0))

    assert await archive.delete_player(ada.id)
    assert await archive.player(ada.id) is None
    assert await archive.player_by_key(key) is None
    assert await archive.take_transfer_code(code, now=1_000.0) is None
    assert await archive.ratings(ada.id) == []
    assert await archive.history(ada.id) == []
    assert await archive.standing(ada.id, "scopa") is None
    assert [s.player for s in await archive.leaderboard("scopa")] == [bea.id]
    for record_id in ("r-1", "r-2"):
        record = await archive.load_record(record_id)
        assert record is not None
        assert record["seats"][0] == {"name": "", "kind": "human", "bot": None, "deleted": True}
        assert record["seats"][1]["name"] == "Bea"
        assert "Ada" not in repr(record)
    # Bea keeps her history, with Ada's seat blanked
    entries = await archive.history(bea.id)
    assert [e.record for e in entries] == ["r-2", "r-1"]
    for entry in entries:
        assert entry.players[0] == {"name": "", "bot": False, "player": None, "deleted": True}
        assert entry.players[1] == {"name": "Bea", "bot": False, "player": bea.id}
    assert await archive.delete_player(ada.id) is False
    assert await archive.player(bea.id) == bea


async def test_a_transfer_code_names_its_profile_once(archive: Archive) -> None:
    ada = await archive.create_player("Ada", new_hash())
    code = new_hash()
    await archive.put_transfer_code(ada.id, code, expires=1_600.0)
    assert await archive.take_transfer_code(new_hash(), now=1_000.0) is None
    assert await archive.take_transfer_code(code, now=1_000.0) == ada.id
    assert await archive.take_transfer_code(code, now=1_000.0) is None  # used


async def test_an_expired_code_names_nobody(archive: Archive) -> None:
    ada = await archive.create_player("Ada", new_hash())
    code = new_hash()
    await archive.put_transfer_code(ada.id, code, expires=1_600.0)
    assert await archive.take_transfer_code(code, now=1_600.0) is None
    await archive.put_transfer_code(ada.id, code, expires=1_600.0)
    assert await archive.take_transfer_code(code, now=1_599.0) == ada.id


async def test_a_new_code_replaces_the_profile_s_earlier_one(archive: Archive) -> None:
    ada = await archive.create_player("Ada", new_hash())
    bea = await archive.create_player("Bea", new_hash())
    first, second, beas = new_hash(), new_hash(), new_hash()
    await archive.put_transfer_code(ada.id, first, expires=1_600.0)
    await archive.put_transfer_code(bea.id, beas, expires=1_600.0)
    await archive.put_transfer_code(ada.id, second, expires=1_600.0)
    assert await archive.take_transfer_code(first, now=1_000.0) is None
    assert await archive.take_transfer_code(second, now=1_000.0) == ada.id
    assert await archive.take_transfer_code(beas, now=1_000.0) == bea.id  # another profile's stays
    with pytest.raises(ValueError, match="no profile"):
        await archive.put_transfer_code("p-0000000000000000", new_hash(), expires=1_600.0)


async def test_a_code_taken_at_once_from_two_archives_has_one_winner(
    archive: Archive, archive_url: str
) -> None:
    ada = await archive.create_player("Ada", new_hash())
    other = open_archive(archive_url)
    await other.open()
    try:
        for _ in range(5):
            code = new_hash()
            await archive.put_transfer_code(ada.id, code, expires=1_600.0)
            takes = [
                archive.take_transfer_code(code, now=1_000.0),
                other.take_transfer_code(code, now=1_000.0),
            ]
            takes += [other.take_transfer_code(code, now=1_000.0) for _ in range(3)]
            got = await asyncio.gather(*takes)
            assert got.count(ada.id) == 1
            assert got.count(None) == 4
    finally:
        await other.close()


async def test_hostile_ids_find_nothing_or_are_refused_alike(archive: Archive) -> None:
    ada = await archive.create_player("Ada", new_hash())
    for probe in ("' OR '1'='1", "p-%", "*", ada.id.upper(), " " + ada.id):
        assert await archive.player(probe) is None
        assert await archive.history(probe) == []
        assert await archive.load_record(probe) is None
        assert await archive.standing(probe, "scopa") is None
        assert await archive.rename_player(probe, "Eve") is None
        assert await archive.delete_player(probe) is False
    for bad in ("p-\x00", "x" * 201, 7, b"p-1"):
        with pytest.raises(ValueError, match="not an id"):
            await archive.player(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="not an id"):
            await archive.history(ada.id, before=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="not an id"):
            await archive.leaderboard(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="not an id"):
            await archive.load_record(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="NUL"):
        await archive.rename_player(ada.id, "Ada\x00")
    assert await archive.player(ada.id) == ada
