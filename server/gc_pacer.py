"""When the garbage collector runs on a serving node: rarely, and never over the rooms' live state.

Theory of operation
-------------------
A room's engine state, its seats' last views and its connections' buffers
live for seconds to minutes and die by reference counting, not by the cycle
collector: in steady play CPython's young collections find no garbage at all.
Yet each one walks every container allocated since the last, and since a
replaced state frees old objects as fast as the new ones are made, the young
generation grows far past its threshold before a collection starts. With
1,000 rooms that was 60,000 objects and 25-50 ms of one core every four
seconds: every action that arrived meanwhile waited, and those waits were
the whole of the server's p99 (BENCHMARKS.md).

So every ``freeze_seconds`` the pacer moves everything allocated so far into
the permanent generation (``gc.freeze``, a constant-time list splice). The
collector then only ever walks what the last fraction of a second made.
Frozen objects are still freed by reference counting the moment they are
unreachable; only cyclic garbage that was frozen (what a connection's life
leaves behind: about 15 objects each) waits for a full collection, which
walks everything (about 200 ms at 1,000 rooms) and so is paced by the
garbage it frees: each one measures how fast memory went to cyclic garbage
since the last (the allocator blocks the collection released) and schedules
the next for when that garbage would reach ``SHARE`` of the heap, at least
``MIN_FULL_SECONDS`` and at most ``full_seconds`` apart. Blocks, not the
objects the collector found: one unreachable cycle can hold a whole room's
state (a connection's transport on CPython 3.11 is such a cycle), and
counting it as two objects put the next collection off for an hour while the
node's memory grew by kilobytes a match (``bench/leak.py``). A node that only
plays frees nothing and collects once an hour; one with many players
coming and going collects every 15 seconds to a few minutes. A heap that
doubles anyway (a burst of rooms, or garbage faster than measured) gets one
at once. The heap is
measured in the allocator's blocks (``sys.getallocatedblocks``, well under
a millisecond) at every tick; ``gc.get_freeze_count`` walks every frozen
object (35 ms at 1,000 rooms, as long as the pauses it was meant to end),
so it is only read inside a full collection's own pause.

This is a process-wide policy, so only the ``cardavia serve`` process runs
it, never a server embedded in tests or another program.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable
from typing import Any, Final

from prometheus_client import Histogram

THRESHOLDS: Final = (50_000, 20, 100)
"""Young, middle and full collections between freezes (CPython's defaults are 700, 10, 10)."""
SHARE: Final = 0.1
"""Cyclic garbage allowed to build up between full collections, as a share of the heap's blocks."""
MIN_FULL_SECONDS: Final = 15.0
"""Shortest time between paced full collections; also when the first one after start-up runs.
At a minute, a node where players came and went 40 matches a second kept a minute's garbage
between collections, and its memory settled 13% above its size after the first thousand
matches; at 15 s, 6% (``bench/leak.py``, BENCHMARKS.md)."""
GROWTH: Final = 2.0
"""A full collection at once when the heap is this many times its size after the last one..."""
SLACK: Final = 100_000
"""...plus this many allocator blocks, so that a small heap is not collected at every tick."""


class GcPacer:
    """Freezes the heap every ``freeze_seconds``; full collections paced by the garbage they free."""

    def __init__(
        self,
        freeze_seconds: float,
        full_seconds: float,
        *,
        pauses: Histogram | None = None,
        clock: Callable[[], float] = time.monotonic,
        growth: float = GROWTH,
        slack: int = SLACK,
    ) -> None:
        """``pauses``: a histogram by generation ("0", "1", "2") that gets every collection's time."""
        self.freeze_seconds, self.full_seconds = freeze_seconds, full_seconds
        self.growth, self.slack = growth, slack
        self.clock = clock
        self.pauses = pauses
        self.full_collections = 0
        self.heap = self.found = self.blocks = self.released = 0
        """After the last full collection: live objects, the cyclic garbage objects it found,
        allocator blocks in use, and the blocks it released."""
        self.last_full = self.next_full = clock()
        self._started = 0.0
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """Collect what start-up left behind, freeze the rest and time every collection from now on."""
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        if self.pauses is not None:
            gc.callbacks.append(self._timed)
        self.full()
        self.next_full = self.last_full + MIN_FULL_SECONDS  # start-up's garbage says nothing of the rate

    def stop(self) -> None:
        """Give the collector back its whole heap and its thresholds, and stop timing it."""
        if self._timed in gc.callbacks:
            gc.callbacks.remove(self._timed)
        gc.unfreeze()
        gc.set_threshold(*self._thresholds)

    def tick(self) -> bool:
        """Freeze what was made since the last tick, or collect everything when due; True if it did."""
        gc.freeze()
        if (
            self.clock() >= self.next_full
            or sys.getallocatedblocks() > self.blocks * self.growth + self.slack
        ):
            self.full()
            return True
        return False

    def full(self) -> None:
        """One full collection over the whole heap, frozen part included; then freeze the survivors
        and schedule the next by the rate of garbage this one found."""
        now = self.clock()
        before = sys.getallocatedblocks()
        gc.unfreeze()
        self.found = gc.collect()
        gc.freeze()
        self.heap, self.blocks = gc.get_freeze_count(), sys.getallocatedblocks()
        self.released = max(0, before - self.blocks)
        rate = self.released / max(now - self.last_full, 1e-9)
        wait = self.full_seconds if not self.found or not rate else SHARE * self.blocks / rate
        self.next_full = now + min(self.full_seconds, max(MIN_FULL_SECONDS, wait))
        self.last_full = now
        self.full_collections += 1

    async def run(self) -> None:
        """Tick every ``freeze_seconds`` until cancelled; 0 leaves the collector as CPython runs it."""
        if self.freeze_seconds <= 0:
            return
        self.start()
        try:
            while True:
                await asyncio.sleep(self.freeze_seconds)
                self.tick()
        finally:
            self.stop()

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self.pauses is not None:
            self.pauses.labels(str(info["generation"])).observe(time.perf_counter() - self._started)
