"""A clock a test moves by hand, for code that takes its time source as a parameter
(``MemoryLobby(clock=…)``): an expiry is reached by stepping the clock past it, at once
and exactly, rather than by sleeping until it has passed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

Elapse = Callable[[float], Awaitable[None]]
"""Lets seconds pass for what a test watches: a fake clock's step, or a real wait where the
clock is not the test's to step (Redis expires keys on its own)."""


class FakeClock:
    """Seconds that pass only when ``advance`` says so; called, the time now.

    It starts at 0.0 so that a time read after a step is the sum of the steps, exactly
    (a large start would round them away in the last bits).
    """

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        assert seconds >= 0, "a clock does not go back"
        self.now += seconds
