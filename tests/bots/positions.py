"""Random positions of real games, for the bot tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from cardavia.games.engine import State
from cardavia.games.registry import get_game

BOT_GAMES = ("scopa", "briscola", "schnapsen", "doudizhu")
"""Every game with all three bot levels: what the interface tests cover."""
GENERIC_GAMES = ("scopa", "briscola")
"""Games whose `strong` bot is the generic search with the generic determinizers."""


def random_positions(game_id: str, seed: str, matches: int, every: int = 1) -> Iterator[State[Any]]:
    """Every ``every``-th position (someone to move) of ``matches`` random matches."""
    game = get_game(game_id)
    rng = random.Random(seed)
    for number in range(matches):
        state: State[Any] = game.new(None, f"{seed}/{number}")
        ply = 0
        while (seat := state.to_move) is not None:
            if ply % every == 0:
                yield state
            legal = state.legal_actions(seat)
            state = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
            ply += 1


def position_after(game_id: str, seed: str, plies: int) -> State[Any]:
    """The position after ``plies`` random moves of a match (or its last position)."""
    game = get_game(game_id)
    rng = random.Random(seed)
    state: State[Any] = game.new(None, seed)
    for _ in range(plies):
        seat = state.to_move
        if seat is None:
            break
        legal = state.legal_actions(seat)
        nxt = state.apply_unchecked(legal[rng.randrange(len(legal))])[0]
        if nxt.to_move is None:
            break
        state = nxt
    return state
