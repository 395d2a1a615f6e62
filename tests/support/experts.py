"""A quick stand-in for a game's expert bot: tests of the level's plumbing need a listed expert
that answers at once, not the real one's search (and Scopa, which has none, can be given one)."""

from __future__ import annotations

import pytest

from cardavia.bots import registry
from cardavia.bots.strong_bot import StrongBot


class QuickExpert(StrongBot):
    """A strong bot with a small search under the expert level's name."""

    level = "expert"
    description = "Reads the opponent's play."

    def __init__(self, seed: str | int | None = None, *, iterations: int | None = None) -> None:
        super().__init__(seed, iterations=iterations or 4)


def list_quick_expert(monkeypatch: pytest.MonkeyPatch, game: str = "briscola") -> None:
    """List ``QuickExpert`` as ``game``'s expert for one test."""
    monkeypatch.setitem(registry.EXPERTS, game, QuickExpert)
