"""Runs bot decisions without blocking the event loop.

Cheap levels (random, basic) decide in well under a millisecond and run
inline. Search bots run in a process pool (``workers > 0``) or, in tests and
single-core setups, in a thread; either way the event loop keeps serving
every other room while a bot thinks.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from prometheus_client import Histogram

from cardavia.bots.base import Bot
from cardavia.games.engine import Action
from cardavia.server.metrics import Children

T = TypeVar("T")


def _choose(bot: Bot, view: dict[str, Any], legal: Sequence[Action]) -> Action:
    return bot.choose(view, legal)


class BotRunner:
    INLINE_LEVELS = frozenset({"random", "basic"})

    def __init__(self, workers: int, *, think_seconds: Histogram | None = None) -> None:
        """``think_seconds``: a histogram by bot level that gets each decision's time."""
        self._think_seconds = Children(think_seconds) if think_seconds is not None else None
        self._pool: concurrent.futures.Executor
        if workers > 0:
            self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
        else:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")

    def decides_inline(self, bot: Bot) -> bool:
        """Whether ``choose`` decides on the event loop, without waiting for a worker."""
        return bot.level in self.INLINE_LEVELS

    async def choose(self, bot: Bot, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        started = time.perf_counter()
        if self.decides_inline(bot):
            action = bot.choose(view, legal)
        else:
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(self._pool, _choose, bot, view, list(legal))
        if self._think_seconds is not None:  # a worker's time includes its queue: what a room waits
            self._think_seconds(bot.level).observe(time.perf_counter() - started)
        return action

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Pure CPU work that is no bot move (a replay's views, a match's analysis) in the same
        pool, never on the event loop: ``work`` and ``args`` are picklable (a module's function
        and plain data) so that a worker process can take them."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
