"""Runs bot decisions without blocking the event loop.

Cheap levels (random, basic) decide in well under a millisecond and run
inline. Search bots run in a process pool (``workers > 0``) or, in tests and
single-core setups, in a thread; either way the event loop keeps serving
every other room while a bot thinks.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Sequence
from typing import Any

from cardavia.bots.base import Bot
from cardavia.games.engine import Action


def _choose(bot: Bot, view: dict[str, Any], legal: Sequence[Action]) -> Action:
    return bot.choose(view, legal)


class BotRunner:
    INLINE_LEVELS = frozenset({"random", "basic"})

    def __init__(self, workers: int) -> None:
        self._pool: concurrent.futures.Executor
        if workers > 0:
            self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
        else:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")

    async def choose(self, bot: Bot, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if bot.level in self.INLINE_LEVELS:
            return bot.choose(view, legal)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, _choose, bot, view, list(legal))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
