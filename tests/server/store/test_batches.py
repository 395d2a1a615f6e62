"""Several match ends in one transaction (``Archive.record_matches``), on both backends: the
same ratings, history and idempotency as writing them one by one; a refused end does not take
the others with it; a batch during an outage writes nothing and is written whole after it."""

from __future__ import annotations

import asyncio

import pytest

from cardavia.server.store import (
    Archive,
    MatchEnd,
    Player,
    RatingChange,
    SeatEnd,
    StorageUnavailable,
    open_archive,
)
from cardavia.server.store.base import MatchesRefused
from tests.server.store.helpers import bot, match_end, new_hash
from tests.server.store.outage import FolderOutage, Relay
from tests.support.waiting import wait_until


async def profiles(archive: Archive, *names: str) -> list[Player]:
    return [await archive.create_player(name, new_hash()) for name in names]


def sitting(player: Player) -> SeatEnd:
    return SeatEnd(name=player.name, player=player.id, bot_level=None, fixed=None)


def evening(prefix: str, ada: Player, bea: Player, cid: Player) -> list[MatchEnd]:
    """One evening's match ends: Ada in most of them (rated twice in a row against Bea), a bot,
    a casual match, a draw, and a first rated match in a second game."""
    return [
        match_end(f"{prefix}-1", [sitting(ada), sitting(bea)], winner=0, ended=1_001.0),
        match_end(f"{prefix}-2", [sitting(bea), sitting(ada)], winner=0, ended=1_002.0),
        match_end(f"{prefix}-3", [bot("strong", 1650.0), sitting(ada)], winner=1, ended=1_003.0),
        match_end(f"{prefix}-4", [sitting(ada), sitting(cid)], rated=False, ended=1_004.0),
        match_end(f"{prefix}-5", [sitting(cid), sitting(ada)], winner=None, scores=[7, 7], ended=1_005.0),
        match_end(f"{prefix}-6", [sitting(ada), sitting(bea)], game="briscola", winner=1, ended=1_006.0),
    ]


def shape(
    changes: list[RatingChange] | None, who: dict[str, str]
) -> list[tuple[str, int, object, object]] | None:
    """Rating changes with the profiles' ids replaced by names (two sets of profiles compared)."""
    if changes is None:
        return None
    return [(who[c.player], c.seat, c.before, c.after) for c in changes]


async def test_a_batch_gives_what_writing_its_ends_one_by_one_gives(archive: Archive) -> None:
    one = await profiles(archive, "Ada", "Bea", "Cid")
    many = await profiles(archive, "Ada", "Bea", "Cid")
    names = {p.id: p.name for p in (*one, *many)}

    alone = [await archive.record_match(end) for end in evening("one", *one)]
    batch = evening("many", *many)
    together = await archive.record_matches(batch)

    assert len(together) == 6
    assert [shape(c, names) for c in together] == [shape(c, names) for c in alone]
    assert together[3] == []  # the casual match
    assert together[0] is not None
    assert together[1] is not None
    ada_first = next(c for c in together[0] if c.seat == 0)
    ada_second = next(c for c in together[1] if c.seat == 1)
    assert ada_second.before == ada_first.after  # in order: the second starts where the first left
    for a, b in zip(one, many, strict=True):
        assert await archive.ratings(a.id) == await archive.ratings(b.id)
        first, second = await archive.history(a.id), await archive.history(b.id)
        assert [e.record.replace("one-", "many-") for e in first] == [e.record for e in second]
        assert [(e.game, e.ended, e.rated, e.seat, e.scores, e.winner) for e in first] == [
            (e.game, e.ended, e.rated, e.seat, e.scores, e.winner) for e in second
        ]
        assert [(e.rating_before, e.rating_after) for e in first] == [
            (e.rating_before, e.rating_after) for e in second
        ]
    ada = many[0]
    assert [(r.game, r.games) for r in await archive.ratings(ada.id)] == [("briscola", 1), ("scopa", 4)]
    assert [await archive.load_record(end.record_id) for end in batch] == [end.record for end in batch]


async def test_a_batch_writes_an_end_once_however_often_it_holds_it(archive: Archive) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    written = match_end("w-1", [sitting(ada), sitting(bea)], ended=1_001.0)
    fresh = match_end("w-2", [sitting(ada), sitting(bea)], ended=1_002.0)
    last = match_end("w-3", [sitting(bea), sitting(ada)], ended=1_003.0)
    first = await archive.record_match(written)
    assert first is not None

    results = await archive.record_matches([written, fresh, fresh, last])

    assert results[0] is None  # written before the batch
    assert results[1] is not None
    assert results[2] is None  # the same end again within the batch
    assert results[3] is not None
    assert [c.before for c in results[1]] == [c.after for c in first]
    assert [(r.game, r.games) for r in await archive.ratings(ada.id)] == [("scopa", 3)]
    assert [e.record for e in await archive.history(ada.id)] == ["w-3", "w-2", "w-1"]
    assert await archive.record_matches([written, fresh, last]) == [None, None, None]
    assert [r.games for r in await archive.ratings(bea.id)] == [3]
    assert await archive.record_matches([]) == []


@pytest.mark.parametrize("where", ["checked", "in the transaction"])
async def test_a_refused_end_in_a_batch_leaves_the_others_written(archive: Archive, where: str) -> None:
    ada, bea = await profiles(archive, "Ada", "Bea")
    good = [
        match_end("ok-1", [sitting(ada), sitting(bea)], ended=1_001.0),
        match_end("ok-2", [sitting(bea), sitting(ada)], ended=1_003.0),
    ]
    if where == "checked":  # refused by the store's own check, before any statement
        bad = match_end("bad-1", [sitting(ada), sitting(bea)], scores=[1], ended=1_002.0)
    else:  # refused by the rating rules after the first end's statements ran in the transaction
        bad = match_end("bad-1", [sitting(ada), sitting(bea)], game="doudizhu", ended=1_002.0)

    with pytest.raises(MatchesRefused) as refused:
        await archive.record_matches([good[0], bad, good[1]])

    first, error, second = refused.value.results
    assert isinstance(refused.value, ValueError)
    assert isinstance(error, ValueError)
    assert "seats" in str(error) or "scores" in str(error)
    assert isinstance(first, list)
    assert isinstance(second, list)
    assert [c.before for c in second] == [c.after for c in reversed(first)]
    assert await archive.load_record("bad-1") is None
    assert [e.record for e in await archive.history(ada.id)] == ["ok-2", "ok-1"]
    assert [r.games for r in await archive.ratings(ada.id)] == [2]
    # once more, as the archiver tries it again: the good ones are there, the bad one refused
    with pytest.raises(MatchesRefused) as again:
        await archive.record_matches([good[0], bad, good[1]])
    assert again.value.results[0] is None
    assert again.value.results[2] is None
    with pytest.raises(MatchesRefused) as alone:
        await archive.record_matches([bad])
    [only] = alone.value.results
    assert isinstance(only, ValueError)


async def test_a_batch_during_an_outage_writes_nothing_and_after_it_everything(
    outage: FolderOutage | Relay,
) -> None:
    archive = open_archive(outage.url)
    await archive.open()
    try:
        ada, bea, cid = await profiles(archive, "Ada", "Bea", "Cid")
        ends = evening("away", ada, bea, cid)
        await outage.down()
        with pytest.raises(StorageUnavailable):
            await archive.record_matches(ends)
        await outage.up()
        await wait_until(archive.ping, "the archive to answer once its database is back")
        assert await archive.history(ada.id) == []  # the failed batch left nothing behind
        assert await archive.ratings(ada.id) == []
        results = await archive.record_matches(ends)
        assert all(r is not None for r in results)
        assert len(await archive.history(ada.id)) == 6
        assert await archive.record_matches(ends) == [None] * 6
        assert sorted((r.game, r.games) for r in await archive.ratings(ada.id)) == [
            ("briscola", 1),
            ("scopa", 4),
        ]
    finally:
        await archive.close()


async def test_batches_of_two_archives_sharing_players_all_count(archive: Archive, archive_url: str) -> None:
    """Two nodes write batches at once whose ends share players in opposite orders (on
    PostgreSQL they may deadlock; the one rolled back runs again): every end counts once."""
    players = await profiles(archive, "A", "B", "C", "D")
    other = open_archive(archive_url)
    await other.open()
    try:
        for n in range(3):
            forth = [
                match_end(f"f-{n}-{i}", [sitting(players[i]), sitting(players[i + 1])], ended=n * 10.0 + i)
                for i in range(3)
            ]
            back = [
                match_end(
                    f"b-{n}-{i}", [sitting(players[3 - i]), sitting(players[2 - i])], ended=n * 10.0 + i
                )
                for i in range(3)
            ]
            done = await asyncio.gather(archive.record_matches(forth), other.record_matches(back))
            assert all(r is not None for results in done for r in results)
        games = [(await archive.ratings(p.id))[0].games for p in players]
        assert games == [6, 12, 12, 6]
    finally:
        await other.close()
