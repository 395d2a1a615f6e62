"""Exact search for positions the seat knows completely (no hidden card left).

Once the stock is empty in Scopa or Briscola, every unseen card is in the
opponent's hand, so the view fixes the whole state and the rest of the deal
is a perfect-information game. ``ExactSolver`` plays it out with alpha-beta
(two sides: the root seat's side maximises its reward, the others minimise
it) and a transposition table keyed by the position text, storing each value
with whether it is exact or a bound. It works through the engine contract
only, so it serves any game whose model says how a deal is valued.
"""

from __future__ import annotations

import math
from typing import Any, Final

from cardavia.bots.models import SearchModel
from cardavia.games.engine import Action, State

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2


class ExactSolver:
    """Values of positions of one deal, for one root seat, with a shared table."""

    def __init__(self, model: SearchModel, root: State[Any]) -> None:
        seat = root.to_move
        if seat is None:
            raise ValueError("the position is over: nothing to solve")
        self.model = model
        self.seat = seat
        self.root_deals = len(root.log)
        self.side = model.side(root, seat)
        self.table: dict[str, tuple[float, int]] = {}
        self.nodes = 0

    def action_values(self, state: State[Any]) -> dict[Action, float]:
        """The exact value (root seat's reward) of every legal action of ``state``."""
        mover = state.to_move
        if mover is None:
            return {}
        return {
            action: self.value(state.apply_unchecked(action)[0], -math.inf, math.inf)
            for action in state.legal_actions(mover)
        }

    def value(self, state: State[Any], alpha: float, beta: float) -> float:
        """The root seat's reward under best play, fail-soft within (alpha, beta)."""
        self.nodes += 1
        model = self.model
        if model.deal_over(state, self.root_deals):
            return model.rewards(state, self.root_deals)[self.seat]
        key = state.to_text()
        entry = self.table.get(key)
        if entry is not None:
            stored, flag = entry
            if flag == EXACT:
                return stored
            if flag == LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored
        mover = state.to_move
        assert mover is not None
        maximising = model.side(state, mover) == self.side
        low, high = alpha, beta
        best = -math.inf if maximising else math.inf
        for action in state.legal_actions(mover):
            score = self.value(state.apply_unchecked(action)[0], alpha, beta)
            if maximising:
                best = max(best, score)
                alpha = max(alpha, score)
            else:
                best = min(best, score)
                beta = min(beta, score)
            if alpha >= beta:
                break
        if best <= low:
            self.table[key] = (best, UPPER)
        elif best >= high:
            self.table[key] = (best, LOWER)
        else:
            self.table[key] = (best, EXACT)
        return best


def best_exact_action(model: SearchModel, state: State[Any]) -> tuple[Action, dict[Action, float]]:
    """The first action (in legal order) of highest exact value, with every action's value."""
    values = ExactSolver(model, state).action_values(state)
    if not values:
        raise ValueError("no legal action in this position")
    best = max(values.values())
    action = next(a for a, v in values.items() if v == best)
    return action, values
