"""The `basic` level: fast hand-written heuristics, one policy per game.

A policy is a pure function of what the seat sees and its legal actions: no
search and no randomness, ties broken by the order of ``legal``. It reads
what the seat sees either from the view (the bot) or straight from a state
(search playouts, on states the search built itself), and the two agree.
The search bots reuse these policies for their playouts, so a game gets a
`strong` level once it has a basic policy, a determinizer and a search model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardavia.bots.base import Bot, Budget
from cardavia.bots.briscola_heuristics import BriscolaSeen, choose_briscola
from cardavia.bots.scopa_heuristics import ScopaSeen, choose_scopa
from cardavia.games.engine import Action, State, View


@dataclass(frozen=True, slots=True)
class BasicPolicy:
    """A game's basic policy: how to read what a seat sees, and how to choose from it."""

    from_view: Callable[[View], Any]
    from_state: Callable[[State[Any], int], Any]
    choose: Callable[[Any, Sequence[Action]], Action]
    description: str

    def on_view(self, view: View, legal: Sequence[Action]) -> Action:
        return self.choose(self.from_view(view), legal)

    def on_state(self, state: State[Any], seat: int, legal: Sequence[Action]) -> Action:
        """The choice ``on_view(state.view(seat), legal)`` would make, without the view."""
        return self.choose(self.from_state(state, seat), legal)


POLICIES: dict[str, BasicPolicy] = {
    "scopa": BasicPolicy(
        ScopaSeen.from_view,
        ScopaSeen.from_state,
        choose_scopa,
        "Takes the settebello, coins and sweeps; avoids leaving the opponent a scopa.",
    ),
    "briscola": BasicPolicy(
        BriscolaSeen.from_view,
        BriscolaSeen.from_state,
        choose_briscola,
        "Wins points cheaply and keeps its trumps for tricks worth them.",
    ),
}
"""The basic policy of each game, by game id."""


class BasicBot(Bot):
    """Plays the game's basic policy; deterministic, so the seed is unused."""

    id = "basic"
    level = "basic"
    description = "Quick rules of thumb a casual player would recognise."
    policy: ClassVar[BasicPolicy | None] = None
    """A game's own policy (subclasses); None looks the view's game up in ``POLICIES``."""

    def __init__(self, seed: str | int | None = None) -> None:
        self.seed = seed  # kept for a uniform constructor: the policy needs no randomness

    def choose(self, view: View, legal: Sequence[Action], budget: Budget | None = None) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        policy = self.policy or POLICIES.get(view.get("game", ""))
        if policy is None:
            raise ValueError(f"no basic policy for game {view.get('game')!r}")
        return policy.on_view(view, legal)
