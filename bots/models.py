"""What the generic search needs to know about each game: its search model.

Search (``search.py``, ``exact.py``) works only through the engine contract;
the few game-specific facts live here, one ``SearchModel`` per game id: where
a search stops (the end of the deal being played: a match game like Scopa is
searched deal by deal), how a finished deal is valued, which policy plays the
playouts, and the default budget of the `strong` level.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardavia.bots.basic_bot import POLICIES
from cardavia.bots.briscola_heuristics import briscola_random_share
from cardavia.bots.determinize import DETERMINIZERS, Determinizer
from cardavia.bots.scopa_heuristics import estimate_deal
from cardavia.games.engine import Action, State, View


@dataclass(frozen=True, slots=True)
class SearchModel:
    """The game-specific knobs of search.

    A finished deal's reward for a seat is ``win_weight`` times the sign of its
    margin (its deal points minus the best other seat's) plus the rest times
    the margin over ``scale``, clipped to [-1, 1].
    """

    game_id: str
    scale: float
    """Deal-point margin worth a full reward (Scopa: deal points; Briscola: card points)."""
    win_weight: float
    """Share of the reward for winning the deal at all, against its margin."""
    iterations: int
    """Default iteration budget of `strong`, sized for p95 < 250 ms per decision on one core."""
    exploration: float = 0.7
    """UCB exploration constant (rewards lie in [-1, 1])."""
    playout_epsilon: float = 0.1
    """Chance that a playout move of the searching seat is random instead of the basic policy's."""
    random_opponent_share: float = 0.0
    """Share of playouts in which the other seats play at random instead of like `basic`.

    A mixture of two opponent models: a search that trusts the opponent to
    play exactly like `basic` exploits `basic` and misjudges everyone else.
    """
    horizon: int | None = None
    """Playout plies after which ``estimate`` values the deal instead of playing it out (None: never)."""
    estimate: Callable[[State[Any], int], float] | None = None
    """Expected deal-point margin of a seat in an unfinished deal (two-player games)."""
    opponent_model: Callable[[View, random.Random], float] | None = None
    """Reads the opponent's moves so far and gives the share of random playouts (overrides the above)."""
    exact_worlds: int = 0
    """Solve every consistent world exactly when there are at most this many (0: never)."""
    iterations_per_world: int = 1
    """ISMCTS iterations played on each sampled world (states are immutable, so a world is reusable)."""
    algorithm: str = "ismcts"
    """``ismcts`` (tree search) or ``flat`` (determinized rollouts, every action on the same deals)."""

    @property
    def determinizer(self) -> Determinizer:
        return DETERMINIZERS[self.game_id]

    def deal_over(self, state: State[Any], root_deals: int) -> bool:
        """True once the deal searched from has been scored (a new deal started, or the match ended)."""
        return state.result is not None or len(state.log) > root_deals

    def deal_points(self, state: State[Any], root_deals: int) -> Sequence[int]:
        """The points each seat scored in the deal searched from (after ``deal_over``)."""
        deal = state.log[root_deals - 1] if len(state.log) >= root_deals else None
        if deal is not None and deal.score is not None:
            points: list[int] = deal.score["points"]
            return points
        if state.result is not None:
            return state.result.scores
        raise ValueError("the deal is not over")

    def rewards(self, state: State[Any], root_deals: int) -> list[float]:
        """Each seat's reward in [-1, 1] for the finished deal."""
        points = self.deal_points(state, root_deals)
        return [
            self.reward(own - max(p for s, p in enumerate(points) if s != seat))
            for seat, own in enumerate(points)
        ]

    def estimated_rewards(self, state: State[Any]) -> list[float]:
        """Both seats' rewards for an unfinished deal, from ``estimate``."""
        assert self.estimate is not None
        margin = self.estimate(state, 0)
        return [self.reward(margin), self.reward(-margin)]

    def reward(self, margin: float) -> float:
        """The reward of a deal-point margin: part win or loss, part margin over ``scale``."""
        sign = (margin > 0) - (margin < 0)
        share = max(-1.0, min(1.0, margin / self.scale))
        return self.win_weight * sign + (1.0 - self.win_weight) * share

    def random_share(self, view: View, rng: random.Random) -> float:
        """The share of playouts in which the other seats play at random, for this decision."""
        if self.opponent_model is not None:
            return self.opponent_model(view, rng)
        return self.random_opponent_share

    def side(self, state: State[Any], seat: int) -> int:
        """The side a seat plays for; exact search maximises for the root's side (teams: override)."""
        return seat

    def finish_deal(
        self, state: State[Any], root_deals: int, rng: random.Random, randomly: frozenset[int]
    ) -> list[float] | None:
        """A game's own faster playout to the end of the deal, making the moves and giving the
        rewards the generic one would (``search.playout``); None: the game has none."""
        return None

    def playout(self, state: State[Any], seat: int, legal: Sequence[Action], rng: random.Random) -> Action:
        """A playout move: the basic policy on the seat's view, sometimes a random one."""
        if len(legal) == 1:
            return legal[0]
        if self.playout_epsilon and rng.random() < self.playout_epsilon:
            return legal[rng.randrange(len(legal))]
        return POLICIES[self.game_id].on_state(state, seat, legal)


MODELS: dict[str, SearchModel] = {
    "scopa": SearchModel(
        "scopa",
        scale=4.0,
        win_weight=0.0,
        iterations=300,
        playout_epsilon=0.0,
        horizon=4,
        estimate=estimate_deal,
        algorithm="flat",
    ),
    "briscola": SearchModel(
        "briscola",
        scale=60.0,
        win_weight=0.5,
        iterations=300,
        playout_epsilon=0.0,
        exact_worlds=4,
        opponent_model=briscola_random_share,
        algorithm="flat",
    ),
}
"""The search model of each game that has a `strong` level, by game id."""
