"""The `strong` level: search over the hidden cards, exact once nothing is hidden.

When the view fixes the whole position (Scopa or Briscola with an empty
stock: every unseen card is in the opponent's hand) the bot solves the rest
of the deal exactly (``exact.py``). When only a few positions fit the view
(Briscola with two cards in the stock: four) it solves each of them exactly
and plays the best sum. Otherwise it searches determinizations of the view
(``search.py``: flat Monte Carlo or ISMCTS, as the game's model says) with
the basic policy in the playouts. Its only state is configuration, so it pickles cheaply into a
worker process and gives the same answer there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from cardavia.bots.base import Bot, Budget, decision_rng
from cardavia.bots.basic_bot import POLICIES, BasicBot
from cardavia.bots.determinize import DETERMINIZERS, Determinizer, all_placements, placement_count
from cardavia.bots.exact import ExactSolver, best_exact_action
from cardavia.bots.models import MODELS, SearchModel
from cardavia.bots.search import flat_rollouts, ismcts
from cardavia.games.cards import Card
from cardavia.games.engine import Action, View

Weight = Callable[[Mapping[str, list[Card]]], float]
"""How much a placement of the hidden cards counts (a reading of the opponents' play)."""


class StrongBot(Bot):
    """ISMCTS with basic playouts; exact alpha-beta when the position is fully known."""

    id = "strong"
    level = "strong"
    description = "Searches the cards it cannot see; plays endgames perfectly."
    default_iterations: ClassVar[int | None] = None
    """The level's own search budget when not the game model's (an expert searches longer)."""

    def __init__(self, seed: str | int | None = None, *, iterations: int | None = None) -> None:
        self.seed = seed
        self.iterations = iterations

    def default_budget(self, game_id: str) -> Budget:
        model = self._model(game_id)
        return Budget(iterations=self.iterations or self.default_iterations or model.iterations)

    def choose(self, view: View, legal: Sequence[Action], budget: Budget | None = None) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        model = self._model(view.get("game", ""))
        if budget is None or (budget.iterations is None and budget.seconds is None):
            budget = self.default_budget(model.game_id)
        return self.decide(model, view, legal, decision_rng(self.seed, view), budget)

    def decide(
        self, model: SearchModel, view: View, legal: Sequence[Action], rng: random.Random, budget: Budget
    ) -> Action:
        """The choice among two or more ``legal`` actions within ``budget`` (a game's bot overrides this)."""
        solved = solve_exactly(model, view, legal, rng)
        if solved is not None:
            return solved
        search = flat_rollouts if model.algorithm == "flat" else ismcts
        result = search(model, view, legal, rng, iterations=budget.iterations, seconds=budget.seconds)
        return result.action

    @staticmethod
    def _model(game_id: str) -> SearchModel:
        try:
            return MODELS[game_id]
        except KeyError:
            raise ValueError(f"no strong bot for game {game_id!r}") from None


def solve_exactly(
    model: SearchModel, view: View, legal: Sequence[Action], rng: random.Random, weight: Weight | None = None
) -> Action | None:
    """The exact choice when the view fixes the position or leaves few worlds, else None (search).

    ``weight`` weighs the few worlds (an expert's reading); without it they count alike.
    """
    determinizer = model.determinizer
    hidden = determinizer.hidden(view)
    if hidden.fully_known:
        action, _ = best_exact_action(model, determinizer.determinize(view, rng))
        return action if action in legal else None
    if model.exact_worlds and placement_count(hidden) <= model.exact_worlds:
        return solve_every_world(model, view, legal, weight)
    return None


def solve_every_world(
    model: SearchModel, view: View, legal: Sequence[Action], weight: Weight | None = None
) -> Action:
    """Solve each world consistent with ``view`` exactly and play the best total (few worlds only).

    Each world is solved as if both seats saw everything, so this overrates
    what the opponent knows; with a handful of worlds left it is still far
    closer than playouts. With ``weight``, each world's values count by its weight.
    """
    determinizer = model.determinizer
    totals = dict.fromkeys(legal, 0.0)
    for placed in all_placements(determinizer.hidden(view)):
        world = determinizer.build(view, placed)
        share = 1.0 if weight is None else weight(placed)
        values = ExactSolver(model, world).action_values(world)
        for action in legal:
            totals[action] += share * values[action]
    return max(legal, key=totals.__getitem__)


@dataclass(frozen=True, slots=True)
class GameBots:
    """A game whose `basic` and `strong` levels are its own subclasses (Schnapsen, Dou Dizhu).

    ``register`` puts the game's policy, determinizer and search model in the
    framework's tables (that is what lists its levels); ``make`` is the bot
    registry's hook for the game.
    """

    basic: type[BasicBot]
    strong: type[StrongBot]
    determinizer: Determinizer
    model: SearchModel

    @property
    def game_id(self) -> str:
        return self.model.game_id

    def make(self, level: str, seed: str | int | None = None, iterations: int | None = None) -> Bot:
        """The game's `basic` or `strong` bot (its `expert` is made by ``registry.make_bot``)."""
        if level == "basic":
            return self.basic(seed)
        if level == "strong":
            return self.strong(seed, iterations=iterations)
        raise ValueError(f"no {level} bot among {self.game_id}'s own bots")

    def register(self) -> None:
        policy = self.basic.policy
        if policy is None:
            raise ValueError(f"{self.basic.__name__} names no policy")
        POLICIES[self.game_id] = policy
        DETERMINIZERS[self.game_id] = self.determinizer
        MODELS[self.game_id] = self.model
