"""Waiting on a condition rather than on the clock.

A test that sleeps "long enough" for something to happen is slow when the
machine is fast and flaky when it is loaded; a test that polls the condition it
waits for goes on the moment it holds, and when it never does, fails with the
name of what it waited for. ``timeout`` is a guard against a hang, never a speed
check: where a test asserts how soon something happens, it says so itself.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

TIMEOUT = 5.0
"""Seconds after which a condition that has not held is taken never to hold."""

INTERVAL = 0.01
"""Seconds between two looks at the condition."""


async def wait_until(
    condition: Callable[[], T | Awaitable[T]],
    what: str,
    *,
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
) -> T:
    """Look at ``condition`` (a plain or an async callable) every ``interval`` seconds,
    letting the event loop run in between, until it returns something true; that value.

    Raises AssertionError naming ``what`` if it has not held within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise AssertionError(f"gave up after {timeout:g}s waiting for {what}")
        await asyncio.sleep(interval)


def wait_until_sync(
    condition: Callable[[], T],
    what: str,
    *,
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
) -> T:
    """``wait_until`` for code outside an event loop (a browser test, a thread): blocks
    between looks."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"gave up after {timeout:g}s waiting for {what}")
        time.sleep(interval)
