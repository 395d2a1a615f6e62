"""The match archiver: a match end is served at once, reaches the archive exactly once, waits
(never lost) while the database is away, and old casual matches are pruned."""

from __future__ import annotations

import json
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cardavia.bots.ratings import bot_rating
from cardavia.games import briscola
from cardavia.games.records import Seat, dumps, make_record
from cardavia.server.archiver import MatchArchiver, end_from_data, end_to_data
from cardavia.server.store import Archive, MatchEnd, RatingChange, SeatEnd, StorageUnavailable, open_archive
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
    """Makes ``record_match`` fail as a database that cannot be reached does, until ``back``."""

    def __init__(self, archive: Archive, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tries = 0
        self._monkeypatch = monkeypatch
        self._archive = archive

        async def unreachable(end: MatchEnd) -> list[RatingChange] | None:
            self.tries += 1
            raise StorageUnavailable("connection refused")

        monkeypatch.setattr(archive, "record_match", unreachable)

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
    for end in ends:
        archiver.submit(end)
    await wait_until(lambda: away.tries >= 2, "two tries of the first write")
    assert archiver.pending == 3
    assert not await archiver.drain(timeout=0.05)
    assert [await archiver.load_record(e.record_id) for e in ends] == [e.record for e in ends]
    away.back()
    assert await archiver.drain(timeout=15)
    assert archiver.pending == 0
    assert archiver.failures == 0
    assert [await archive.load_record(e.record_id) for e in ends] == [e.record for e in ends]
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
