"""The one interface every bot implements, in the server and in network clients alike."""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardavia.games.engine import Action, View


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think: a wall-clock limit, an iteration limit, or both.

    A seeded bot given only an iteration limit is deterministic.
    """

    seconds: float | None = None
    iterations: int | None = None


class Bot(ABC):
    """Chooses an action from what one seat may know."""

    id: ClassVar[str]
    level: ClassVar[str]
    description: ClassVar[str]
    reads_view: ClassVar[bool] = True
    """False for a bot that chooses from the legal moves alone: a server then builds no view
    for it (a view costs about as much as the rest of a move) and hands it an empty one."""

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Action], budget: Budget | None = None) -> Action:
        """One of ``legal``; ``view`` is the seat's view (plain data), never the state."""

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "level": self.level, "description": self.description}


def decision_rng(seed: str | int | None, view: View) -> random.Random:
    """The random generator for one decision: a function of the bot's seed and the view.

    Deriving it from the view, not from a generator that advances call by call,
    makes a seeded bot's choice depend on nothing but what it is shown, so the
    same bot gives the same answer in the server, in a worker process (which
    holds a pickled copy whose generator would never advance the original's)
    and in a network client. ``seed=None`` gives an unseeded generator.
    """
    if seed is None:
        return random.Random()
    material = json.dumps([str(seed), view], sort_keys=True, separators=(",", ":")).encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:16], "big"))
