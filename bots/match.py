"""Play whole matches between bots, in-process (self-play, arena, tests)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardavia.bots.base import Bot, Budget
from cardavia.games.engine import Game, State


def play_match(
    game: Game[Any, Any],
    bots: Sequence[Bot],
    seed: str,
    options: dict[str, Any] | None = None,
    budget: Budget | None = None,
) -> State[Any]:
    """Play one match to its end; each bot sees only its own seat's view."""
    if len(bots) != game.players:
        raise ValueError(f"{game.id} needs {game.players} bots, got {len(bots)}")
    state: State[Any] = game.new(options, seed)
    while (seat := state.to_move) is not None:
        legal = state.legal_actions(seat)
        action = bots[seat].choose(state.view(seat), legal, budget)
        state, _ = state.apply(action, seat=seat)
    return state
