"""The match archiver: a match end is served at once, reaches the archive exactly once, waits
(never lost) while the database is away, and old casual matches are pruned."""

from __future__ import annotations

import json
import random
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardavia.bots.ratings import bot_rating
from cardavia.games import briscola
from cardavia.games.records import Seat, dumps, make_record
from cardavia.server.archiver import MatchArchiver, end_from_data, end_to_data
from cardavia.server.store import Archive, MatchEnd, RatingChange, SeatEnd, StorageUnavailable, open_archive
from cardavia.server.store.base import MatchesRefused
from tests.support.waiting import wait_until

DAY = 86_400.0


def _record(seed: str) -> dict[str, Any]:
    state = briscola.GAME.new(None, seed)
    rng = random.Random(seed)
    while (seat := state.to_move) is not None:
        state, _ = state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    seats = [Seat("Anna", "human"), Seat("Bot 2 (basic)", "bot", "basic")]
    record: dict[str, Any] = json.loads(dumps(make_record(state, seats=seats, seed=seed)))
    return record


def _end(
    record_id: str, *, player: str | None = None, rated: bool = False, ended: float | None = None
) -> MatchEnd:
    record = _record(record_id)
    result = record["result"]
    return MatchEnd(
        record_id=record_id,
        game="briscola",
        rated=rated,
        ended=time.time() if ended is None else ended,
        seats=[
            SeatEnd(name="Anna", player=player, bot_level=None, fixed=None),
            SeatEnd(
                name="Bot 2 (basic)", player=None, bot_level="basic", fixed=bot_rating("briscola", "basic")
            ),
        ],
        scores=list(result["scores"]),
        winner=result["winner"],
        record=record,
    )


@pytest.fixture
async def archive(tmp_path: Path) -> AsyncIterator[Archive]:
    store = open_archive(f"sqlite:///{tmp_path / 'archive.db'}")
    await store.open()
    yield store
    await store.close()


class Away:
    """Makes the archiver's writes (``record_matches``) fail as a database that cannot be
    reached does, until ``back``."""

    def __init__(self, archive: Archive, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tries = 0
        self._monkeypatch = monkeypatch
        self._archive = archive

        async def unreachable(ends: Sequence[MatchEnd]) -> list[list[RatingChange] | None]:
            self.tries += 1
            self.batches.append([end.record_id for end in ends])
            raise StorageUnavailable("connection refused")

        self.batches: list[list[str]] = []
        monkeypatch.setattr(archive, "record_matches", unreachable)

    def back(self) -> None:
        self._monkeypatch.undo()


async def test_a_match_end_is_served_at_once_and_then_from_the_archive(archive: Archive) -> None:
    archiver = MatchArchiver(archive)
    archiver.start()
    end = _end("r-aaaa-1")
    archiver.submit(end)
    assert await archiver.load_record("r-aaaa-1") == end.record  # before any write
    assert await archiver.drain(timeout=5)
    assert archiver.pending == 0
    assert not archiver.unwritten("r-aaaa-1")
    assert await archive.load_record("r-aaaa-1") == end.record
    assert await archiver.load_record("r-aaaa-1") == end.record  # now from the archive
    assert await archiver.load_record("r-nope-1") is None
    await archiver.close()


async def test_while_the_database_is_away_match_ends_wait_and_none_is_lost(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    archiver = MatchArchiver(archive)
    archiver.start()
    away = Away(archive, monkeypatch)
    ends = [_end(f"r-bbbb-{n}") for n in range(1, 4)]
    archived: list[str] = []
    for end in ends:
        archiver.submit(end, archived=lambda end=end: archived.append(end.record_id))
    await wait_until(lambda: away.tries >= 2, "two tries of the first write")
    assert archiver.pending == 3
    assert not await archiver.drain(timeout=0.05)
    assert [await archiver.load_record(e.record_id) for e in ends] == [e.record for e in ends]
    assert away.batches[:2] == [["r-bbbb-1", "r-bbbb-2", "r-bbbb-3"]] * 2  # the whole queue each try
    late = _end("r-bbbb-4")
    archiver.submit(late, archived=lambda: archived.append(late.record_id))
    assert archived == []
    away.back()
    assert await archiver.drain(timeout=15)
    assert archiver.pending == 0
    assert archiver.failures == 0
    assert archived == ["r-bbbb-1", "r-bbbb-2", "r-bbbb-3", "r-bbbb-4"]
    assert archiver.writes == 1  # everything waiting, in one transaction once the database is back
    assert [await archive.load_record(e.record_id) for e in [*ends, late]] == [
        e.record for e in [*ends, late]
    ]
    await archiver.close()


async def test_a_rated_end_changes_the_rating_once_and_is_pushed_once(archive: Archive) -> None:
    anna = await archive.create_player("Anna", "a" * 64)
    pushed: list[tuple[str, list[RatingChange]]] = []
    archiver = MatchArchiver(archive, on_ratings=lambda end, changes: pushed.append((end.record_id, changes)))
    archiver.start()
    end = _end("r-cccc-1", player=anna.id, rated=True)
    archived: list[str] = []
    archiver.submit(end, archived=lambda: archived.append("first"))
    assert await archiver.drain(timeout=5)
    archiver.submit(end, archived=lambda: archived.append("again"))  # an adopter re-finishing the match
    assert await archiver.drain(timeout=5)
    assert archived == ["first", "again"]
    [(record_id, changes)] = pushed
    assert record_id == "r-cccc-1"
    [change] = changes
    assert change.player == anna.id
    assert change.seat == 0
    assert change.game == "briscola"
    assert change.after.games == change.before.games + 1 == 1
    [rating] = await archive.ratings(anna.id)
    assert rating.games == 1
    assert rating.rating == change.after.rating
    await archiver.close()


async def test_ends_queued_together_are_written_together_with_their_callbacks_each(archive: Archive) -> None:
    anna = await archive.create_player("Anna", "c" * 64)
    pushed: list[tuple[str, int]] = []
    archiver = MatchArchiver(
        archive,
        on_ratings=lambda end, changes: pushed.append((end.record_id, changes[0].after.games)),
        batch=2,
    )
    archiver.start()
    ends = [_end(f"r-ffff-{n}", player=anna.id, rated=n % 2 == 1) for n in range(1, 6)]
    archived: list[str] = []
    for end in ends:  # all queued before the writer runs
        archiver.submit(end, archived=lambda end=end: archived.append(end.record_id))
    assert await archiver.drain(timeout=5)
    assert archiver.writes == 3  # 2 + 2 + 1
    assert archived == [e.record_id for e in ends]
    assert pushed == [("r-ffff-1", 1), ("r-ffff-3", 2), ("r-ffff-5", 3)]  # rated in order, once each
    [rating] = await archive.ratings(anna.id)
    assert rating.games == 3
    assert [e.record for e in await archive.history(anna.id)] == [e.record_id for e in reversed(ends)]
    await archiver.close()


async def test_a_refused_end_waits_behind_the_others_which_are_written(archive: Archive) -> None:
    archiver = MatchArchiver(archive)
    archiver.start()
    good = [_end("r-gggg-1"), _end("r-gggg-3")]
    bad = replace(_end("r-gggg-2"), scores=[1])  # two seats, one score: refused by the archive
    archived: list[str] = []
    for end in (good[0], bad, good[1]):
        archiver.submit(end, archived=lambda end=end: archived.append(end.record_id))
    await wait_until(lambda: archived == ["r-gggg-1", "r-gggg-3"], "the good ends written")
    assert archiver.unwritten("r-gggg-2")
    assert archiver.pending == 1
    assert archiver.failures >= 1
    assert await archiver.load_record("r-gggg-2") == bad.record  # still served from the queue
    assert await archive.load_record("r-gggg-2") is None
    assert [await archive.load_record(e.record_id) for e in good] == [e.record for e in good]
    later = _end("r-gggg-4")
    archiver.submit(later, archived=lambda: archived.append(later.record_id))
    await wait_until(lambda: "r-gggg-4" in archived, "an end submitted after it written")
    assert archiver.unwritten("r-gggg-2")
    assert not await archiver.drain(timeout=0.05)
    await archiver.close()
    with pytest.raises(MatchesRefused):
        await archive.record_matches([bad])


async def test_a_batch_failing_unexpectedly_is_tried_again_one_end_at_a_time(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    write = archive.record_matches
    calls: list[list[str]] = []

    async def buggy(ends: Sequence[MatchEnd]) -> list[list[RatingChange] | None]:
        calls.append([end.record_id for end in ends])
        if any(end.record_id == "r-hhhh-2" for end in ends):
            raise RuntimeError("a bug")
        return await write(ends)

    monkeypatch.setattr(archive, "record_matches", buggy)
    archiver = MatchArchiver(archive)
    archiver.start()
    ends = [_end(f"r-hhhh-{n}") for n in range(1, 4)]
    for end in ends:
        archiver.submit(end)
    await wait_until(lambda: archiver.pending == 1, "the ends around the bad one written")
    assert calls[:3] == [["r-hhhh-1", "r-hhhh-2", "r-hhhh-3"], ["r-hhhh-1"], ["r-hhhh-2"]]
    assert archiver.unwritten("r-hhhh-2")
    assert await archive.load_record("r-hhhh-1") == ends[0].record
    assert await archive.load_record("r-hhhh-3") == ends[2].record
    await archiver.close()


def test_a_batch_holds_at_least_one_end(archive: Archive) -> None:
    with pytest.raises(ValueError, match="at least one"):
        MatchArchiver(archive, batch=0)


async def test_old_casual_matches_are_pruned_and_rated_ones_kept(archive: Archive) -> None:
    now = time.time()
    anna = await archive.create_player("Anna", "b" * 64)
    archiver = MatchArchiver(archive)
    archiver.start()
    old_casual = _end("r-dddd-1", ended=now - 31 * DAY)
    old_rated = _end("r-dddd-2", player=anna.id, rated=True, ended=now - 31 * DAY)
    recent = _end("r-dddd-3", ended=now - 29 * DAY)
    for end in (old_casual, old_rated, recent):
        archiver.submit(end)
    assert await archiver.drain(timeout=5)
    assert await MatchArchiver(archive, keep_days=30, clock=lambda: now).prune() == 1
    assert await archive.load_record("r-dddd-1") is None
    assert await archive.load_record("r-dddd-2") == old_rated.record
    assert await archive.load_record("r-dddd-3") == recent.record
    assert await MatchArchiver(archive, keep_days=0).prune() == 0  # 0 keeps every match
    await archiver.close()


def test_a_match_end_survives_the_journal_as_plain_data() -> None:
    end = _end("r-eeee-1", player="p-0123456789abcdef", rated=True)
    data = json.loads(json.dumps(end_to_data(end)))
    assert end_from_data(data) == end
