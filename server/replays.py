"""The ``replay`` answer: a finished match step by step, every hand shown, with the strong bot's
view of each person's moves.

A replay is built from the match's record (``MatchArchiver.load_record``: the
node's own unwritten records, else the archive, so any node of a cluster
answers for any match). Rebuilding every seat's view after every action
(``games.records.replay_views``) and diffing each into the delta ops the
clients already apply (``protocol.delta``) is pure CPU, and so is the
analysis (``bots.analysis.analyse``: the strong bot's choice at each move of a
person); both run in the bot workers' pool (``BotRunner.run``), never on the
event loop. The analysis is the slow part (a strong bot's search per move), so
it is kept in the archive after the first request (``save_analysis``), one
analysis per record runs at a time however many ask for it, and at most
``concurrent`` analyses run on a node at once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from cardavia.bots.analysis import analyse
from cardavia.games.records import replay_views
from cardavia.protocol import messages as m
from cardavia.protocol.delta import diff
from cardavia.server.archiver import MatchArchiver
from cardavia.server.bot_runner import BotRunner
from cardavia.server.store import StorageUnavailable

log = logging.getLogger("cardavia.server")


def replay_steps(record: dict[str, Any]) -> tuple[list[Any], list[dict[str, Any]]]:
    """Every seat's view at the match's start, and per action ``{deal, seat, action, ops}`` with
    each seat's delta ops from its previous view. ``ValueError`` if the record does not replay.
    Run in a worker: a module-level function of plain data."""
    views, steps = replay_views(record)
    previous = list(views)
    out: list[dict[str, Any]] = []
    for step in steps:
        ops = [diff(before, after) for before, after in zip(previous, step.views, strict=True)]
        previous = list(step.views)
        out.append({"deal": step.deal, "seat": step.seat, "action": dict(step.action), "ops": ops})
    return list(views), out


def human_seats(record: dict[str, Any]) -> list[int]:
    """The record's seats that people played (the ones analysed)."""
    seats = record.get("seats", [])
    return [i for i, seat in enumerate(seats) if isinstance(seat, dict) and seat.get("kind") == "human"]


def analyse_record(record: dict[str, Any], budget: int | None) -> list[Any]:
    """``bots.analysis.analyse`` for the record's human seats (run in a worker)."""
    return list(analyse(record, human_seats(record), budget=budget))


class Replays:
    """Builds ``replay`` messages; caches each match's analysis in the archive."""

    def __init__(
        self, archiver: MatchArchiver, runner: BotRunner, *, concurrent: int = 1, budget: int | None = None
    ) -> None:
        self._archiver = archiver
        self._runner = runner
        self.budget = budget
        """The strong bot's iterations per analysed move (None: its default for the game, a few
        seconds of one worker per match; tests give less)."""
        self._analysing: dict[str, asyncio.Future[list[Any]]] = {}
        """Analyses under way, by record id: a second request for one waits for the first."""
        self._slots = asyncio.Semaphore(max(1, concurrent))
        self.analysed = 0
        """Analyses this node has run (not those read from the archive)."""

    async def replay(self, record_id: str, request_id: int | None = None) -> m.Replay | None:
        """The replay of a finished match; None if no finished match has that id.
        ``StorageUnavailable`` when the match is not here and the database does not answer."""
        record = await self._archiver.load_record(record_id)
        if record is None:
            return None
        views, steps = await self._runner.run(replay_steps, record)
        analysis = await self.analysis(record_id, record)
        return m.Replay(
            id=request_id, record_id=record_id, record=record, views=views, steps=steps, analysis=analysis
        )

    async def analysis(self, record_id: str, record: dict[str, Any]) -> list[Any]:
        """The record's analysis: from the archive when it was made before, else made now (in
        the pool) and saved there."""
        written = not self._archiver.unwritten(record_id)
        if written:
            cached = await self._archiver.archive.load_analysis(record_id)
            if cached is not None:
                return cached
        under_way = self._analysing.get(record_id)
        if under_way is not None:
            return await asyncio.shield(under_way)
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._analysing[record_id] = future
        try:
            async with self._slots:
                result = await self._runner.run(analyse_record, record, self.budget)
            self.analysed += 1
            future.set_result(result)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else need be waiting
            raise
        finally:
            self._analysing.pop(record_id, None)
        if written or not self._archiver.unwritten(record_id):
            try:
                await self._archiver.archive.save_analysis(record_id, result)
            except StorageUnavailable as exc:  # served all the same; made again next time
                log.warning("event=analysis_not_saved record=%s error=%s", record_id, exc)
        return result
