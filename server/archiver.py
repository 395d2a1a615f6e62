"""The outbox of match ends: each finished match goes to the archive once, whatever happens to the
database or the node meanwhile.

A room's match ends in one synchronous step on the event loop, which must not
wait on a database. So ``submit`` only queues the match's end (its record, its
seats' profiles and the bots' fixed ratings) and returns; one writer task hands
the queue to ``Archive.record_matches`` in the order matches ended: every end
queued at that moment (up to ``BATCH``) in one transaction (the records, each
seat's history row and every rating change), so ends that pile up while a
write is under way cost one commit together. Each end is idempotent by record
id, so a match end written twice (a retry after a lost answer, or an adopter
that re-finishes a match from its journal) changes the ratings exactly once.
An end the archive refuses (``ValueError``: a bug or data it cannot keep) does
not hold the others back: they are written, it is logged and queued again
behind them; a batch that fails otherwise is tried again one end at a time.

While the database is away (``StorageUnavailable``) the writer keeps the
matches at the head of the queue and retries with a doubling pause: play goes
on and nothing is lost as long as the node lives. If the node dies first, the room's
journal is what keeps the match: ``RoomKeeper`` releases a finished room's
lobby entry and journal only once its end is archived, and an adopter that
restores a finished match submits its end again (see ``server/rooms.py``).

Until it is written a match's record is served from this queue, so
``get_record`` answers the moment ``match_result`` is out; after that from
the archive, which on a cluster is one PostgreSQL shared by every node, so any
node answers for any match.

After a write that changed ratings, ``on_ratings`` is called with the match's
end and its changes: the node pushes ``rating_change`` to the profiles'
connections it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import astuple
from typing import Any, Final

from cardavia.games.ratings import Rating
from cardavia.server.store import RECORD_ID, Archive, MatchEnd, RatingChange, SeatEnd, StorageUnavailable
from cardavia.server.store.base import MatchesRefused, Written

log = logging.getLogger("cardavia.archiver")

FIRST_RETRY_SECONDS = 0.25
"""The writer's first pause after the database did not answer; it doubles up to ``MAX_RETRY_SECONDS``."""
MAX_RETRY_SECONDS = 8.0
"""The longest pause between two tries while the database is away: a match end is written at most
this long after the database is back."""
BATCH: Final = 64
"""The most match ends the writer hands the archive in one transaction (``record_matches``)."""
PRUNE_SECONDS = 86_400.0
"""How often casual matches older than the retention period are pruned from the archive."""

RatingsPushed = Callable[[MatchEnd, list[RatingChange]], None]
"""Called on the event loop after a match end that changed ratings is written."""


class MatchArchiver:
    """Writes match ends to the archive in the background; serves their records meanwhile."""

    def __init__(
        self,
        archive: Archive,
        *,
        keep_days: int = 0,
        on_ratings: RatingsPushed | None = None,
        clock: Callable[[], float] = time.time,
        batch: int = BATCH,
    ) -> None:
        if batch < 1:
            raise ValueError("a batch holds at least one match end")
        self.archive = archive
        self.keep_days = keep_days
        """Days a casual match is kept in the archive; 0 keeps every match forever. Rated matches
        are history that ratings were computed from: never pruned."""
        self.on_ratings = on_ratings
        self._clock = clock
        self._queue: deque[MatchEnd] = deque()
        self._unwritten: dict[str, MatchEnd] = {}
        """Match ends submitted and not yet in the archive, by record id (the queue's index)."""
        self._waiters: dict[str, list[Callable[[], None]]] = {}
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._writer: asyncio.Task[None] | None = None
        self._pruner: asyncio.Task[None] | None = None
        self.failures = 0
        """Tries since the last write that the database did not answer (0 while it answers)."""
        self.batch = batch
        self.writes = 0
        """Batches of 1 to ``batch`` match ends the archive answered (written, or some refused)."""
        self._one_at_a_time = 0
        """Writes still to make with one end each, after a batch failed with an unexpected error."""

    # ----------------------------------------------------------- the outbox
    def start(self) -> None:
        """Start the writer (and the daily prune): on the running event loop, once."""
        loop = asyncio.get_running_loop()
        if self._writer is None:
            self._writer = loop.create_task(self._write_forever())
        if self.keep_days > 0 and self._pruner is None:
            self._pruner = loop.create_task(self._prune_daily())

    def submit(self, end: MatchEnd, *, archived: Callable[[], None] | None = None) -> None:
        """Queue a match's end; never waits. ``archived`` is called once the archive has it (at
        once if it is already queued and written meanwhile, never if the node dies first)."""
        if archived is not None:
            self._waiters.setdefault(end.record_id, []).append(archived)
        if end.record_id in self._unwritten:  # the same match submitted again before its write
            return
        self._unwritten[end.record_id] = end
        self._queue.append(end)
        self._idle.clear()
        self._wake.set()

    def when_archived(self, record_id: str, callback: Callable[[], None]) -> None:
        """Call ``callback`` once ``record_id`` is in the archive: now if it is not waiting here."""
        if record_id in self._unwritten:
            self._waiters.setdefault(record_id, []).append(callback)
        else:
            callback()

    def unwritten(self, record_id: str) -> bool:
        """Whether this node holds ``record_id``'s match end and has not written it yet."""
        return record_id in self._unwritten

    @property
    def pending(self) -> int:
        """Match ends waiting to be written (``records_in_memory`` in /metrics)."""
        return len(self._queue)

    async def load_record(self, record_id: str) -> dict[str, Any] | None:
        """A finished match's record: from the queue until written, then from the archive (any
        node's match, on a shared database). None if there is none; ``StorageUnavailable`` if
        it is not here and the database does not answer."""
        if not RECORD_ID.fullmatch(record_id):  # a room id and a match number, never anything else
            return None
        end = self._unwritten.get(record_id)
        if end is not None:
            return end.record
        return await self.archive.load_record(record_id)

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until every match end submitted so far is written; False if ``timeout`` passed
        first (the database is away: those matches stay in their rooms' journals)."""
        try:
            async with asyncio.timeout(timeout):
                await self._idle.wait()
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        """Stop the writer and the pruner (after ``drain``, at shutdown)."""
        for task in (self._writer, self._pruner):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._writer = self._pruner = None

    # ------------------------------------------------------------ the writer
    async def _write_forever(self) -> None:
        pause = FIRST_RETRY_SECONDS
        while True:
            if not self._queue:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            size = 1 if self._one_at_a_time else self.batch
            ends = list(itertools.islice(self._queue, size))
            try:
                results = await self.archive.record_matches(ends)
            except StorageUnavailable as exc:
                self.failures += 1
                log.warning(
                    "event=match_end_waiting record=%s batch=%d pending=%d failures=%d error=%s",
                    ends[0].record_id, len(ends), len(self._queue), self.failures, exc,
                )  # fmt: skip
                await asyncio.sleep(pause)
                pause = min(pause * 2, MAX_RETRY_SECONDS)
                continue
            except MatchesRefused as refused:  # the others are written: only the bad ones wait
                self.failures += 1
                self._take(ends, refused.results)
                await asyncio.sleep(pause)
                pause = min(pause * 2, MAX_RETRY_SECONDS)
                continue
            except Exception:  # a bug: tried again later, behind the others
                self.failures += 1
                if len(ends) > 1:  # which end? each alone next, as before batches
                    log.exception("event=match_ends_failed record=%s batch=%d", ends[0].record_id, len(ends))
                    self._one_at_a_time = len(ends)
                    continue
                log.exception("event=match_end_failed record=%s", ends[0].record_id)
                self._queue.rotate(-1)
                self._one_at_a_time = max(0, self._one_at_a_time - 1)
                await asyncio.sleep(pause)
                pause = min(pause * 2, MAX_RETRY_SECONDS)
                continue
            pause = FIRST_RETRY_SECONDS
            self.failures = 0
            self._take(ends, results)

    def _take(self, ends: list[MatchEnd], results: Sequence[Written | ValueError]) -> None:
        """The batch at the head of the queue is done: each written end leaves the queue (its
        callbacks called); each refused one is logged and queued again behind the others."""
        self.writes += 1
        self._one_at_a_time = max(0, self._one_at_a_time - len(ends))
        for _ in ends:
            self._queue.popleft()
        for end, result in zip(ends, results, strict=True):
            if isinstance(result, ValueError):
                log.error("event=match_end_failed record=%s", end.record_id, exc_info=result)
                self._queue.append(end)
            else:
                self._written(end, result)

    def _written(self, end: MatchEnd, changes: list[RatingChange] | None) -> None:
        self._unwritten.pop(end.record_id, None)
        log.info(
            "event=match_archived record=%s rated=%s changes=%d",
            end.record_id, end.rated, len(changes or []),
        )  # fmt: skip
        if changes and self.on_ratings is not None:
            try:
                self.on_ratings(end, changes)
            except Exception:  # a push that fails must not stop the writer
                log.exception("event=rating_push_failed record=%s", end.record_id)
        for callback in self._waiters.pop(end.record_id, []):
            try:
                callback()
            except Exception:
                log.exception("event=archived_callback_failed record=%s", end.record_id)

    async def _prune_daily(self) -> None:
        while True:
            await self.prune()
            await asyncio.sleep(PRUNE_SECONDS)

    async def prune(self) -> int:
        """Delete casual matches that ended more than ``keep_days`` ago; how many were deleted."""
        if self.keep_days <= 0:
            return 0
        try:
            deleted = await self.archive.prune(self._clock() - self.keep_days * 86_400)
        except StorageUnavailable as exc:  # tomorrow's prune takes these too
            log.warning("event=records_prune_failed error=%s", exc)
            return 0
        if deleted:
            log.info("event=records_pruned deleted=%d keep_days=%d", deleted, self.keep_days)
        return deleted


def end_to_data(end: MatchEnd) -> dict[str, Any]:
    """A match end as plain data, for a room's journal header (``Room.unarchived``)."""
    seats = [
        {
            "name": seat.name,
            "player": seat.player,
            "bot_level": seat.bot_level,
            "fixed": None if seat.fixed is None else list(astuple(seat.fixed)),
            "guest": seat.guest,
            "level": seat.level,
        }
        for seat in end.seats
    ]
    return {
        "record_id": end.record_id,
        "game": end.game,
        "rated": end.rated,
        "ended": end.ended,
        "seats": seats,
        "scores": list(end.scores),
        "winner": end.winner,
        "record": end.record,
    }


def end_from_data(data: dict[str, Any]) -> MatchEnd:
    """The match end ``end_to_data`` wrote (read back from a journal by an adopter)."""
    seats = [
        SeatEnd(
            name=str(seat["name"]),
            player=seat["player"],
            bot_level=seat["bot_level"],
            fixed=None if seat["fixed"] is None else Rating(*(float(x) for x in seat["fixed"])),
            guest=seat.get("guest"),  # journals written before guests and levels had neither
            level=seat.get("level"),
        )
        for seat in data["seats"]
    ]
    return MatchEnd(
        record_id=str(data["record_id"]),
        game=str(data["game"]),
        rated=bool(data["rated"]),
        ended=float(data["ended"]),
        seats=seats,
        scores=[int(x) for x in data["scores"]],
        winner=data["winner"],
        record=dict(data["record"]),
    )
