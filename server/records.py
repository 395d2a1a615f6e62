"""Finished games' records on disk, written by a thread of their own so that no room waits on a disk.

A record is serialized on the event loop, where the room that made it lives,
and written by one worker thread, in the order the games ended, to a
temporary file renamed into place: a reader never sees half a record. Until
its file is written a record is kept in memory, so ``load`` finds it the
moment its ``match_result`` is out. A write that fails is logged and the
record stays in memory; ``drain`` (at shutdown) waits for every write.

Records older than ``keep_days`` are deleted by the same thread, when the
store is made and once a day after, so that the disk does not fill up.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from cardavia.games.records import dumps

log = logging.getLogger("cardavia.records")

PRUNE_SECONDS = 86_400.0
"""How often records older than the retention period are looked for."""


class RecordStore:
    """The records directory as the server uses it: ``save`` never blocks, ``load`` sees unwritten ones."""

    def __init__(self, directory: Path, keep_days: int = 0) -> None:
        self.directory = directory
        self.keep_days = keep_days
        """Days a record file is kept after it was written; 0 keeps records forever."""
        self._pending: dict[str, str] = {}
        """Records not yet on disk (or whose write failed), by id, as the text to write."""
        self._writes: set[asyncio.Future[None]] = set()
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="records")
        self._timer: threading.Timer | None = None
        self._closed = False
        self._timer_lock = threading.Lock()
        if keep_days > 0:
            self._schedule_prune()

    @staticmethod
    def valid_id(record_id: str) -> bool:
        """Ids are room ids and match numbers: ASCII letters, digits and dashes, never a path (and
        never a name too long for a file system, as 64 four-byte Unicode digits would be)."""
        return bool(record_id) and record_id.isascii() and record_id.replace("-", "").isalnum()

    def path(self, record_id: str) -> Path:
        return self.directory / f"{record_id}.jsonl"

    def save(self, record_id: str, record: dict[str, Any]) -> None:
        """Queue a record for writing; it can be loaded at once."""
        text = dumps(record) + "\n"
        self._pending[record_id] = text
        write = asyncio.get_running_loop().run_in_executor(self._pool, self._write, record_id, text)
        self._writes.add(write)
        write.add_done_callback(lambda done: self._written(record_id, done))

    def _write(self, record_id: str, text: str) -> None:
        path = self.path(record_id)
        temporary = path.with_name(f".{path.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)

    def _written(self, record_id: str, write: asyncio.Future[None]) -> None:
        self._writes.discard(write)
        if write.cancelled():
            return
        error = write.exception()
        if error is not None:
            log.error("event=record_write_failed record=%s error=%r", record_id, error)
            return
        self._pending.pop(record_id, None)

    async def load(self, record_id: str) -> dict[str, Any] | None:
        """A record by id, written or not yet; None if there is none (or the id is not one)."""
        if not self.valid_id(record_id):
            return None
        text = self._pending.get(record_id)
        if text is None:
            text = await asyncio.get_running_loop().run_in_executor(self._pool, self._read, record_id)
        if text is None:
            return None
        record: dict[str, Any] = json.loads(text)
        return record

    def _read(self, record_id: str) -> str | None:
        try:
            return self.path(record_id).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:  # unreadable: as good as absent to the client, worth a line to the operator
            log.error("event=record_read_failed record=%s error=%r", record_id, exc)
            return None

    @property
    def pending(self) -> int:
        """Records not on disk yet."""
        return len(self._pending)

    async def drain(self) -> None:
        """Wait until every record saved so far is written (or has failed and been logged)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)

    def _schedule_prune(self) -> None:
        """Prune now, in the records thread (the event loop never waits on the disk), and again in a day."""
        with self._timer_lock:
            if self._closed:
                return
            self._pool.submit(self._prune)
            self._timer = threading.Timer(PRUNE_SECONDS, self._schedule_prune)
            self._timer.daemon = True
            self._timer.start()

    def _prune(self) -> int:
        """Delete record files last written more than ``keep_days`` ago; how many were deleted."""
        cutoff = time.time() - self.keep_days * 86_400
        deleted = 0
        try:
            paths = list(self.directory.glob("*.jsonl"))
        except OSError as exc:
            log.error("event=records_prune_failed directory=%s error=%r", self.directory, exc)
            return 0
        for path in paths:
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
                    deleted += 1
            except FileNotFoundError:
                continue
            except OSError as exc:
                log.error("event=records_prune_failed path=%s error=%r", path, exc)
        if deleted:
            log.info("event=records_pruned deleted=%d keep_days=%d", deleted, self.keep_days)
        return deleted

    def close(self) -> None:
        with self._timer_lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
        self._pool.shutdown(wait=True)
