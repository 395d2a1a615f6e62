"""The `random` level: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardavia.bots.base import Bot, Budget
from cardavia.games.engine import Action, View


class RandomBot(Bot):
    id = "random"
    level = "random"
    description = "Plays any legal move at random: a baseline, not an opponent."
    reads_view = False

    def __init__(self, seed: str | int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action], budget: Budget | None = None) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[self._rng.randrange(len(legal))]
