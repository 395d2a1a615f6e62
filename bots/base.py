"""The one interface every bot implements, in the server and in network clients alike."""

from __future__ import annotations

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

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Action], budget: Budget | None = None) -> Action:
        """One of ``legal``; ``view`` is the seat's view (plain data), never the state."""

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "level": self.level, "description": self.description}
